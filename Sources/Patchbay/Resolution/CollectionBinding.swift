// How activation serves a collection: the elements an injector lists for a
// type `T` become one more entry of the type table, keyed by `[T]`, whose
// factory resolves each element's own binding in manifest order and returns
// the array. So `resolve([T].self)`, a factory's `[T]` parameter and
// `@Injected var x: [T]` find it as they find any type, with the same
// injector fallback, and a plain bound type's lookup is not touched: the
// table merely holds one entry more per collection.

extension Activation {
    /// A collection's place among those activation compiles: its element type and injector.
    struct CollectionKey: Hashable {
        let type: ObjectIdentifier
        let injector: InjectorName
    }

    /// The binding that serves `[T]` from `injector`, where `elementType` is
    /// `T` and `elements` are its compiled elements there, in manifest order.
    ///
    /// The array type is made from the element type by opening its
    /// metatype: no name is parsed and no runtime layout read.
    static func collectionBinding(
        of elementType: any Any.Type, elements: [CompiledBinding], injector: InjectorName
    ) -> CompiledBinding {
        func serving<Element>(_: Element.Type) -> CompiledBinding {
            let type = [Element].self
            let key = TypeKey(type)
            let provided = ProvidedType(key: key, type: type, convert: nil)
            // A transient of unknown needs (it resolves its elements itself):
            // never light, so always built by the general engine, which tracks
            // the path for cycles and messages and shares `graph` instances.
            let definition = FactoryDefinition(
                name: "[\(TypeKey.shortName(of: Element.self))]", provides: [provided], dependencies: nil,
                defaultLifetime: .transient, productTypeName: key.qualifiedName, productIsClass: false,
                parameters: nil, argument: nil, registeredAt: CodeLocation(#fileID, #line), buildInto: nil,
                build: { call in
                    let context = call.context
                    let elements = call.binding.elements
                    var made: [Element] = []
                    made.reserveCapacity(elements.count)
                    // Each element as its own lifetime says: a singleton's one
                    // instance, a new transient, this scope's scoped one.
                    for element in elements {
                        made.append(try context.instance(of: element, as: Element.self, argument: nil))
                    }
                    return Instance(made)
                })
            return CompiledBinding(
                key: key, injector: injector, definition: definition, provided: provided,
                parameters: nil, storage: TransientLifetime(), described: nil, elements: elements)
        }
        return serving(elementType)
    }
}
