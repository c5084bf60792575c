// What a lifetime is to resolution, and the one switch over lifetimes that
// resolution has. Each lifetime is a type of its own, in a file of its own
// beside this one (`SingletonLifetime.swift`, ...): where its instances live
// and how a request gets one, synchronously and awaited. The engines
// (``ResolutionContext``, ``AwaitingResolution``) and activation ask the
// binding's storage, never which lifetime it is; so adding a lifetime is a
// case of ``Lifetime`` (the compiler then asks for it in ``Lifetime/storage``
// and in the validator's rules) and one type that meets every requirement
// below, none of which has a default.

/// Where a binding's instances live and how a request gets one.
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
    /// bindings gets a storage of its own.
    static var sharesInstances: Bool { get }

    /// The cell of the one instance every request shares outside test
    /// overrides, for what reads a made instance without asking the
    /// lifetime (the resolve fast path, the awaited one) and for retiring it
    /// with its container; nil for a lifetime with no such instance.
    var sharedCell: InstanceCell? { get }

    /// The instance for a synchronous request for `binding` in `context`,
    /// from this storage or made by the binding's factory, written into
    /// `memory` (uninitialized, for the bound type).
    func instance(
        of binding: CompiledBinding, into memory: UnsafeMutableRawPointer, in context: ResolutionContext,
        argument: ArgumentValue?
    ) throws

    /// The instance for an awaited request for an `async` binding, whose
    /// making ends `path` (see ``AwaitingResolution``).
    func instance<T>(
        of binding: CompiledBinding, as _: T.Type, awaitedIn resolution: AwaitingResolution, path: [CompiledBinding]
    ) async throws(ResolutionError) -> T
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
