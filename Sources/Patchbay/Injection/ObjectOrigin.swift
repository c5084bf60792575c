/// The resolution an object was made in, as a property wrapper inside the
/// object sees it when the object is initialized: `@Injected`, `Lazy` and
/// `Provider` resolve from the same container, injector, overrides and
/// scope later (see ``DeferredResolution``), wherever that read is.
///
/// An object made by a factory belongs to the resolution that made it, just
/// as its factory's parameters do: made by a container that is not the
/// bootstrapped one, from its `secondary` injector, inside a test's
/// overrides, its `@Injected` properties must not quietly read the
/// bootstrapped container's `primary` injector instead.
///
/// Everything is held weakly: an object (a singleton, say) must not keep
/// alive the container, overrides or scope that hold it.
struct ObjectOrigin: Sendable {
    /// The container to resolve from: the one whose resolution made the
    /// object, or one named where the property is declared.
    private(set) weak var container: Container?
    /// The container `container` served a starting wiring for, if it did
    /// (``Container/activate(_:isolation:startingWith:)``): resolved from once
    /// that one has gone, which is when the wiring is in force (or refused).
    private(set) weak var owner: Container?
    /// Whether there was such a container (it may since have gone).
    private(set) var hasContainer: Bool
    /// The injector that served the factory that made the object.
    let injector: InjectorName
    /// The test overrides that resolution ran with.
    private(set) weak var overrides: OverrideTable?
    /// Whether it ran with overrides (which may since have ended).
    let madeWithOverrides: Bool
    /// The scope the object was made in: the resolution's, else the task's current one.
    private(set) weak var scope: Scope?
    /// Whether it was made in a scope, which may since have gone.
    let madeInScope: Bool
    /// Whether the object was made by hand, outside any resolution and any
    /// scope: what ``Scope/adopt(_:file:line:)`` carries from an adopted
    /// owner to the objects it holds.
    let isHandMade: Bool

    init(container: Container?, injector: InjectorName, overrides: OverrideTable?, scope: Scope?) {
        self.container = container
        self.owner = container?.owner?.container
        self.hasContainer = container != nil
        self.injector = injector
        self.overrides = overrides
        self.madeWithOverrides = overrides != nil
        self.scope = scope
        self.madeInScope = scope != nil
        self.isHandMade = container == nil && scope == nil
    }

    /// The origin of an object made now, on this thread.
    static var current: ObjectOrigin {
        guard let context = ThreadResolutionState.current.running, let container = context.container else {
            return AwaitingCall.running?.origin ?? outside
        }
        return ObjectOrigin(
            container: container, injector: context.innermostInjector ?? .primary, overrides: context.overrides,
            scope: context.scope)
    }

    /// Made outside any resolution: the default container, `primary`, and the task's scope.
    static var outside: ObjectOrigin {
        ObjectOrigin(container: nil, injector: .primary, overrides: nil, scope: Scope.current)
    }

    /// This origin, resolving from `named` (a container named where the
    /// property is declared) when there is one; still hand-made if it was.
    func naming(_ named: Container?) -> ObjectOrigin {
        guard let named else { return self }
        var origin = self
        origin.container = named
        origin.hasContainer = true
        return origin
    }

    /// The container to resolve from: this origin's, else the container of
    /// `scope` (the scope resolved in, when it was made with
    /// ``Scope/init(container:)``), else the default, else the first
    /// container `scope` resolved from (so an object adopted into a screen's
    /// scope resolves as the objects the scope made do, with no default set;
    /// a default, when set, wins as it always has).
    func container(for type: Any.Type, scope: Scope?) throws(ResolutionError) -> Container {
        if hasContainer || scope?.isTiedToAContainer == true {
            if let container = hasContainer ? container ?? owner : scope?.container { return container }
            throw ResolutionError(.containerReleased, type: TypeKey.shortName(of: type))
        }
        return try PatchbaySystem.resolveContainer(PatchbaySystem.container ?? scope?.containerResolvedFrom, for: type)
    }

    /// The scope to resolve in: the object's, or a closed one if it has gone;
    /// nil (the reader's current scope) when the object was made in none.
    var resolvingScope: Scope? { scope ?? (madeInScope ? Scope.ended : nil) }
}
