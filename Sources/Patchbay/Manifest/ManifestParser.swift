import Foundation

/// Turns one manifest file's bytes into a ``Manifest``, collecting every
/// problem of syntax and shape as a diagnostic rather than stopping at the first.
///
/// The bytes are scanned once by ``JSONPositionIndex`` (positions, duplicate
/// keys, syntax, depth), decoded by Foundation's `JSONDecoder` into
/// ``JSONValue``, then walked here against the format's shape.
struct ManifestParser {
    let file: String
    let limits: ManifestLimits
    /// How deep this file is in an `extends` chain (0 for the first loaded).
    var depth = 0

    private(set) var diagnostics: [Diagnostic] = []
    private var index: JSONPositionIndex?

    init(file: String, limits: ManifestLimits, depth: Int = 0) {
        self.file = file
        self.limits = limits
        self.depth = depth
    }

    static let topLevelKeys = ["$schema", "format", "environment", "extends", "injectors", "bindings"]
    static let bindingKeys = ["protocol", "factory", "lifetime", "injector", "parameters"]

    /// Parses the file; `nil` when it is not usable at all (syntax, limits,
    /// not an object). Shape problems are in ``diagnostics`` either way.
    mutating func parse(_ data: Data) -> Manifest? {
        if data.count > limits.maxBytes {
            report(.tooLarge, "manifest is \(data.count) bytes, over the limit of \(limits.maxBytes) bytes; "
                + "split it with 'extends' or raise ManifestLimits.maxBytes", at: SourcePosition(line: 1, column: 1))
            return nil
        }
        let index = JSONPositionIndex(bytes: data, maxDepth: limits.maxDepth)
        self.index = index
        if let exceeded = index.depthExceeded {
            report(.tooDeep, "JSON nests deeper than the limit of \(exceeded.limit) levels; "
                + "flatten the parameters or raise ManifestLimits.maxDepth", at: exceeded.position)
            return nil
        }
        // A value no decoder can represent comes before any syntax error,
        // since scanning stops at the first syntax error.
        if let error = index.unrepresentable {
            report(.syntax, error.message, at: error.position)
        }
        if let error = index.syntaxError {
            report(.syntax, error.message, at: error.position)
        }
        if index.unrepresentable != nil || index.syntaxError != nil { return nil }
        for duplicate in index.duplicateKeys {
            let key = duplicate.pointer.split(separator: "/").last.map(String.init) ?? duplicate.pointer
            report(.duplicateKey, "key '\(Self.unescape(key))' appears twice in one object (first at line "
                + "\(duplicate.first.line), column \(duplicate.first.column)); JSON parsers silently keep one of them: "
                + "remove one", at: duplicate.duplicate, pointer: duplicate.pointer)
        }
        if let typed = try? JSONDecoder().decode(TypedManifestDocument.self, from: data), !hidesNull(typed) {
            return manifest(from: typed, typedBindings: typed.bindings)
        }
        let root: JSONValue
        do {
            root = try JSONDecoder().decode(ManifestDocument.self, from: data).root
        } catch {
            report(.syntax, "not valid JSON: \((error as? DecodingError)?.readableDescription ?? "\(error)")",
                at: SourcePosition(line: 1, column: 1))
            return nil
        }
        guard case .object(let members) = root else {
            report(.wrongType, "a manifest is a JSON object with 'format' and 'bindings'; found \(root.kindDescription)",
                pointer: "")
            return nil
        }
        return manifest(from: members, typedBindings: nil)
    }

    /// Whether the typed decoding read a `null` as an absent key, as it does
    /// for its optional properties: `"environment": null` would pass
    /// unreported, and `"format": null` be reported missing. The general path
    /// reports each null as the wrong type. The index lists every key present.
    private func hidesNull(_ typed: TypedManifestDocument) -> Bool {
        guard let index else { return false }
        func hides(_ keys: [String]?, known: [String], read: some ManifestObject) -> Bool {
            keys?.contains { known.contains($0) && read[$0] == nil } ?? false
        }
        let topLevel = (index.memberKeys[""] ?? []).filter { $0 != "bindings" || typed.bindings == nil }
        if hides(topLevel, known: Self.topLevelKeys, read: typed) { return true }
        guard let bindings = typed.bindings, let keys = index.elementMemberKeys(ofArrayAt: "/bindings") else {
            return false
        }
        return zip(bindings, keys).contains { hides($1, known: Self.bindingKeys, read: $0) }
    }

    private mutating func manifest(
        from members: some ManifestObject, typedBindings: [TypedManifestDocument.TypedBinding]?
    ) -> Manifest {
        checkUnknownKeys(index?.memberKeys[""] ?? members.memberNames, known: Self.topLevelKeys, at: "", what: "top-level key")
        var manifest = Manifest(bindings: [], file: file)
        manifest.origin = SourceOrigin(file: file, pointer: "", index: index, depth: depth)

        switch members["format"] {
        case nil:
            report(.unsupportedFormat, "missing key 'format'; add \"format\": 1 (this build understands format 1)",
                pointer: "")
        case .integer(1)?:
            break
        case .integer(let other)?:
            report(.unsupportedFormat, "format \(other) is not supported; this build understands format 1",
                pointer: "/format")
            manifest.format = other
        case let other?:
            report(.wrongType, "'format' must be the integer 1; found \(other.kindDescription)", pointer: "/format")
        }
        manifest.environment = string(members["environment"], key: "environment", at: "/environment")
        manifest.extends = string(members["extends"], key: "extends", at: "/extends")
        if manifest.extends == "" {
            report(.wrongType, "'extends' must be the path of the parent manifest; found an empty string",
                pointer: "/extends")
            manifest.extends = nil
        }
        if let value = members["injectors"] {
            manifest.injectors = injectors(value)
        }
        // The keys of every binding object, from the index in one lookup: the
        // typed fast path of decoding does not see unknown ones.
        let bindingKeys = index?.elementMemberKeys(ofArrayAt: "/bindings")
        if let typedBindings {
            for (offset, typed) in typedBindings.enumerated() {
                let keys = bindingKeys?[offset] ?? typed.memberNames
                if let binding = binding(typed, keys: keys, at: "/bindings/\(offset)") {
                    manifest.bindings.append(binding)
                }
            }
            return manifest
        }
        switch members["bindings"] {
        case nil:
            report(.missingKey, "missing key 'bindings'; add \"bindings\": [] (an array of binding objects)",
                pointer: "")
        case .array(let elements)?:
            for (offset, element) in elements.enumerated() {
                let pointer = "/bindings/\(offset)"
                guard case .object(let members) = element else {
                    report(.wrongType, "each binding must be an object with 'protocol' and 'factory'; found "
                        + element.kindDescription, pointer: pointer)
                    continue
                }
                let keys = bindingKeys?[offset] ?? members.memberNames
                if let binding = binding(members, keys: keys, at: pointer) {
                    manifest.bindings.append(binding)
                }
            }
        case let other?:
            report(.wrongType, "'bindings' must be an array of binding objects; found \(other.kindDescription)",
                pointer: "/bindings")
        }
        return manifest
    }

    private mutating func injectors(_ value: JSONValue) -> [InjectorName]? {
        guard case .array(let elements) = value else {
            report(.wrongType, "'injectors' must be an array of strings; found \(value.kindDescription)",
                pointer: "/injectors")
            return nil
        }
        var names: [InjectorName] = []
        var seen: Set<String> = []
        for (offset, element) in elements.enumerated() {
            let pointer = "/injectors/\(offset)"
            guard case .string(let name) = element, !name.isEmpty else {
                report(.wrongType, "each injector must be a non-empty string; found \(element.kindDescription)",
                    pointer: pointer)
                continue
            }
            if !seen.insert(name).inserted {
                report(.duplicateInjector, "injector '\(name)' is listed twice in 'injectors'; remove one",
                    pointer: pointer)
                continue
            }
            names.append(InjectorName(name))
        }
        return names
    }

    /// The binding at `pointer`, marked broken when any of its keys has a
    /// problem; nil without a protocol, which nothing could count as bound.
    private mutating func binding(_ members: some ManifestObject, keys: [String], at pointer: String) -> Binding? {
        let reportedBefore = diagnostics.count
        checkUnknownKeys(keys, known: Self.bindingKeys, at: pointer, what: "binding key")
        let protocolName = requiredString(members, "protocol", at: pointer)
        let factory = requiredString(members, "factory", at: pointer)
        var lifetime: Lifetime?
        if let name = string(members["lifetime"], key: "lifetime", at: pointer + "/lifetime") {
            lifetime = Lifetime(rawValue: name)
            if lifetime == nil {
                let suggestion = EditDistance.suggestions(for: name, among: Lifetime.allCases.map(\.rawValue)).first
                report(.unknownLifetime, "unknown lifetime '\(name)'; use \(Lifetime.validNames)"
                    + (suggestion.map { "; did you mean '\($0)'?" } ?? ""),
                    pointer: pointer + "/lifetime", suggestion: suggestion)
            }
        }
        var injector = InjectorName.primary
        if let name = string(members["injector"], key: "injector", at: pointer + "/injector") {
            if name.isEmpty {
                report(.wrongType, "'injector' must be a non-empty string", pointer: pointer + "/injector")
            } else {
                injector = InjectorName(name)
            }
        }
        var parameters: JSONValue?
        if let value = members["parameters"] {
            if case .object = value {
                parameters = value
            } else {
                report(.wrongType, "'parameters' must be an object; found \(value.kindDescription)",
                    pointer: pointer + "/parameters")
            }
        }
        guard let protocolName else { return nil }
        // With no factory, the binding still binds its protocol, badly: its
        // dependents are not also reported. Validation skips the empty name.
        var binding = Binding(
            protocol: protocolName, factory: factory ?? "", lifetime: lifetime, injector: injector,
            parameters: parameters)
        binding.origin = SourceOrigin(file: file, pointer: pointer, index: index, depth: depth)
        binding.isBroken = diagnostics.count > reportedBefore
        return binding
    }

    // MARK: - Shape helpers

    /// Reports each key of the object at `pointer` that the format does not
    /// define. `keys` come from the position index where there is one, since
    /// the typed fast path of decoding drops unknown keys.
    private mutating func checkUnknownKeys(_ keys: [String], known: [String], at pointer: String, what: String) {
        guard !keys.allSatisfy(known.contains) else { return }
        for key in keys.sorted() where !known.contains(key) {
            let suggestion = EditDistance.suggestions(for: key, among: known.filter { $0 != "$schema" }).first
            let memberPointer = pointer + "/" + JSONPositionIndex.escape(key)
            report(.unknownKey, "unknown \(what) '\(key)'"
                + (suggestion.map { "; did you mean '\($0)'?" } ?? "; valid keys are "
                    + known.map { "'\($0)'" }.joined(separator: ", ")),
                at: index?.keyPositions[memberPointer] ?? position(memberPointer), pointer: memberPointer,
                suggestion: suggestion)
        }
    }

    private mutating func requiredString(_ members: some ManifestObject, _ key: String, at pointer: String) -> String? {
        guard let value = members[key] else {
            report(.missingKey, "binding is missing required key '\(key)' (a string)", pointer: pointer)
            return nil
        }
        guard case .string(let text) = value, !text.isEmpty else {
            report(.wrongType, "'\(key)' must be a non-empty string; found "
                + (value == .string("") ? "an empty string" : value.kindDescription), pointer: pointer + "/" + key)
            return nil
        }
        return text
    }

    private mutating func string(_ value: JSONValue?, key: String, at pointer: String) -> String? {
        guard let value else { return nil }
        guard case .string(let text) = value else {
            report(.wrongType, "'\(key)' must be a string; found \(value.kindDescription)", pointer: pointer)
            return nil
        }
        return text
    }

    private func position(_ pointer: String) -> SourcePosition {
        index?.position(of: pointer) ?? SourcePosition(line: 1, column: 1)
    }

    private mutating func report(
        _ code: DiagnosticCode, _ message: String, at position: SourcePosition? = nil, pointer: String = "",
        suggestion: String? = nil
    ) {
        let position = position ?? self.position(pointer)
        diagnostics.append(Diagnostic(
            code: code, message: message, file: file, line: position.line, column: position.column,
            path: pointer, suggestion: suggestion))
    }

    private static func unescape(_ segment: String) -> String {
        segment.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
    }
}

/// Limits enforced on a manifest file before it is decoded.
public struct ManifestLimits: Sendable, Hashable {
    /// The largest file accepted, in bytes. 16 MiB by default.
    public var maxBytes: Int
    /// The deepest nesting of objects and arrays accepted. 64 by default.
    public var maxDepth: Int

    /// Creates limits.
    public init(maxBytes: Int = 16 * 1024 * 1024, maxDepth: Int = 64) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
    }

    /// 16 MiB and 64 levels.
    public static let `default` = ManifestLimits()
}
