import Dispatch
import Foundation

// Registration of factories whose closures run on the main actor: view
// models and UI services, whose initializers are main-actor isolated. The
// closure is typed `@MainActor`, so the compiler checks what it calls; the
// definition records `mainActor`, so validation refuses a binding that a
// factory off the main actor would need, and a resolve off the main actor
// throws instead of running the closure there.

extension FactoryCatalog {
    /// Registers a factory whose closure runs on the main actor.
    ///
    ///     @MainActor final class FeedViewModel {
    ///         init(repository: any FeedRepository) { ... }
    ///     }
    ///     catalog.register("feed", provides: FeedViewModel.self, on: MainActor.self) {
    ///         (repository: any FeedRepository) in
    ///         FeedViewModel(repository: repository)
    ///     }
    ///
    /// Resolve it on the main actor (`@MainActor` code, `@Injected` in a
    /// main-actor view), or from anywhere with
    /// `try await container.resolve(awaiting:)`, which goes to the main actor
    /// to make it. A synchronous resolve from another thread throws
    /// ``ResolutionError/Reason/needsMainActor``. Its dependencies may be
    /// nonisolated or main-actor factories; a nonisolated factory that needs
    /// it is a `needs-main-actor` error in `patchbay check` and at activation.
    ///
    /// - Parameters:
    ///   - name: The name manifests use to choose this factory. Must be unique in the catalog.
    ///   - type: The type the factory provides.
    ///   - mainActor: `MainActor.self`: where the closure runs.
    ///   - lifetime: The lifetime when a binding names none; `transient` when `nil`.
    ///   - environments: The environments a manifest may bind it in (``FactoryEnvironments``); every one when `nil`.
    ///   - file: Where the registration is, for messages about mistakes; leave the default.
    ///   - line: Where the registration is, for messages about mistakes; leave the default.
    ///   - make: Makes the product from its dependencies, on the main actor.
    public mutating func register<T, each Dependency>(
        _ name: @autoclosure () -> String,
        provides type: T.Type,
        on mainActor: MainActor.Type,
        lifetime: Lifetime? = nil,
        environments: FactoryEnvironments? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        make: @escaping @MainActor @Sendable (repeat each Dependency) throws -> T
    ) {
        let specs = Self.dependencySpecs(repeat (each Dependency).self)
        addOrStop(environments: environments, Self.mainActorDefinition(
            name(), type, lifetime, specs: specs, parameters: nil, file, line
        ) { call in
            var needs = call.dependencies
            return try make(repeat needs.next((each Dependency).self, specs))
        })
    }

    /// Registers a factory whose closure runs on the main actor and takes
    /// parameters from the manifest (see the parameters form of `register`).
    public mutating func register<T, Parameters: Decodable & Sendable, each Dependency>(
        _ name: @autoclosure () -> String,
        provides type: T.Type,
        parameters: Parameters.Type,
        on mainActor: MainActor.Type,
        lifetime: Lifetime? = nil,
        environments: FactoryEnvironments? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        make: @escaping @MainActor @Sendable (Parameters, repeat each Dependency) throws -> T
    ) {
        let specs = Self.dependencySpecs(repeat (each Dependency).self)
        addOrStop(environments: environments, Self.mainActorDefinition(
            name(), type, lifetime, specs: specs, parameters: .of(parameters), file, line
        ) { call in
            var needs = call.dependencies
            return try make(call.parameters(as: Parameters.self), repeat needs.next((each Dependency).self, specs))
        })
    }

    /// A definition whose product `produce` makes on the main actor, when
    /// the resolve runs there; from anywhere else, it throws `needs-main-actor`.
    static func mainActorDefinition<T>(
        _ name: String, _ type: T.Type, _ lifetime: Lifetime?, specs: [DependencySpec],
        parameters: ParametersSpec?, _ file: StaticString, _ line: UInt,
        produce: @escaping @MainActor @Sendable (FactoryCall) throws -> T
    ) -> FactoryDefinition {
        FactoryDefinition(
            name: name, product: type, dependencies: specs, defaultLifetime: lifetime, parameters: parameters,
            registeredAt: CodeLocation(file, line), buildInto: FactoryDefinition.alwaysBoxed, buildsInto: false,
            execution: .mainActor
        ) { call in
            guard MainQueue.isCurrent else { throw ResolutionError.cannotRunSynchronously(call, .needsMainActor) }
            // On the main actor's executor, so `assumeIsolated` holds; the
            // call stays on this thread (see `FactoryCall`'s `Sendable`).
            return try MainActor.assumeIsolated { () throws -> Instance<T> in Instance(try produce(call)) }
        }
    }
}

/// Whether code runs on the main actor's executor, asked without trapping.
///
/// The main actor runs its jobs on the main dispatch queue, which is the
/// main thread until a program calls `dispatchMain()`: then a worker thread
/// serves the queue (as under `swift test` on Linux). So the queue is asked,
/// through a value only it carries, as well as the thread.
enum MainQueue {
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// True on the main thread, and in work the main queue runs.
    static var isCurrent: Bool {
        Thread.isMainThread || DispatchQueue.getSpecific(key: key) == true
    }
}
