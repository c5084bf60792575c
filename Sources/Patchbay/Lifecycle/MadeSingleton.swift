/// A singleton the container has made, seen as the type it was asked for,
/// with the binding that made it: what ``Container/madeSingletons(as:)``
/// returns, so an app can run, check or stop what its manifest chose and
/// name the binding in what it reports.
public struct MadeSingleton<Value> {
    /// The instance, as the type asked for.
    public let instance: Value
    /// The binding that made it, as validation described it (its manifest
    /// position through ``BindingDescription/diagnostic(_:_:severity:)``); nil for an
    /// ``Injectable`` type's implicit binding, which no manifest wrote.
    public let binding: BindingDescription?
    /// Its place in the order of making: an instance made by another's
    /// factory (a dependency) has a smaller one than the instance that needed it.
    public let madeOrder: UInt64
}

extension MadeSingleton: Sendable where Value: Sendable {}

extension Container {
    /// The singletons of the manifest in force made so far that are `Value`,
    /// in the order they were made: dependencies before what needs them.
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
    public func madeSingletons<Value>(as _: Value.Type = Value.self) -> [MadeSingleton<Value>] {
        var seen: Set<ObjectIdentifier> = []
        var made: [MadeSingleton<Value>] = []
        func visit(_ binding: CompiledBinding) {
            guard binding.storage is SingletonLifetime, let cell = binding.storage.sharedCell,
                seen.insert(ObjectIdentifier(cell)).inserted,
                let box = cell.current as? AnyInstance, let value = box.anyValue as? Value
            else { return }
            made.append(MadeSingleton(instance: value, binding: binding.described, madeOrder: cell.madeOrder))
        }
        for head in currentActivation().entries.bindings {
            head.forEachBinding { binding in
                visit(binding)
                binding.elements.forEach(visit)
            }
        }
        return made.sorted { $0.madeOrder < $1.madeOrder }
    }
}
