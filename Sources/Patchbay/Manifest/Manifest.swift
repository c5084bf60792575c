/// What a manifest file asks for: which factory serves each protocol, with
/// which lifetime, in which injector.
///
/// Load one with ``ManifestLoader``, from a file or from the environment's
/// file in a folder; or build one in code, as tests do:
///
///     let manifest = Manifest(bindings: [
///         Binding(protocol: "Clock", factory: "fixed-clock", lifetime: .singleton),
///     ])
public struct Manifest: Sendable, Hashable {
    /// The format version; this build understands `1`.
    public var format: Int
    /// A label shown in diagnostics and `explain` output. It never chooses
    /// the environment the manifest is judged as (the name the app loads it
    /// by does); when given, it must name that environment, or activation
    /// refuses it (`environment-label-mismatch`). A manifest made in code, or
    /// a file loaded alone by its URL, is judged as its label.
    public var environment: String?
    /// The parent manifest's path, relative to this file's folder.
    public var extends: String?
    /// The fallback order of custom injectors, when the manifest gives one.
    public var injectors: [InjectorName]?
    /// The bindings: after `extends` is resolved, the parent's first, then the child's.
    public var bindings: [Binding]
    /// The file the manifest was loaded from, as the user named it; `<memory>` when built in code.
    public var file: String

    /// Creates a manifest in code.
    public init(
        format: Int = 1, environment: String? = nil, injectors: [InjectorName]? = nil,
        bindings: [Binding], file: String = "<memory>"
    ) {
        self.format = format
        self.environment = environment
        self.injectors = injectors
        self.bindings = bindings
        self.file = file
    }

    /// Where the top-level keys stand, for diagnostics about them.
    package var origin: SourceOrigin?

    /// The `decorate` entries of every file of the `extends` chain, the
    /// topmost parent's first, each knowing its file's depth: edits of
    /// inherited chains, which validation applies (see ``Decoration``).
    package var decorations: [Decoration] = []

    /// Whether ``environment`` is a parent's, under `extends`, the file loaded first naming none.
    package var environmentIsInherited = false

    /// The environment the app named (`PATCHBAY_ENV`, the `environment:`
    /// argument), or a checked folder's file name; nil for a file loaded
    /// alone. What the manifest is judged as, whatever its label says (see ``JudgedEnvironment``).
    package var loadedAs: String?

    /// A diagnostic at one of the manifest's top-level keys, at its place in the file (1:1 when it has none).
    func diagnostic(_ code: DiagnosticCode, _ message: String, at key: ManifestKey, suggestion: String? = nil) -> Diagnostic {
        let position = origin?.position(of: key.rawValue) ?? SourcePosition(line: 1, column: 1)
        return Diagnostic(
            code: code, message: message, file: origin?.file ?? file, line: position.line, column: position.column,
            path: "/\(key)", suggestion: suggestion)
    }
}

/// One entry of a manifest's `bindings`: "serve `protocol` with `factory`",
/// or, with `collection` instead of `protocol`, "add an element made by
/// `factory` to the collection of that type".
///
/// The key of a binding is (`protocol`, `injector`): one file may bind a
/// protocol once per injector. A collection has any number of elements per
/// injector, in manifest order; it is independent of the type's single binding.
public struct Binding: Sendable, Hashable {
    /// The requested type's name, short (`UserRepository`) or module-qualified
    /// (`App.UserRepository`); for a collection element, the element type's name.
    public var protocolName: String
    /// Whether the binding is one element of its type's collection (written
    /// `"collection": "Plugin"`), served as `[any Plugin]` with the type's
    /// other elements, rather than the type's single binding (`"protocol": "Plugin"`).
    public var isCollectionElement: Bool
    /// The name of a factory in the catalog.
    public var factory: String
    /// The lifetime; when `nil`, the factory's default lifetime, else transient.
    public var lifetime: Lifetime?
    /// The injector this binding belongs to.
    public var injector: InjectorName
    /// Values decoded into the factory's parameter type (after `${...}` interpolation).
    public var parameters: JSONValue? {
        get { parameterSource?.value }
        set { parameterSource = newValue.map(BindingParameters.init) }
    }

    /// Creates a binding in code.
    ///
    /// - Parameters:
    ///   - protocolName: The requested type's name, short or module-qualified.
    ///   - factory: The catalog factory that serves it.
    ///   - lifetime: The lifetime; when `nil`, the factory's default, else transient.
    ///   - injector: The injector the binding belongs to.
    ///   - parameters: Values decoded into the factory's parameter type.
    ///   - decorators: The chain around the factory's product, in order (what `"decorators"` writes).
    public init(
        protocol protocolName: String, factory: String, lifetime: Lifetime? = nil,
        injector: InjectorName = .primary, parameters: JSONValue? = nil, decorators: [Decorator] = []
    ) {
        self.protocolName = protocolName
        self.isCollectionElement = false
        self.factory = factory
        self.lifetime = lifetime
        self.injector = injector
        self.parameterSource = parameters.map(BindingParameters.init)
        self.decorators = decorators
    }

    /// Creates an element of a collection in code: what `"collection": "Plugin"` writes.
    ///
    ///     Binding(collection: "Plugin", factory: "audit-plugin", lifetime: .singleton)
    ///
    /// - Parameters:
    ///   - elementName: The element type's name, short or module-qualified.
    ///   - factory: The catalog factory that makes this element.
    ///   - lifetime: The element's own lifetime; when `nil`, the factory's default, else transient.
    ///   - injector: The injector whose collection the element belongs to.
    ///   - parameters: Values decoded into the factory's parameter type.
    public init(
        collection elementName: String, factory: String, lifetime: Lifetime? = nil,
        injector: InjectorName = .primary, parameters: JSONValue? = nil
    ) {
        self.init(protocol: elementName, factory: factory, lifetime: lifetime, injector: injector, parameters: parameters)
        self.isCollectionElement = true
    }

    /// The parameters as read, with where each value stands; what is
    /// decoded, and what ``parameters`` shows without positions.
    var parameterSource: BindingParameters?

    /// The `parameters` as the file wrote them, before `${...}` interpolation
    /// (`"${PORT:-5432}"` stays a string): what `patchbay diff` compares, so
    /// that a comparison never depends on the environment it runs in.
    public var writtenParameters: JSONValue? {
        parameterSource.map(\.writtenValue)
    }

    /// The decorators around the factory's product, in order: the first
    /// wraps the product, the last is what callers get (`"decorators"`).
    /// Empty for most bindings.
    public var decorators: [Decorator] = []

    /// Where the binding stands in its file.
    package var origin: SourceOrigin?
    /// Whether the file reader found a problem in the binding's own keys (an
    /// unknown key or lifetime, a missing factory): validation still checks
    /// the rest of it, and counts its protocol as bound for its dependents.
    var isBroken = false
    /// What `${...}` interpolation did in `parameters`, for the parameter rule.
    var interpolation = InterpolationRecord()
}

extension Binding {
    /// One decorator of a binding's chain (its `decorators`): a decorator's
    /// name, written alone (`"timing-store"`) or as an object with its
    /// parameters (`{ "decorator": "caching-store", "parameters": { "ttl": 30 } }`).
    ///
    ///     Binding(protocol: "NoteStore", factory: "file-store", lifetime: .singleton,
    ///             decorators: [.init("timing-store"), .init("caching-store", parameters: .object(["ttl": .integer(30)]))])
    public struct Decorator: Sendable, Hashable {
        /// The name of a decorator in the catalog.
        public var name: String
        /// Values decoded into the decorator's parameter type (after `${...}` interpolation);
        /// `nil` when it gives none.
        public var parameters: JSONValue? {
            get { parameterSource?.value }
            set { parameterSource = newValue.map(BindingParameters.init) }
        }
        /// Its `parameters`, as read (see ``Binding/parameterSource``).
        var parameterSource: BindingParameters?
        /// Where the entry stands: the string, or the object.
        package var origin: SourceOrigin?
        /// What `${...}` interpolation did in its `parameters`, as for a binding's.
        var interpolation = InterpolationRecord()
        /// Whether the file reader refused its `parameters` (not an object,
        /// already reported): the link is kept so that its name is still
        /// judged, but the parameter rule does not report it again, and its
        /// chain is refused (never run without the parameters it was given).
        var parametersRefused = false

        /// Its `parameters` as written, `${...}` and all (see ``Binding/writtenParameters``); nil when it gives none.
        package var writtenParameters: JSONValue? { parameterSource.map(\.writtenValue) }

        /// Names a decorator of the catalog, with the parameters it takes, if any.
        public init(_ name: String, parameters: JSONValue? = nil) {
            self.name = name
            parameterSource = parameters.map(BindingParameters.init)
        }

        /// The entry as a binding of the decorated type to the decorator, as the
        /// rules of factories read one: parameters, their positions, the
        /// messages' names. What is checked of a link is then checked as it is
        /// for a factory, by the same code.
        func asBinding(of binding: Binding) -> Binding {
            var link = Binding(protocol: binding.protocolName, factory: name, injector: binding.injector)
            link.parameterSource = parameterSource
            link.interpolation = interpolation
            link.origin = origin ?? binding.origin
            return link
        }
    }
}

/// What `${...}` interpolation did in one binding's `parameters`, by JSON
/// Pointer under `parameters`.
struct InterpolationRecord: Sendable, Hashable {
    /// Strings that were exactly one reference, `${NAME}` or `${NAME:-default}`:
    /// the variable's name and what gave the value. Such a value may be
    /// converted to the number or boolean its field takes.
    var wholeValues: [String: WholeReference] = [:]
    /// Strings that reference a variable that is unset and has no default,
    /// left as written: the variables' names. Only a loader that allows
    /// unset variables (`patchbay check`) leaves any.
    var unset: [String: UnsetReference] = [:]
    /// Strings whose interpolation was reported as a problem (a malformed
    /// reference, an unset variable where one is required), left as
    /// written: the parameter check does not judge them again.
    var refused: Set<String> = []
    /// Strings that took a value from the environment: the variables that
    /// gave one (set, not defaulted), by pointer; for a factory's failure to name.
    var fromEnvironment: [String: [String]] = [:]
}

/// A string that was exactly one reference, and where its value came from.
struct WholeReference: Sendable, Hashable {
    /// The variable's name.
    var variable: String
    /// Whether the variable was unset, so the value is the default written in the manifest.
    var fromDefault: Bool
}

/// A string left as written because the variables it names are unset.
struct UnsetReference: Sendable, Hashable {
    /// The unset variables' names.
    var variables: [String]
    /// The string's position; nil in a value made in code.
    var position: SourcePosition?
}

/// Where a part of a manifest came from: the file, the JSON Pointer of the
/// object, and the object's place in the scanned file, which knows where its values stand.
///
/// A value, with what the origins in one file have in common in one shared
/// object: a binding's origin costs no allocation at each activation.
package struct SourceOrigin: Sendable, Hashable {
    /// What the origins in one file share.
    final class File: Sendable {
        let name: String, depth: Int, layout: JSONLayout

        init(name: String, depth: Int, layout: JSONLayout) { (self.name, self.depth, self.layout) = (name, depth, layout) }
    }

    private let source: File
    /// The JSON Pointer of the object: `""` for the manifest, `/bindings/3` for a binding.
    package let pointer: String
    private let node: Int

    /// The file, as diagnostics name it.
    package var file: String { source.name }
    /// How far up the `extends` chain the file is: 0 for the file loaded
    /// first, 1 for its parent, and so on. A binding from a lower depth (the
    /// child) replaces one with the same key from a higher depth (a parent).
    package var depth: Int { source.depth }
    /// The object at `pointer`, with its positions.
    var value: JSONPlace { JSONPlace(source.layout, node: node) }

    /// The origin of the object at `node` of `file`'s layout, at `pointer`.
    init(_ file: File, pointer: String, node: Int) { (source, self.pointer, self.node) = (file, pointer, node) }

    /// The position of the member `key` of this object (its value), falling
    /// back to the object itself.
    package func position(of key: String? = nil) -> SourcePosition {
        position(at: key.map { "/" + JSONPointer.escape($0) } ?? "")
    }

    /// The position of the value at `pointer`, relative to this object
    /// (`/parameters/port`), else of its nearest ancestor that exists.
    package func position(at pointer: String) -> SourcePosition { value.position(at: pointer) }

    /// The same place: file, pointer and depth; the values read are not compared.
    package static func == (lhs: SourceOrigin, rhs: SourceOrigin) -> Bool {
        lhs.file == rhs.file && lhs.pointer == rhs.pointer && lhs.depth == rhs.depth
    }
    /// Hashes the file and pointer.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(file)
        hasher.combine(pointer)
    }
}

extension Binding {
    /// `UserRepository` or `UserRepository in secondary`, for messages; an
    /// element of a collection is `[Plugin]`, `[Plugin] in secondary`.
    /// Escaped and cut as ``MessageText`` writes a name from a manifest.
    package var displayKey: String {
        let name = MessageText.name(protocolName)
        let type = isCollectionElement ? "[\(name)]" : name
        return injector == .primary ? type : "\(type) in \(MessageText.name(injector.rawValue))"
    }

    /// The factory's name as a message quotes it (see ``MessageText``).
    package var displayFactory: String { MessageText.name(factory) }

    /// The key that names the binding's type: `protocol`, or `collection` for an element.
    package var typeKey: BindingKey { isCollectionElement ? .collection : .protocol }

    /// A diagnostic about this binding, at the value of `field` (or the binding itself).
    /// - Parameter field: A JSON Pointer relative to the binding, without its leading
    ///   slash and with each segment already escaped: `factory`, `parameters/poolSize`.
    func diagnostic(
        _ code: DiagnosticCode, _ message: String, field: String? = nil, position: SourcePosition? = nil,
        severity: Diagnostic.Severity = .error, suggestion: String? = nil, dependencyPath: [String]? = nil,
        fallbackFile: String
    ) -> Diagnostic {
        let relative = field.map { "/" + $0 } ?? ""
        let pointer = (origin?.pointer ?? "") + relative
        let position = position ?? origin?.position(at: relative) ?? SourcePosition(line: 1, column: 1)
        return Diagnostic(
            code: code, severity: severity, message: message, file: origin?.file ?? fallbackFile,
            line: position.line, column: position.column, path: pointer,
            suggestion: suggestion, dependencyPath: dependencyPath)
    }
}
