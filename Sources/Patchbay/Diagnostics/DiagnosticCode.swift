/// A stable identifier of a kind of manifest problem, printed in brackets
/// after each message (`[unknown-factory]`).
///
/// A struct with static members rather than a closed enum, so new codes can be
/// added without breaking code that switches over them (as swift-system's `Errno`).
public struct DiagnosticCode: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The code as printed: `unknown-factory`.
    public let rawValue: String
    /// Creates a code.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Creates a code from a string literal.
    public init(stringLiteral value: String) { self.rawValue = value }
    /// The code.
    public var description: String { rawValue }
    // Coded as its raw value, a plain string, by the standard library's `RawRepresentable` conformance.

    /// Not valid JSON (with the position of the fault).
    public static let syntax: Self = "syntax"
    /// The file is larger than the size limit.
    public static let tooLarge: Self = "too-large"
    /// The JSON nests deeper than the depth limit.
    public static let tooDeep: Self = "too-deep"
    /// `format` missing or not 1.
    public static let unsupportedFormat: Self = "unsupported-format"
    /// A key the format does not define.
    public static let unknownKey: Self = "unknown-key"
    /// A required key is absent.
    public static let missingKey: Self = "missing-key"
    /// A value of the wrong JSON type.
    public static let wrongType: Self = "wrong-type"
    /// The same key twice in one JSON object.
    public static let duplicateKey: Self = "duplicate-key"
    /// A binding names both `protocol` and `collection`: it is one or the other.
    public static let collectionAndProtocol: Self = "collection-and-protocol"
    /// A collection element whose factory takes a resolve-time argument, which nothing can pass.
    public static let collectionElementTakesArgument: Self = "collection-element-takes-argument"
    /// Warning: two elements of one collection, in one injector of one file, with the same factory and parameters.
    public static let duplicateCollectionElement: Self = "duplicate-collection-element"
    /// A lifetime that is not one of the five.
    public static let unknownLifetime: Self = "unknown-lifetime"
    /// No factory of that name in the catalog.
    public static let unknownFactory: Self = "unknown-factory"
    /// A protocol name that no factory provides.
    public static let unknownProtocol: Self = "unknown-protocol"
    /// A short protocol name that matches two catalog types.
    public static let ambiguousProtocol: Self = "ambiguous-protocol"
    /// The factory exists but does not provide the protocol.
    public static let factoryDoesNotProvide: Self = "factory-does-not-provide"
    /// The same (protocol, injector) twice in one file.
    public static let duplicateBinding: Self = "duplicate-binding"
    /// A binding uses an injector the `injectors` array does not list.
    public static let undeclaredInjector: Self = "undeclared-injector"
    /// The `injectors` array lists a name twice.
    public static let duplicateInjector: Self = "duplicate-injector"
    /// The parent manifest named by `extends` does not exist.
    public static let extendsNotFound: Self = "extends-not-found"
    /// An `extends` chain longer than ``ManifestLoader/maxExtendsChain``.
    public static let extendsTooLong: Self = "extends-too-long"
    /// Manifests extend each other in a loop.
    public static let extendsCycle: Self = "extends-cycle"
    /// A parent manifest outside the folder tree of the first manifest loaded.
    public static let extendsOutside: Self = "extends-outside"
    /// A bound factory needs a type that no injector binds.
    public static let missingDependency: Self = "missing-dependency"
    /// Factories need each other in a loop.
    public static let dependencyCycle: Self = "dependency-cycle"
    /// A longer-lived instance depends on a shorter-lived one.
    public static let captiveDependency: Self = "captive-dependency"
    /// `weak` lifetime for a factory whose product is not a class.
    public static let weakValueType: Self = "weak-value-type"
    /// Note: a `weak` binding whose factory's product the catalog cannot tell
    /// is a class (a protocol): the app checks the first value it makes.
    public static let weakUnchecked: Self = "weak-unchecked"
    /// Parameters that do not decode into the factory's parameter type, or given to a factory that takes none.
    public static let invalidParameters: Self = "invalid-parameters"
    /// `${NAME}` unset with no default.
    public static let envVarMissing: Self = "env-var-missing"
    /// A factory that needs a resolve-time argument is needed as another factory's dependency.
    public static let argumentRequired: Self = "argument-required"
    /// A factory that cannot await needs a binding whose factory is `async`.
    public static let needsAwait: Self = "needs-await"
    /// A factory that may run anywhere needs a binding whose factory runs on the main actor.
    public static let needsMainActor: Self = "needs-main-actor"
    /// A type the app resolves itself (an entry point the catalog declares) that no injector searched binds.
    public static let unboundEntryPoint: Self = "unbound-entry-point"
    /// A binding names a factory registered for other environments than the manifest's (``FactoryEnvironments``).
    public static let environmentNotAllowed: Self = "environment-not-allowed"
    /// A manifest's `environment` label names another environment than the one it is loaded, and judged, as.
    public static let environmentLabelMismatch: Self = "environment-label-mismatch"
    /// A manifest file in a checked folder whose name loads no environment (`.json`, `x.JSON`).
    public static let environmentFileName: Self = "environment-file-name"
    /// A parameter key that the factory's parameter type does not read.
    public static let unknownParameter: Self = "unknown-parameter"
    /// Warning: the catalog declares no entry points, so the check cannot prove that the app's own requests are bound.
    public static let noEntryPoints: Self = "no-entry-points"
    /// A singleton whose factory failed when ``Container/makeSingletons()`` made it at start-up.
    public static let singletonFailed: Self = "singleton-failed"
    /// Warning: the catalog description is older than the code it describes
    /// (its sources' fingerprint differs), so what it alone finds is a warning until `swift test` refreshes it.
    public static let staleCatalog: Self = "stale-catalog"
    /// What a binding made could not start: reported by the app, through
    /// ``BindingDescription/diagnostic(_:_:severity:)``, not by the check (a refused password, an unreachable server).
    public static let startUpFailed: Self = "start-up-failed"
    /// A singleton whose ``AsyncShutdown/shutdown()`` threw, from ``Container/shutdown()``.
    public static let shutdownFailed: Self = "shutdown-failed"
    /// Warning: a catalog factory that no binding uses.
    public static let unusedFactory: Self = "unused-factory"
    /// The environment asked for has no manifest file.
    public static let unknownEnvironment: Self = "unknown-environment"
    /// A file that could not be read.
    public static let unreadable: Self = "unreadable"
    /// A binding's `decorators` names no decorator of the catalog.
    public static let unknownDecorator: Self = "unknown-decorator"
    /// A decorator that decorates another type than the binding's.
    public static let decoratorDoesNotDecorate: Self = "decorator-does-not-decorate"
    /// The same decorator twice in one binding's chain.
    public static let duplicateDecorator: Self = "duplicate-decorator"
    /// Decorators where this build cannot put them: on a collection's element, or around an `async` factory.
    public static let decoratorNotSupported: Self = "decorator-not-supported"
    /// Warning: a catalog decorator that no binding's chain names.
    public static let unusedDecorator: Self = "unused-decorator"
    /// A `decorate` entry for a type that no binding it could edit binds (in its `injector`, when it names one).
    public static let decorateUnbound: Self = "decorate-unbound"
    /// A `decorate` entry's `remove` names a decorator that the chain it edits does not have.
    public static let decoratorNotInChain: Self = "decorator-not-in-chain"

    // A catalog description's own problems: the description is refused, and no manifest is judged by it.

    /// A catalog description whose `version` is missing, not an integer, or not the format this build reads.
    public static let unsupportedCatalogVersion: Self = "unsupported-catalog-version"
    /// A catalog description's factory with both `environments` and `exceptEnvironments`.
    public static let conflictingEnvironments: Self = "conflicting-environments"
    /// A catalog description that lists a factory name, a type, or a parameter field of one object twice.
    public static let duplicateName: Self = "duplicate-name"
    /// A factory or type name in a catalog description that is empty or holds a control character.
    public static let invalidName: Self = "invalid-name"
    /// A type a catalog description's factory or entry point names that its `types` does not list.
    public static let undeclaredType: Self = "undeclared-type"
    /// A need kind in a catalog description that this build does not know.
    public static let unknownNeedKind: Self = "unknown-need-kind"
    /// A parameter field type (or integer width) in a catalog description that this build does not know.
    public static let unknownFieldType: Self = "unknown-field-type"
    /// A factory execution in a catalog description that this build does not know.
    public static let unknownExecution: Self = "unknown-execution"
    /// A place (`registeredAt`, `declaredAt`) in a catalog description that is not a file of the package:
    /// absolute, climbing out with `..`, not `FILE:LINE[:COLUMN]`, or a folder or other file that is not a regular one.
    public static let invalidSourcePlace: Self = "invalid-source-place"
    /// A folder of a catalog description's `sources` outside the package (absolute, or with `..`), empty,
    /// listed twice, or one of more than 1,000.
    public static let invalidSourceFolder: Self = "invalid-source-folder"
    /// A `parameterDecoding` strategy in a catalog description that this build does not know.
    public static let unknownParameterDecoding: Self = "unknown-parameter-decoding"
}
