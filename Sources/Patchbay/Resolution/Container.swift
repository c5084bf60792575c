import Foundation

/// Resolves types by consulting the active manifest: the heart of Patchbay.
///
///     let container = try Container(catalog: catalog, manifest: ManifestLoader().load(contentsOf: url))
///     let users = try container.resolve((any UserRepository).self)
///
/// Safe to use from any thread or task at once. A new manifest can be
/// activated while the app runs: it is validated first, then swapped in
/// atomically; if it has any error the running manifest stays active.
public final class Container: Sendable {
    /// The factories this container can build.
    public let catalog: FactoryCatalog

    /// What a resolve reads first, swapped whole on activation.
    struct State {
        var activation: Activation
        /// Set once any test installs overrides; until then resolves skip the task-local lookup.
        var overridesInUse = false
    }
    let state: Locked<State>

    /// Creates a container serving `manifest` from `catalog`.
    /// - Throws: ``ManifestError`` listing every problem when the manifest does not fit the catalog.
    public init(catalog: FactoryCatalog, manifest: Manifest) throws(ManifestError) {
        self.catalog = catalog
        self.state = Locked(State(activation: try Activation.compile(manifest, catalog: catalog)))
    }

    /// Creates a container serving the manifest file at `url`.
    /// - Throws: ``ManifestError`` listing every problem in the file or against the catalog.
    public convenience init(
        catalog: FactoryCatalog, manifestAt url: URL, loader: ManifestLoader = ManifestLoader()
    ) throws(ManifestError) {
        try self.init(catalog: catalog, manifest: loader.load(contentsOf: url))
    }

    /// The manifest in force.
    public var manifest: Manifest { state.withLock { $0.activation.manifest } }

    /// The warnings (such as unused factories) of the manifest in force.
    public var warnings: [Diagnostic] { state.withLock { $0.activation.warnings } }

    /// Validates `manifest` and, if it has no errors, makes it the one in
    /// force for every later resolve. Instances already handed out stay valid.
    /// - Throws: ``ManifestError`` with every problem; the running manifest then stays active, untouched.
    public func activate(_ manifest: Manifest) throws(ManifestError) {
        let activation = try Activation.compile(manifest, catalog: catalog)
        state.withLock { $0.activation = activation }
    }

    /// Forgets every singleton and weak instance, so the next resolves make new
    /// ones from the same manifest. For tests.
    public func reset() {
        let manifest = self.manifest
        guard let fresh = try? Activation.compile(manifest, catalog: catalog) else { return }
        state.withLock { $0.activation = fresh }
    }

    func noteOverridesInUse() {
        state.withLock { $0.overridesInUse = true }
    }

    // MARK: - Resolving

    /// Resolves `type` from `injector` (with fallback through the others).
    ///
    ///     let repository = try container.resolve((any UserRepository).self)
    ///     let backup: any UserRepository = try container.resolve(from: .secondary)
    ///
    /// - Throws: ``ResolutionError`` naming the type, the injectors searched,
    ///   the dependency path and the nearest names.
    public func resolve<T>(_ type: T.Type = T.self, from injector: InjectorName = .primary) throws(ResolutionError) -> T {
        let (activation, overridesInUse) = state.withLock { ($0.activation, $0.overridesInUse) }
        // The common case, a singleton already made, touches nothing else.
        if !overridesInUse, let entry = activation.entries[ObjectIdentifier(T.self)] {
            let binding = entry.winner(for: injector)
            if case .singleton(let cell) = binding.storage, binding.definition.argument == nil,
                let box = cell.current
            {
                return binding.typed(box, as: T.self)
            }
        }
        return try resolve(T.self, from: injector, activation: activation, overridesInUse: overridesInUse)!
    }

    /// Resolves `type`, passing `argument` to a factory registered with `argument:`.
    ///
    ///     let model = try container.resolve(GameViewModel.self, argument: game)
    public func resolve<T, Argument>(
        _ type: T.Type = T.self, from injector: InjectorName = .primary, argument: Argument
    ) throws(ResolutionError) -> T {
        let (activation, overridesInUse) = state.withLock { ($0.activation, $0.overridesInUse) }
        return try resolve(
            T.self, from: injector, activation: activation, overridesInUse: overridesInUse,
            argument: ArgumentValue(value: argument, key: TypeKey(Argument.self)))!
    }

    /// Resolves `type`, or returns `nil` when no injector binds it.
    ///
    /// Only "not bound" gives `nil`: if the type is bound but its factory (or
    /// a dependency) fails, the error is thrown, never hidden.
    public func resolveIfBound<T>(
        _ type: T.Type = T.self, from injector: InjectorName = .primary
    ) throws(ResolutionError) -> T? {
        let (activation, overridesInUse) = state.withLock { ($0.activation, $0.overridesInUse) }
        return try resolve(T.self, from: injector, activation: activation, overridesInUse: overridesInUse, ifBound: true)
    }

    /// Whether some injector binds `type`.
    public func isBound<T>(_ type: T.Type) -> Bool {
        state.withLock { $0.activation.entries[ObjectIdentifier(type)] != nil }
    }

    /// Resolves inside `scope` (for `scoped` bindings), from any thread.
    func resolve<T>(_ type: T.Type, from injector: InjectorName, in scope: Scope?) throws(ResolutionError) -> T {
        let (activation, overridesInUse) = state.withLock { ($0.activation, $0.overridesInUse) }
        return try resolve(T.self, from: injector, activation: activation, overridesInUse: overridesInUse, scope: scope)!
    }

    /// The general path: joins the resolution running on this thread (when a
    /// factory calls the container directly) or starts a new one.
    private func resolve<T>(
        _ type: T.Type, from injector: InjectorName, activation: Activation, overridesInUse: Bool,
        argument: ArgumentValue? = nil, ifBound: Bool = false, scope: Scope? = nil
    ) throws(ResolutionError) -> T? {
        let context: ResolutionContext
        if scope == nil, let current = CurrentResolution.context, current.container === self {
            context = current
        } else {
            context = ResolutionContext(
                container: self, activation: activation,
                overrides: overridesInUse ? OverrideTable.current(for: ObjectIdentifier(self)) : nil, scope: scope)
        }
        do {
            return try context.resolve(T.self, from: injector, argument: argument, ifBound: ifBound)
        } catch let error as ResolutionError {
            throw error
        } catch {
            throw ResolutionError(.factoryFailed, type: String(describing: T.self), underlying: error)
        }
    }
}

extension Scope {
    /// Resolves `type` in this scope from `container`, from any thread.
    public func resolve<T>(
        _ type: T.Type = T.self, from container: Container, injector: InjectorName = .primary
    ) throws(ResolutionError) -> T {
        try container.resolve(type, from: injector, in: self)
    }
}

/// Which binding serves a type: what `explain` shows and what the example prints.
public struct BindingDescription: Sendable, Hashable, CustomStringConvertible {
    /// The served type's short name.
    public let type: String
    /// The factory that makes it.
    public let factory: String
    /// The lifetime in force.
    public let lifetime: Lifetime
    /// The injector whose binding won.
    public let injector: InjectorName

    /// `NoteStore -> 'file-store' (singleton, primary)`.
    public var description: String { "\(type) -> '\(factory)' (\(lifetime), \(injector))" }
}

extension Container {
    /// The binding that serves `type` when asked from `injector`, after
    /// fallback; `nil` when no injector binds it. Resolves nothing.
    public func binding<T>(for type: T.Type, from injector: InjectorName = .primary) -> BindingDescription? {
        let activation = state.withLock { $0.activation }
        guard let entry = activation.entries[ObjectIdentifier(type)] else { return nil }
        let binding = entry.winner(for: injector)
        return BindingDescription(
            type: binding.key.name, factory: binding.definition.name, lifetime: binding.lifetime,
            injector: binding.injector)
    }
}
