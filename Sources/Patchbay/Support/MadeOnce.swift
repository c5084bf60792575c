/// A value made the first time it is asked for, then kept; safe to share
/// between threads. Copies of its holder share the one value.
final class MadeOnce<Value: Sendable>: Sendable {
    private let stored: Locked<Value?>

    /// A value to be made when first asked for.
    init() { stored = Locked(nil) }

    /// A value made already.
    init(_ value: Value) { stored = Locked(value) }

    /// The value, made by `make` if this is the first time.
    func value(_ make: () -> Value) -> Value {
        stored.withLock { value in
            if let value { return value }
            let made = make()
            value = made
            return made
        }
    }
}
