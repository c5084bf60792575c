/// A value of any type kept in an ``InstanceCell``, boxed as the engine
/// boxes products: the one "make once, then publish" rule, for the
/// activation's and the validator's tables as for singletons.
extension InstanceCell {
    /// A cell that holds `value` from the start.
    convenience init<Value>(keeping value: Value) {
        self.init()
        _ = self.value(orMake: { Instance(value) })
    }

    /// The kept value, made by `make` (holding this cell's lock, so once) on the first call.
    func kept<Value>(orMake make: () -> Value) -> Value {
        (value(orMake: { Instance(make()) }) as! Instance<Value>).value
    }
}
