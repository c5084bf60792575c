/// A value of any type kept in an ``InstanceCell``, boxed as the engine
/// boxes products: the one "make once, then publish" rule, for
/// `@Injected`'s value and the validator's tables as for singletons.
extension InstanceCell {
    /// A cell that holds `value` from the start.
    convenience init<Value>(keeping value: Value) {
        self.init()
        _ = self.value(orMake: { Instance(value) })
    }

    /// The kept value, if one was published.
    @inlinable
    func kept<Value>(as _: Value.Type) -> Value? { (current as? Instance<Value>)?.value }

    /// Keeps `value` unless one is kept already, and returns the one kept:
    /// the first published wins.
    func keep<Value>(_ value: Value) -> Value {
        (self.value(orMake: { Instance(value) }) as! Instance<Value>).value
    }

    /// The kept value, made by `make` (holding this cell's lock, so once) on the first call.
    func kept<Value>(orMake make: () -> Value) -> Value {
        if let kept = kept(as: Value.self) { return kept }
        return (self.value(orMake: { Instance(make()) }) as! Instance<Value>).value
    }
}
