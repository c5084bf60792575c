/// A span of the app's life (a request, a screen) that owns one instance of
/// each `scoped` binding. Closing it releases them.
///
/// Adopting an object carries the scope to the objects it holds, as Impose's
/// `@Scoped` does: ``adopt(_:file:line:)`` also adopts, at any depth, each
/// object in its stored properties whose injected properties were made by
/// hand outside any scope and not yet read.
///
///     let scope = Scope()
///     try await scope.run {
///         let session = try container.resolve((any Session).self)  // one per scope
///         @Injected var same: any Session                          // picks up the current scope
///     }
///     scope.close()
///
/// Code run inside ``run(_:)`` sees the scope as ``current``, so
/// `@Injected` and `resolve` calls made there, at any depth, use it.
///
/// ## A scope an object owns
///
/// A scope lives as long as whoever holds it: a screen, a request handler
/// or a document that keeps its `Scope` in a property owns its scoped
/// instances, and they go when it goes (or at ``close()``).
///
///     final class CheckoutScreen {
///         let scope = Scope()
///         lazy var model = try! scope.resolve(CheckoutModel.self, from: container)
///     }
///
/// Every object made for the scope belongs to it: an `@Injected` property
/// of an object made while resolving in the scope (or inside ``run(_:)``)
/// resolves in that scope on its first read, wherever and whenever that read
/// happens. Such a property does not keep the scope alive; read after the
/// scope has gone or been closed, a scoped dependency throws
/// ``ResolutionError/Reason/scopeClosed``.
///
/// ## An object made elsewhere
///
/// An object made by hand, or before its scope existed, is given to a scope
/// before the first read of its properties with ``adopt(_:file:line:)``;
/// ``of(_:)`` reads the scope an object resolves in, to make another object
/// in the same one:
///
///     let model = screen.scope.adopt(CheckoutModel())
///     let details = try Scope.of(model)?.resolve(DetailsModel.self, from: container)
///
/// The adopted object's properties resolve from the default container when
/// one is set, else from the scope's: the one it was made with
/// (``init(container:)``), or the first it resolved from
/// (``resolve(_:from:injector:)``, as the screen's scope above has), so no
/// `PatchbaySystem.bootstrap` is needed for them.
///
/// ## No scope
///
/// Resolving a `scoped` binding with no scope (outside ``run(_:)``, not
/// through ``resolve(_:from:injector:)``, and not from an object made for
/// a scope) throws ``ResolutionError/Reason/noActiveScope``: Patchbay never
/// quietly makes a scoped binding a singleton or a transient, since either
/// would share or split instances the manifest said belong to one scope.
public final class Scope: Sendable {
    /// The instances' cells (nil once closed) and the first container resolved from, under one lock.
    private let state = Locked(ScopeState())

    /// The container an object adopted into this scope, or made by hand
    /// inside ``run(_:)``, resolves from when it names none and no
    /// container made it; nil for a scope not tied to one. Held weakly, as
    /// everything an object's properties resolve from is.
    public weak let container: Container?
    /// Whether the scope was made with ``init(container:)``: its container may since have gone.
    let isTiedToAContainer: Bool

    /// Opens a scope.
    public init() {
        container = nil
        isTiedToAContainer = false
    }

    /// Opens a scope tied to `container`: an object adopted into it (or
    /// made by hand inside its ``run(_:)``) resolves its `@Injected`,
    /// ``Lazy`` and ``Provider`` properties from
    /// `container`, with no default container set.
    ///
    ///     let scope = Scope(container: container)
    ///     let model = scope.adopt(CheckoutModel())   // its @Injected session: container's, this scope's
    ///
    /// The scope holds the container weakly: read after the container is
    /// released, such a property throws ``ResolutionError/Reason/containerReleased``.
    public init(container: Container) {
        self.container = container
        isTiedToAContainer = true
    }

    /// The scope of the code running now, set by ``run(_:)``.
    @TaskLocal public static var current: Scope?

    /// Runs `body` with this scope as ``current``.
    public func run<Result>(_ body: () throws -> Result) rethrows -> Result {
        try Scope.$current.withValue(self, operation: body)
    }

    /// Runs `body` with this scope as ``current``.
    public func run<Result>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result
    ) async rethrows -> Result {
        try await Scope.$current.withValue(self, operation: body, isolation: isolation)
    }

    /// Releases every instance this scope holds. Resolving a scoped binding
    /// in a closed scope throws ``ResolutionError/Reason/scopeClosed``.
    public func close() {
        let released = state.withLock { $0.cells.take() }
        // The instances are released here, outside the lock: a deinit may do anything.
        _ = released
    }

    /// Whether ``close()`` has been called.
    public var isClosed: Bool { state.withLock { $0.cells == nil } }

    /// The container this scope resolved from first, if it is still there.
    var containerResolvedFrom: Container? { state.withLock { $0.firstResolvedFrom } }

    /// Remembers `container` as the one this scope resolved from, unless
    /// one is remembered and still there.
    func resolving(from container: Container) {
        state.withLock { if $0.firstResolvedFrom == nil { $0.firstResolvedFrom = container } }
    }

    /// The cell for a binding's instance in this scope; `nil` once closed.
    func cell(for storage: any LifetimeStorage) -> InstanceCell? { state.withLock { $0.cells?.cell(for: storage) } }
}

/// What a scope's lock guards.
private struct ScopeState {
    /// The instances' cells, by binding storage; nil once the scope is closed.
    var cells: [ObjectIdentifier: InstanceCell]? = [:]
    /// The first container ``Scope/resolve(_:from:injector:)`` resolved from,
    /// held weakly: what an object adopted into a scope not tied to a
    /// container resolves from when no default container is set, as the
    /// objects the scope made do (see ``ObjectOrigin/container(for:scope:)``).
    weak var firstResolvedFrom: Container?
}

extension [ObjectIdentifier: InstanceCell] {
    /// The cell for a binding's instance, made on first use: in a scope,
    /// and in an override block (``OverrideTable/cell(for:)``).
    /// The cell keeps `storage` alive, so its identity stays this key's.
    mutating func cell(for storage: any LifetimeStorage) -> InstanceCell {
        let slot = ObjectIdentifier(storage)
        if let cell = self[slot] { return cell }
        let cell = InstanceCell(keepingAlive: storage)
        self[slot] = cell
        return cell
    }
}
