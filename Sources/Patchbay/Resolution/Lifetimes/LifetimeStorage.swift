// What a lifetime is to resolution, and the one switch over lifetimes that
// resolution has. Each lifetime is a type of its own, in a file of its own
// beside this one (`SingletonLifetime.swift`, ...), that says only where its
// instances live (an ``InstancePlace``); how a request gets one from there,
// or makes it, is the engines' (``ResolutionContext`` synchronously,
// ``AwaitingResolution`` awaited), written once per place. So adding a
// lifetime is a case of ``Lifetime`` (the compiler then asks for it in
// ``Lifetime/storage`` and in the validator's rules) and one type that meets
// the requirements below, none of which has a default.

/// Where a binding's instances live.
///
/// Bindings of one factory with the same lifetime, injector and parameters
/// share their instances, whichever of the product's types each binds: they
/// share one storage (see ``Activation/compile(_:of:catalog:)``), unless
/// the lifetime keeps no instance (``sharesInstances``). A storage's
/// identity is then its instances' identity: a scope, a graph and an
/// override block each keep one instance per storage, and on a resolution's
/// path two bindings of one storage count as one, for cycles.
protocol LifetimeStorage: AnyObject, Sendable {
    /// Storage for a new group of bindings, empty.
    init()

    /// Whether the bindings of one group share this storage, and so their
    /// instances; false for a lifetime that keeps none, each of whose
    /// bindings gets a storage of its own. False promises that ``place(of:scope:overrides:path:)``
    /// is always ``InstancePlace/nowhere``: both engines then skip asking
    /// (``CompiledBinding/keepsNoInstance``).
    static var sharesInstances: Bool { get }

    /// The cell of the one instance every request shares outside test
    /// overrides, for what reads a made instance without asking the
    /// lifetime (``CompiledBinding/ready``) and for retiring it with its
    /// container; nil for a lifetime with no such instance.
    var sharedCell: InstanceCell? { get }

    /// Where a request for `binding` finds its instance, in `scope` (the
    /// request's) and `overrides` (the test overrides in force). Throws
    /// when there is no such place (a `scoped` binding with no open scope);
    /// `path` names the request for that error.
    func place(
        of binding: CompiledBinding, scope: @autoclosure () -> Scope?, overrides: OverrideTable?,
        path: @autoclosure () -> [String]
    ) throws(ResolutionError) -> InstancePlace
}

/// Where a request's instance lives, as its lifetime says.
enum InstancePlace {
    /// Nowhere: each request makes its own (`transient`).
    case nowhere
    /// A cell holding one instance made once (`singleton`, `scoped`, any
    /// shared lifetime inside test overrides), or held weakly (`weak`).
    case cell(InstanceCell)
    /// The resolution's own instances, by storage (`graph`).
    case graph(GraphLifetime)
}

extension InstancePlace {
    /// The instance already there, read without making one: a made cell's,
    /// or this resolution's `graph` instance (`graph`, the resolution's).
    func made(in graph: inout GraphInstances) -> AnyObject? {
        switch self {
        case .cell(let cell): cell.current
        case .graph(let storage): graph.instance(of: storage)
        case .nowhere: nil
        }
    }
}

extension Lifetime {
    /// The type that keeps this lifetime's instances: the one switch over
    /// lifetimes in resolution, exhaustive, so a new lifetime must name its own.
    var storage: any LifetimeStorage.Type {
        switch self {
        case .singleton: SingletonLifetime.self
        case .transient: TransientLifetime.self
        case .weak: WeakLifetime.self
        case .scoped: ScopedLifetime.self
        case .graph: GraphLifetime.self
        }
    }
}
