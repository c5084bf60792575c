extension Container {
    /// The singletons of the manifest in force made so far that are `Value`,
    /// in the order they were made: dependencies before what needs them.
    /// Each is the instance, as the type asked for, and the binding that made
    /// it, as validation described it (its manifest position, for
    /// ``BindingDescription/diagnostic(_:_:severity:)``); nil for an
    /// ``Injectable`` type's implicit binding, which no manifest wrote.
    ///
    ///     try container.makeSingletons()
    ///     let services = container.madeSingletons(as: (any Service).self).map(\.instance)
    ///     // a ServiceGroup starts them in this order and stops them in reverse
    ///
    /// Whatever type each binding bound, an instance is listed when its value
    /// is a `Value` (a class, a protocol it conforms to), once even when
    /// several bindings share it. Only what has been made is listed: call
    /// ``makeSingletons()`` (and resolve `async` singletons) first for
    /// everything the manifest binds. Singletons made inside
    /// `withOverrides` or `isolated` blocks belong to those blocks and are not listed.
    public func madeSingletons<Value>(
        as _: Value.Type = Value.self
    ) -> [(instance: Value, binding: BindingDescription?)] {
        var seen: Set<ObjectIdentifier> = []
        var made: [(instance: Value, binding: BindingDescription?, order: UInt64)] = []
        for binding in currentActivation().compiledBindings {
            guard let cell = binding.storage.sharedCell,
                seen.insert(ObjectIdentifier(cell)).inserted,
                let box = cell.current as? AnyInstance, let value = box.anyValue as? Value
            else { continue }
            made.append((value, binding.described, cell.madeOrder))
        }
        return made.sorted { $0.order < $1.order }.map { ($0.instance, $0.binding) }
    }
}
