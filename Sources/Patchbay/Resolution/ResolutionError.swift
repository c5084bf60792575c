/// Why a type could not be resolved: thrown by `resolve`, never a crash.
///
/// The message names the requested type, every injector searched, the
/// dependency path that led there and the nearest catalog names:
///
///     Patchbay cannot resolve Database (path: SignupService -> UserRepository -> Database):
///     no binding in injectors primary, secondary, eu-tenant. Factories that provide
///     Database: 'in-memory', 'sqlite'; bind one of them in the manifest.
public struct ResolutionError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure: a struct with static members, so new kinds can be added.
    public struct Reason: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The reason's name.
        public let rawValue: String
        /// Creates a reason.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The name.
        public var description: String { rawValue }

        /// No injector has a binding for the type.
        public static let notBound = Reason(rawValue: "not-bound")
        /// Factories need each other in a loop.
        public static let dependencyCycle = Reason(rawValue: "dependency-cycle")
        /// A factory threw.
        public static let factoryFailed = Reason(rawValue: "factory-failed")
        /// A scoped binding was resolved with no scope open.
        public static let noActiveScope = Reason(rawValue: "no-active-scope")
        /// A scoped binding was resolved in a scope that is closed.
        public static let scopeClosed = Reason(rawValue: "scope-closed")
        /// The factory takes a resolve-time argument and none was given.
        public static let argumentMissing = Reason(rawValue: "argument-missing")
        /// The argument given is not of the type the factory takes.
        public static let argumentMismatch = Reason(rawValue: "argument-mismatch")
        /// A ``Lazy``, or an `@Injected(container:)`, was read after its container was released.
        public static let containerReleased = Reason(rawValue: "container-released")
        /// `@Injected` or `inject()` was used before ``PatchbaySystem/bootstrap(_:file:line:)``.
        public static let notBootstrapped = Reason(rawValue: "not-bootstrapped")
        /// A main-actor factory's product was asked for synchronously off the main actor.
        public static let needsMainActor = Reason(rawValue: "needs-main-actor")
        /// An `async` factory's product, not yet made, was asked for synchronously.
        public static let needsAwait = Reason(rawValue: "needs-await")
        /// A ``FailableInjectable`` type's `init?(injector:)` returned `nil`
        /// where the type had to be there; asked for only if bound, it is `nil`.
        public static let injectableDeclined = Reason(rawValue: "injectable-declined")
        /// A ``Resolver`` was used after the factory it was given to returned.
        public static let resolverExpired = Reason(rawValue: "resolver-expired")
    }

    /// What went wrong.
    public let reason: Reason
    /// The short name of the type that was asked for at the point of failure.
    public let requestedType: String
    /// The injectors searched, in order.
    public let injectorsSearched: [InjectorName]
    /// The chain of types being built: `["SignupService", "UserRepository", "Database"]`.
    public internal(set) var dependencyPath: [String]
    /// The nearest names in the catalog: factories that provide the type, or similar type names.
    public let suggestions: [String]
    /// The factory involved, when there is one.
    public let factory: String?
    /// The error a factory threw, for ``Reason/factoryFailed``.
    public let underlying: (any Error)?
    /// Extra detail, such as the loop of a cycle.
    let detail: String?
    /// Where the app asked: the `@Injected` property's declaration or the
    /// `inject()` call, when the request came through one of them.
    public internal(set) var requestedAt: CodeLocation?
    /// Whether ``requestedAt`` is a property's declaration rather than the
    /// call that asked: a getter cannot know the line that read it, so the
    /// message must not pass the declaration off as the reader.
    var requestedAtDeclaration = false
    /// What failed, or must be awaited, when it is not a factory: `decorator
    /// 'timing-store' in the chain of NoteStore` (see ``DecoratorChain``).
    var failedMaker: String?
    /// For a cycle, every link of a chain on its loop, in the loop's order,
    /// named as ``failedMaker`` names one: the fix names each.
    var loopLinks: [String] = []

    init(
        _ reason: Reason, type: String, injectors: [InjectorName] = [], path: [String] = [],
        suggestions: [String] = [], factory: String? = nil, underlying: (any Error)? = nil, detail: String? = nil
    ) {
        self.reason = reason
        self.requestedType = type
        self.injectorsSearched = injectors
        self.dependencyPath = path
        self.suggestions = suggestions
        self.factory = factory
        self.underlying = underlying
        self.detail = detail
    }

    /// What went wrong, where, and what to do.
    public var description: String {
        var text = "Patchbay cannot resolve \(requestedType)"
        if let requestedAt {
            text += requestedAtDeclaration ? " (for the property declared at \(requestedAt))" : " (requested at \(requestedAt))"
        }
        if dependencyPath.count > 1 { text += " (path: \(dependencyPath.joined(separator: " -> ")))" }
        text += ": "
        switch reason {
        case .notBound:
            text += "no binding in injectors \(injectorsSearched.map(\.rawValue).joined(separator: ", "))."
            if let factories = detail {
                text += " Factories that provide \(requestedType): \(factories); bind one of them in the manifest."
            } else if !suggestions.isEmpty {
                text += " Did you mean \(suggestions.map { "'\($0)'" }.joined(separator: " or "))?"
                    + " Otherwise register a factory that provides \(requestedType) and bind it."
            } else {
                text += " No factory in the catalog provides it: register one and bind it in the manifest."
            }
        case .dependencyCycle:
            text += "dependency cycle \(detail ?? ""). Break it by taking one of these as Lazy<...> in its factory"
            // Through links: the closure of one takes the need, or its chain loses it.
            switch loopLinks.count {
            case 0: text += "."
            case 1: text += ", or in the closure of \(loopLinks[0]), or take it out of the chain."
            default:
                text += ", or in the closure of \(loopLinks.joined(separator: " or of ")), or take one of them out of its chain."
            }
        case .factoryFailed:
            // An error's own sentence keeps its own full stop: no "class.." in the message.
            let thrown = underlying.map { "\($0)" } ?? "an error"
            text += (failedMaker ?? "factory '\(factory ?? "?")'") + " threw: \(thrown)" + (thrown.hasSuffix(".") ? "" : ".")
            if let detail, !detail.isEmpty { text += " (\(detail))" }
        case .noActiveScope:
            text += "it is bound 'scoped' (factory '\(factory ?? "?")') but no scope is open. Resolve it inside "
                + "scope.run { ... } or through scope.resolve(_:)."
        case .scopeClosed:
            text += "it is bound 'scoped' (factory '\(factory ?? "?")') and its scope is already closed."
        case .argumentMissing:
            text += "factory '\(factory ?? "?")' takes a resolve-time argument of type \(detail ?? "?"); "
                + "call resolve(_:argument:)."
        case .argumentMismatch:
            text += "factory '\(factory ?? "?")' takes an argument of type \(detail ?? "?")."
        case .containerReleased:
            text += "the container it was to be resolved from has been released."
        case .notBootstrapped:
            text += "no container is set. Call PatchbaySystem.bootstrap(container) at start-up, "
                + "or name a container: @Injected(container: container)."
        case .needsMainActor:
            text += (failedMaker ?? "factory '\(factory ?? "?")'") + " runs on the main actor, and this request is not on it. Resolve it "
                + "from main-actor code, or with `try await container.resolve(awaiting:)`, which goes there."
        case .needsAwait:
            text += (failedMaker ?? "factory '\(factory ?? "?")'") + " is async. Resolve it with `try await container.resolve(awaiting:)`, "
                + "or take it as a need of an async factory."
        default:
            text += detail ?? reason.rawValue
        }
        return text
    }
}

extension ResolutionError {
    /// What a synchronous call of a factory it cannot run throws: an `async`
    /// one's (`needs-await`), or a main-actor one's off the main actor (`needs-main-actor`).
    @usableFromInline
    static func cannotRunSynchronously(_ call: FactoryCall, _ reason: Reason) -> ResolutionError {
        var error = ResolutionError(
            reason, type: call.binding.key.name, injectors: [call.binding.injector],
            path: call.context.names, factory: call.binding.definition.name)
        // A link of a chain is named as the decorator it is, not as a factory.
        error.failedMaker = call.binding.decoratorLabel
        return error
    }
}

extension ResolutionError {
    /// The same error, naming the place in the app's code that asked: a
    /// call, or (`declaration`) the declaration of the property that was read.
    func requested(at site: CodeLocation, declaration: Bool = false) -> ResolutionError {
        guard requestedAt == nil else { return self }
        var error = self
        error.requestedAt = site
        error.requestedAtDeclaration = declaration
        return error
    }
}
