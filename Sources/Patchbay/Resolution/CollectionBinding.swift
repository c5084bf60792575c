// How activation serves a collection: the elements an injector lists for a
// type `T` become one more entry of the type table, keyed by `[T]`, whose
// factory resolves each element's own binding in manifest order and returns
// the array. So `resolve([T].self)`, a factory's `[T]` parameter and
// `@Injected var x: [T]` find it as they find any type, with the same
// injector fallback, and a plain bound type's lookup is not touched: the
// table merely holds one entry more per collection.
//
// The array is made by a `CollectionMaker` that the registration of one of
// the elements' factories captured, where `T` is a static type: activation
// knows `T` only as a metatype it opens, and generic code opened from it
// would look up the metadata of `[T]` and of its storage on every resolve
// (with the elements' own lookups, they were most of a collection's cost).

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
            // Every element provides `Element`, and a factory has a maker
            // only when that is its one provided type, so any element's
            // maker makes the array; one is made here, unspecialized, only
            // when none has one.
            let maker = elements.lazy.compactMap(\.definition.collection).first ?? CollectionMaker.of(Element.self)
            // A transient of unknown needs (it resolves its elements itself),
            // made straight into the caller's memory by the engine, which
            // tracks the path for cycles and messages and shares `graph`
            // instances. Never boxed: a transient product that is the bound
            // type is always made into memory, so `build` is not called.
            let definition = FactoryDefinition(
                name: "[\(TypeKey.shortName(of: Element.self))]", product: [Element].self, dependencies: nil,
                defaultLifetime: .transient, registeredAt: CodeLocation(#fileID, #line),
                buildInto: maker.buildInto, build: maker.build)
            let provided = definition.provides[0]
            return CompiledBinding(
                injector: injector, definition: definition, provided: provided,
                parameters: nil, storage: TransientLifetime(), described: nil, elements: elements)
        }
        return serving(elementType)
    }
}

/// Makes the array `[T]` of a collection's elements. Made at registration,
/// in this module's code not specialized for `T`: the registrations are not
/// inlinable (see FactoryCatalog+Register.swift), so making the array asks
/// the runtime for the metadata of `[T]`, `ContiguousArray<T>` and its
/// storage class at every resolve. Specialized in the app's module at each
/// registration, the maker asked for none, and doubled the release build
/// time of registration code: the compile cost wins (Benchmarks/README.md,
/// "One engine", has both figures). Growing an array with `reserveCapacity`
/// and `append` asks for more, not fewer (each unspecialized call of an
/// `Array` method asks for `[T]`'s). A struct around the closure, so an
/// optional maker does not store the closure in its most general form,
/// which would reabstract every call.
struct CollectionMaker: Sendable {
    let buildInto: @Sendable (FactoryCall, ProductMemory) throws -> Void
    /// The same array, boxed.
    let build: @Sendable (FactoryCall) throws -> AnyObject

    static func of<T>(_: T.Type) -> CollectionMaker {
        // Specialized for `T`, where a registration names it: each element
        // as its own lifetime says (a singleton's one instance, a new
        // transient, this scope's scoped one), in manifest order.
        @Sendable func elements(_ call: FactoryCall) throws -> [T] {
            let elements = call.binding.elements, context = call.context
            return try ProductMemory.array(of: T.self, count: elements.count) { index, memory in
                try context.instance(of: elements[index], into: memory, argument: nil)
            }
        }
        return CollectionMaker(
            buildInto: { call, memory in memory.initialize(to: try elements(call)) },
            build: { call in Instance(try elements(call)) })
    }
}
