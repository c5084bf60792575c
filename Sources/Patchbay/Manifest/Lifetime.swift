/// How long an instance made by a factory lives, and who shares it.
///
/// | lifetime | one instance per |
/// |---|---|
/// | ``transient`` | resolution |
/// | ``singleton`` | activated manifest |
/// | ``weak`` | holder: shared while something outside the container holds it |
/// | ``scoped`` | ``Scope`` the app opens (a request, a screen) |
/// | ``graph`` | top-level `resolve` call |
public enum Lifetime: String, CaseIterable, Sendable, Codable, CustomStringConvertible {
    /// Created once per activated manifest, on first use, even under concurrent first use.
    case singleton
    /// A new instance on every resolution.
    case transient
    /// Shared while someone outside the container holds it; made again after it is released.
    /// Only for class instances.
    case weak
    /// One instance per ``Scope``; released when the scope closes.
    case scoped
    /// Shared within the object graph built by one top-level resolve call.
    case graph

    /// The lifetime's name as the manifest spells it.
    public var description: String { rawValue }

    /// How long an instance of this lifetime can outlive the resolve that made it,
    /// for finding captive dependencies. `nil` for transient, which every
    /// lifetime may hold (the holder simply keeps its own copy).
    var captivityRank: Int? {
        switch self {
        case .singleton: 4
        case .weak: 3
        case .scoped: 2
        case .graph: 1
        case .transient: nil
        }
    }

    /// Whether an instance of this lifetime holding one of `dependency` would
    /// keep it alive past its own lifetime.
    func wouldCapture(_ dependency: Lifetime) -> Bool {
        guard let mine = captivityRank, let theirs = dependency.captivityRank else { return false }
        return theirs < mine
    }

    /// The lifetime a manifest names, as `init(rawValue:)` finds it, by comparing the (small) strings
    /// themselves: `init(rawValue:)` goes through the standard library's string switch, a fifth of
    /// reading a plain binding.
    static func named(_ name: String) -> Lifetime? {
        if name == "singleton" { return .singleton }
        if name == "transient" { return .transient }
        if name == "weak" { return .weak }
        if name == "scoped" { return .scoped }
        if name == "graph" { return .graph }
        return nil
    }

    /// The valid names, for messages: `singleton, transient, weak, scoped or graph`.
    static var validNames: String { MessageText.choices(allCases.map(\.rawValue)) }
}

extension Lifetime {
    /// Where a binding's lifetime comes from.
    package enum Source: Hashable, Sendable {
        /// The binding names it.
        case binding
        /// The factory's default lifetime in the catalog.
        case factoryDefault
        /// Neither names one: transient.
        case transientDefault
        /// The binding names none and there is no catalog entry for its
        /// factory to say (no catalog, or a factory it lacks).
        case unknown
    }

    /// The default-lifetime rule, the one place it is written: the binding's
    /// own, else its factory's default, else transient. When the factory is
    /// not known (`factoryIsKnown` false), a binding that names none shows
    /// the same default, with its source unknown.
    package static func inEffect(
        named: Lifetime?, factoryDefault: Lifetime?, factoryIsKnown: Bool = true
    ) -> (lifetime: Lifetime, source: Source) {
        if let named { return (named, .binding) }
        if factoryIsKnown, let factoryDefault { return (factoryDefault, .factoryDefault) }
        return (.transient, factoryIsKnown ? .transientDefault : .unknown)
    }
}
