// A factory parameter `[T]`, and `resolve([T].self)`: the elements of `T`'s
// collection, which manifest bindings with a "collection" key list. A
// collection is zero or more elements: with none it is `[]`, never a missing
// dependency, as long as the catalog knows `T`.

/// `[T]` as a factory parameter.
protocol CollectionDependency {
    static var dependencySpec: DependencySpec { get }
    /// The element type's identity.
    static var elementID: ObjectIdentifier { get }
    /// An empty array of the element type.
    static var empty: Any { get }
}

extension Array: CollectionDependency {
    static var dependencySpec: DependencySpec {
        DependencySpec(key: TypeKey(Element.self), kind: .collection) { call -> Any in
            // From the injector that served the factory, with the same fallback.
            let elements: [Element]? = try call.context.resolve(
                [Element].self, from: call.binding.injector, ifBound: true)
            return elements ?? []
        }
    }

    static var elementID: ObjectIdentifier { ObjectIdentifier(Element.self) }

    static var empty: Any { [Element]() }
}

extension Activation {
    /// `[]` when `T` is an array whose element type the catalog knows (some
    /// factory provides it, or needs a collection of it) and no injector
    /// lists an element of it; nil for any other type, which is not bound.
    ///
    /// Asked only of a type the table lacks: an array whose collection has
    /// elements is in the table.
    func emptyCollection<T>(_: T.Type) -> T? {
        guard let collection = T.self as? any CollectionDependency.Type,
            knownElementTypes.kept(orMake: { Self.elementTypes(of: catalog) }).contains(collection.elementID)
        else { return nil }
        return collection.empty as? T
    }

    /// The types a collection of which may be asked for: those some factory
    /// provides, or needs a collection of.
    static func elementTypes(of catalog: FactoryCatalog) -> Set<ObjectIdentifier> {
        Set(catalog.definitions.flatMap { definition in
            definition.provides.map(\.key.id) + (definition.dependencies ?? []).filter(\.kind.isCollection).map(\.key.id)
        })
    }
}
