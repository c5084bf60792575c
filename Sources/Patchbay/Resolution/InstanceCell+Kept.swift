/// A value of any type kept in an ``InstanceCell``, boxed as the engine
/// boxes products: the one "make once, then publish" rule, for the
/// activation's and the validator's tables as for singletons. A kept
/// value's `make` asks for no cell, so no wait for it can be a cycle (`try!`).
extension InstanceCell {
    /// A cell that holds `value` from the start.
    convenience init<Value>(keeping value: Value) {
        self.init()
        _ = try! self.value(orMake: { Instance(value) })
    }

    /// The kept value, made by `make` (once: a thread asking meanwhile waits for it) on the first call.
    func kept<Value>(orMake make: () -> Value) -> Value {
        (try! value(orMake: { Instance(make()) }) as! Instance<Value>).value
    }
}
