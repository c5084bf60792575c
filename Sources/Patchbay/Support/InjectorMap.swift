/// A value for each of some injectors, the first kept inline.
///
/// Nearly every type is bound in one injector: a dictionary per type would
/// cost an allocation each, at every activation and every validation. Only
/// the second and later injectors go in a dictionary.
@usableFromInline
struct InjectorMap<Value> {
    /// The first injector given a value, and its value.
    @usableFromInline var first: (injector: InjectorName, value: Value)?
    /// The other injectors' values.
    @usableFromInline var others: [InjectorName: Value] = [:]
    /// Room made for the others at once, when the second injector is given a
    /// value: every type of a manifest of ten injectors grew its dictionary
    /// four times.
    private let roomForOthers: Int

    /// An empty map, for the values of at most `injectorCount` injectors. That bound may be the
    /// manifest's thousands of injectors, so room for at most 16 is made at once; `exactly`: the map
    /// will hold that many, as when a type's bindings are filed together (see `GroupedOrder`), and
    /// room for them all is made once, where a type of a hundred injectors grew its dictionary three times.
    init(injectorCount: Int = 2, exactly: Bool = false) {
        roomForOthers = exactly ? max(injectorCount - 1, 1) : min(max(injectorCount - 1, 1), 16)
    }

    /// The value of `injector`, if it has one.
    @inlinable
    subscript(injector: InjectorName) -> Value? {
        if let first, first.injector == injector { return first.value }
        return others.isEmpty ? nil : others[injector]
    }

    /// Gives `injector` `value`, replacing any it had; returns the value replaced.
    @discardableResult
    mutating func set(_ value: Value, for injector: InjectorName) -> Value? {
        if first?.injector ?? injector == injector {  // no first yet, or this one
            defer { first = (injector, value) }
            return first?.value
        }
        if others.isEmpty { others.reserveCapacity(roomForOthers) }
        return others.updateValue(value, forKey: injector)
    }

    /// The only value, when exactly one injector has one.
    var single: Value? { others.isEmpty ? first?.value : nil }

    /// Calls `body` with every value, the first first.
    func forEachValue(_ body: (Value) throws -> Void) rethrows {
        guard let first else { return }
        try body(first.value)
        try others.values.forEach(body)
    }
}

extension InjectorMap: Sendable where Value: Sendable {}
