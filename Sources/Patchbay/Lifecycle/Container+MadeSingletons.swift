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
    /// several bindings share it. Behind a decorated singleton, the
    /// factory's product and each link of its chain are listed too, in the
    /// order made: the product first, the outermost link last. Only what has been made is listed: call
    /// ``makeSingletons()`` (and resolve `async` singletons) first for
    /// everything the manifest binds. Singletons made inside
    /// `withOverrides` or `isolated` blocks belong to those blocks and are not listed.
    public func madeSingletons<Value>(
        as _: Value.Type = Value.self
    ) -> [(instance: Value, binding: BindingDescription?)] {
        var seenObjects: Set<ObjectIdentifier> = []
        var made: [(instance: Value, binding: BindingDescription?, order: UInt64)] = []
        for (cell, binding) in currentActivation().singletonCells {
            guard let box = cell.current as? AnyInstance, let value = box.anyValue as? Value else { continue }
            // One object once, though two cells keep it (a decorator that returns what it wraps).
            if type(of: box.anyValue) is AnyObject.Type,
                !seenObjects.insert(ObjectIdentifier(box.anyValue as AnyObject)).inserted
            { continue }
            made.append((value, binding, cell.madeOrder))
        }
        return made.sorted { $0.order < $1.order }.map { ($0.instance, $0.binding) }
    }
}

extension Activation {
    /// The cell of every singleton storage, each once, with the binding it
    /// was made for: the bindings behind a decorated one too (its product
    /// and its chain's links). What lifecycle lists and shuts down.
    var singletonCells: [(cell: InstanceCell, binding: BindingDescription?)] {
        var seen: Set<ObjectIdentifier> = []
        var cells: [(cell: InstanceCell, binding: BindingDescription?)] = []
        for binding in keepingBindings {
            guard let cell = binding.storage.sharedCell, seen.insert(ObjectIdentifier(cell)).inserted else { continue }
            cells.append((cell, binding.described))
        }
        return cells
    }
}
