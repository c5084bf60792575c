/// Which of a type's bindings serves a request from each injector: the
/// injector fallback rule, written once. A request from an injector is served
/// by that injector's own binding, else by the first binding in injector order.
///
/// The validator keeps one per type over binding numbers (``ServingTable``),
/// and activation one per type over compiled bindings, whose first becomes the
/// type's head in the resolution table: a compiled binding then asks
/// ``rule(own:first:)`` (see ``CompiledBinding/winner(for:)``).
package struct InjectorServing<Value> {
    /// Each injector's own binding.
    private(set) var own: InjectorMap<Value>
    /// The first binding in injector order, with its injector's place.
    private(set) var first: (rank: Int, value: Value)?

    /// An empty record, for the bindings of at most `injectorCount` injectors (`exactly`: of that many).
    init(injectorCount: Int, exactly: Bool = false) { own = InjectorMap(injectorCount: injectorCount, exactly: exactly) }

    /// Records `value` as `injector`'s own; `rank` is the injector's place in
    /// the order. Returns false when the injector already had one, which
    /// `value` replaces.
    mutating func add(_ value: Value, of injector: InjectorName, rank: Int) -> Bool {
        let replaced = own.set(value, for: injector)
        if rank < first?.rank ?? Int.max { first = (rank, value) }
        return replaced == nil
    }

    /// The binding `injector` has of its own, if any.
    package func own(_ injector: InjectorName) -> Value? { own[injector] }

    /// The binding that serves a request from `injector`.
    func serving(_ injector: InjectorName) -> Value? { Self.rule(own: own(injector), first: first?.value) }

    /// The rule itself: the requesting injector's own binding, else the first in injector order.
    @inline(__always)
    static func rule(own: Value?, first: Value?) -> Value? { own ?? first }
}

extension InjectorServing: Sendable where Value: Sendable {}
