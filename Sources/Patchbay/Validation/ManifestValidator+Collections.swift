// The rules of collections: bindings written with "collection" instead of
// "protocol", each one element of its type's collection, served together as
// `[T]` in manifest order. Every rule of a single binding applies to each
// element as well (names, lifetime, parameters, needs); these are the rules
// an element has besides, and the table the graph check follows a `[T]`
// need through.

extension ValidationRun {
    /// Rule `collection-element-takes-argument`: an element's factory takes
    /// no resolve-time argument, since a collection is resolved whole and
    /// nothing could pass one to each element.
    mutating func checkElementTakesNoArgument(_ binding: Binding, factory: Int, in catalog: CatalogIndex) -> Bool {
        guard let argument = catalog.factories[factory].argument else { return true }
        report(diagnostic(
            binding, .collectionElementTakesArgument, "factory '\(binding.displayFactory)' for an element of "
                + "\(binding.displayKey) takes a resolve-time argument (\(catalog.display(argument))), but a collection "
                + "is resolved whole, so nothing can pass it; bind a factory without an argument, or resolve "
                + "\(catalog.display(argument))-taking \(binding.protocolName) directly with resolve(_:argument:)",
            field: BindingKey.factory.rawValue))
        return false
    }

    /// Rule `needs-await` for an element: a collection is made
    /// synchronously, each element where its taker runs (or on the main
    /// actor, for an awaited `[T]` with main-actor elements), so an `async`
    /// factory can never be one of its elements, whoever takes it.
    mutating func checkElementIsNotAsync(_ binding: Binding, factory: Int, in catalog: CatalogIndex) -> Bool {
        guard catalog.factories[factory].execution == .async else { return true }
        report(diagnostic(
            binding, .needsAwait, "factory '\(binding.displayFactory)' for an element of \(binding.displayKey) is async, but "
                + "a collection's elements are made synchronously; bind a synchronous or main-actor factory as the "
                + "element, or resolve the async one alone with try await container.resolve(awaiting:)",
            field: BindingKey.factory.rawValue))
        return false
    }

    /// The `extends` rule for collections, and rule `duplicate-collection-element`.
    ///
    /// A collection is replaced whole, never merged: of the elements of one
    /// type and injector, those of the shallowest file (the child) are the
    /// collection, in their order, and a parent's elements of it are
    /// dropped, so an environment can remove a plugin its base lists. The
    /// first element that stands records what it replaced, for `explain`.
    ///
    /// As with single bindings, the verdict is reached over the elements
    /// whose type and factory the catalog knows, and the tools' winners
    /// over every element with a factory key.
    mutating func resolveCollectionOverrides(
        _ elements: [BindingDescription]
    ) -> (winners: [BindingDescription], effective: [BindingDescription]) {
        let known = anyUnknownToCatalog ? elements.filter(\.isKnownToCatalog) : elements
        let standing = applyCollectionRule(to: known)
        reportDuplicateElements(standing)
        let described = anyWithoutFactory ? elements.filter { !$0.factory.isEmpty } : elements
        let winners = anyUnknownToCatalog || anyWithoutFactory ? applyCollectionRule(to: described) : standing
        return (winners, standing.filter { !$0.isBroken })
    }

    /// The elements that stand under the `extends` rule (``OverrideRule``),
    /// in manifest order, each collection's first with the manifest places
    /// of the parents' elements it replaces.
    private func applyCollectionRule(to elements: [BindingDescription]) -> [BindingDescription] {
        var standing = [BindingDescription?](repeating: nil, count: elements.count)
        for group in OverrideRule.apply(to: overrideKeys(of: elements)) {
            for offset in group.standing { standing[offset] = elements[offset] }
            if !group.replaced.isEmpty { standing[group.standing[0]]!.overridden = group.replaced.map { elements[$0].index } }
        }
        return standing.compactMap { $0 }
    }

    /// Rule `duplicate-collection-element` (a warning): two elements of one
    /// collection, in one injector of one file, with the same factory and
    /// the same parameters are most likely one pasted twice; each is made on
    /// its own, so the collection would hold it twice. Reported at each
    /// repeat, naming the first.
    private mutating func reportDuplicateElements(_ standing: [BindingDescription]) {
        struct Element: Hashable {
            let type: Int
            let injector: InjectorName
            let factory: String
            let parameters: JSONValue?
        }
        var first: [Element: Binding] = [:]
        for element in standing where !element.factory.isEmpty {
            let written = binding(element)
            let key = Element(
                type: element.typeID, injector: element.injector, factory: written.factory,
                parameters: written.parameters)
            guard let original = first[key] else {
                first[key] = written
                continue
            }
            let line = original.origin?.position().line
            report(written.diagnostic(
                .duplicateCollectionElement, "\(written.displayKey) lists factory '\(written.factory)' with the same "
                    + "parameters twice in this file" + (line.map { " (first at line \($0))" } ?? "")
                    + ", so the collection would hold two of it; remove one, or give them different parameters",
                field: BindingKey.factory.rawValue, severity: .warning, fallbackFile: manifest.file))
        }
    }
}

/// The elements of each collection, by type and injector, and which
/// injector's list serves a request from each: the requesting injector's own
/// list, else the first injector in fallback order that has one, as for a
/// single binding. Places are those of the list of bindings it is made from.
package struct CollectionTable {
    /// The first element of each list stands for the list, in a serving table.
    private var heads: ServingTable
    /// Every list, by the place of its first element.
    private var lists: [Int: [Int]] = [:]

    /// The collections of `bindings`' elements; `typeCount` bounds their types' numbers.
    package init(_ bindings: [BindingDescription], typeCount: Int) {
        heads = ServingTable(typeCount: typeCount)
        for (offset, binding) in bindings.enumerated() where binding.isCollectionElement {
            if let head = heads[binding.typeID]?.own(binding.injector) {
                lists[head]!.append(offset)
            } else {
                _ = heads.add(offset, type: binding.typeID, injector: binding.injector, rank: binding.injectorRank)
                lists[offset] = [offset]
            }
        }
    }

    /// The elements that serve `[type]` asked from `injector`, in manifest
    /// order; nil when no injector lists any.
    package func elements(of type: Int, from injector: InjectorName) -> [Int]? {
        heads.binding(serving: type, from: injector).map { lists[$0]! }
    }

    /// The elements `injector` lists itself for `type`; nil when it lists none.
    package func own(_ type: Int, in injector: InjectorName) -> [Int]? {
        heads[type]?.own(injector).map { lists[$0]! }
    }
}
