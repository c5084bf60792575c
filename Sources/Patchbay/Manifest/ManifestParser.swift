import Foundation

/// Turns one manifest file's bytes into a ``Manifest``, collecting every
/// problem of syntax and shape as a diagnostic rather than stopping at the first.
///
/// ``JSONScanner`` checks the bytes (syntax, repeated keys, depth, size) and
/// maps where each value stands; `JSONDecoder` decodes the manifest's values
/// (``ManifestDocument``); the shape is checked here, each problem at the
/// line and column of the value it is about.
struct ManifestParser {
    let file: String
    /// The largest file and the deepest nesting read (the loader's limits).
    let maxBytes: Int, maxDepth: Int
    /// How deep this file is in an `extends` chain (0 for the first loaded).
    var depth = 0
    /// How many threads decode the file's bindings (see ``BindingRunQueue`` and ``ManifestDocument/decode(root:cores:scanned:)``).
    var threads = ProcessInfo.processInfo.activeProcessorCount

    private(set) var diagnostics: [Diagnostic] = []

    /// Parses the file; `nil` when it is not usable at all (syntax, limits,
    /// not an object). Shape problems are in ``diagnostics`` either way.
    mutating func parse(_ data: Data) -> Manifest? {
        // The bindings are decoded on other threads while the scan goes on (see `BindingRunQueue`).
        let (document, runs) = BindingRunQueue.scanDecoding(data, maxBytes: maxBytes, maxDepth: maxDepth, threads: threads)
        let start = SourcePosition(line: 1, column: 1)
        if let exceeded = document.sizeExceeded {
            report(.tooLarge, "manifest is \(exceeded.size) bytes, over the limit of \(exceeded.limit) bytes; "
                + "split it with '\(ManifestKey.extends)' or raise ManifestLoader.maxBytes", at: start)
            return nil
        }
        if let exceeded = document.depthExceeded {
            report(.tooDeep, "JSON nests deeper than the limit of \(exceeded.limit) levels; "
                + "flatten the parameters or raise ManifestLoader.maxDepth", at: exceeded.position)
            return nil
        }
        // A value no decoder can represent comes before any syntax error,
        // since reading stops at the first syntax error.
        if let error = document.unrepresentable { report(.syntax, error.message, at: error.position) }
        if let error = document.syntaxError { report(.syntax, error.message, at: error.position) }
        guard !document.isUnusable, let root = document.root else { return nil }
        for duplicate in document.duplicateKeys {
            report(.duplicateKey, "key '\(MessageText.name(duplicate.key))' appears twice in one object (first at line "
                + "\(duplicate.first.line), column \(duplicate.first.column)); JSON parsers silently keep one of them: "
                + "remove one", at: duplicate.duplicate, pointer: duplicate.pointer)
        }
        guard root.kind == .object else {
            report(.wrongType, "a manifest is a JSON object with '\(ManifestKey.format)' and '\(ManifestKey.bindings)'; "
                + "found \(root.kindDescription)", at: root.position)
            return nil
        }
        // With a repeated key the decoder may keep another occurrence than the
        // scanner's first; each value is then decoded from its own place.
        let decoded = document.duplicateKeys.isEmpty ? ManifestDocument.decode(root: root, cores: threads, scanned: runs) : nil
        return manifest(from: root, decoded: decoded)
    }

    /// The top-level members, by key.
    private struct TopLevel {
        var format, environment, extends, injectors, bindings, decorate: JSONPlace?
        /// Members whose key the format does not define.
        var unknown: [JSONPlace] = []

        /// Files each member of `object` under its key, in one pass.
        init(_ object: JSONPlace) {
            object.layout.forEachMember(of: object.node, in: ManifestKey.table) { key, child in
                let member = JSONPlace(object.layout, node: child)
                switch key {
                case .schema: break  // for editors; the loader ignores it
                case .format: format = member
                case .environment: environment = member
                case .extends: extends = member
                case .injectors: injectors = member
                case .bindings: bindings = member
                case .decorate: decorate = member
                case nil: unknown.append(member)
                }
            }
        }
    }

    /// A binding object's members, by key. Each is kept as its node, not as a place: a place holds
    /// the layout, and filing a binding's members then retained and released it for each of them.
    private struct BindingMembers {
        private let layout: JSONLayout
        private var nodes: (protocolName: Int?, collection: Int?, factory: Int?, lifetime: Int?, injector: Int?,
            parameters: Int?, decorators: Int?) = (nil, nil, nil, nil, nil, nil, nil)
        /// Members whose key the format does not define.
        var unknown: [JSONPlace] = []

        /// Files each member of `object` under its key, in one pass.
        init(_ object: JSONPlace) {
            layout = object.layout
            object.layout.forEachMember(of: object.node, in: BindingKey.table) { key, child in
                switch key {
                case .protocol: nodes.protocolName = child
                case .collection: nodes.collection = child
                case .factory: nodes.factory = child
                case .lifetime: nodes.lifetime = child
                case .injector: nodes.injector = child
                case .parameters: nodes.parameters = child
                case .decorators: nodes.decorators = child
                case nil: unknown.append(JSONPlace(object.layout, node: child))
                }
            }
        }

        var protocolName: JSONPlace? { place(nodes.protocolName) }
        var collection: JSONPlace? { place(nodes.collection) }
        var factory: JSONPlace? { place(nodes.factory) }
        var lifetime: JSONPlace? { place(nodes.lifetime) }
        var injector: JSONPlace? { place(nodes.injector) }
        var parameters: JSONPlace? { place(nodes.parameters) }
        var decorators: JSONPlace? { place(nodes.decorators) }

        private func place(_ node: Int?) -> JSONPlace? { node.map { JSONPlace(layout, node: $0) } }
    }

    private mutating func manifest(from root: JSONPlace, decoded: ManifestDocument?) -> Manifest {
        let topLevel = TopLevel(root)
        checkUnknownKeys(
            topLevel.unknown, known: ManifestKey.allCases.map(\.rawValue),
            suggested: ManifestKey.allCases.filter { $0 != .schema }.map(\.rawValue), at: "", what: "top-level key")
        var manifest = Manifest(bindings: [], file: file)
        let source = SourceOrigin.File(name: file, depth: depth, layout: root.layout)  // shared by every origin
        manifest.origin = SourceOrigin(source, pointer: "", node: root.node)

        // Decoded from its place, whether or not a repeated key kept the whole file from being decoded, so
        // the verdict is the same; once it is known to be a whole number that fits, as an integer parameter
        // is: JSONDecoder reads `1e-400` as 0 and truncates `9999555555600001.999`.
        let format = topLevel.format.flatMap { value in
            value.kind == .number && JSONNumber.fits(value.text, bits: Int.bitWidth, signed: true)
                ? value.decoded(as: Int.self) : nil
        }
        switch topLevel.format {
        case nil:
            report(.unsupportedFormat, "missing key '\(ManifestKey.format)'; add \"\(ManifestKey.format)\": 1 "
                + "(this build understands format 1)", at: root.position)
        case .some where format == 1:
            break
        case .some(let value) where format != nil:
            report(.unsupportedFormat, "format \(format!) is not supported; this build understands format 1",
                at: value.position, pointer: "/\(ManifestKey.format)")
            manifest.format = format!
        case .some(let value) where value.kind == .number && JSONNumber.isWhole(value.text):
            // A whole number past Int (9223372036854775808) is a format this build does not read, as 2 is.
            report(.unsupportedFormat, "format \(MessageText.name(value.text)) is not supported; this build understands "
                + "format 1", at: topLevel.format?.position, pointer: "/\(ManifestKey.format)")
        case .some:
            report(.wrongType, "'\(ManifestKey.format)' must be the integer 1; found "
                + (topLevel.format?.kindDescription ?? ""), at: topLevel.format?.position, pointer: "/\(ManifestKey.format)")
        }
        manifest.environment = string(topLevel.environment, decoded.map(\.environment), key: ManifestKey.environment)
        manifest.extends = string(topLevel.extends, decoded.map(\.extends), key: ManifestKey.extends)
        if manifest.extends == "" {
            report(.wrongType, "'\(ManifestKey.extends)' must be the path of the parent manifest; found an empty string",
                at: topLevel.extends?.position, pointer: "/\(ManifestKey.extends)")
            manifest.extends = nil
        }
        if let value = topLevel.injectors { manifest.injectors = injectors(value) }
        switch topLevel.bindings?.kind {
        case nil:
            report(.missingKey, "missing key '\(ManifestKey.bindings)'; add \"\(ManifestKey.bindings)\": [] "
                + "(an array of binding objects)", at: root.position)
        case .array?:
            let elements = topLevel.bindings?.children ?? []
            let decodedBindings = decoded?.bindings
            manifest.bindings.reserveCapacity(elements.count)
            let prefix = "/\(ManifestKey.bindings)/"
            for (offset, element) in elements.enumerated() {
                let pointer = prefix + String(offset)
                guard element.kind == .object else {
                    report(.wrongType, "each binding must be an object with '\(BindingKey.protocol)' (or "
                        + "'\(BindingKey.collection)') and '\(BindingKey.factory)'; found \(element.kindDescription)",
                        at: element.position, pointer: pointer)
                    continue
                }
                let decodedBinding = decodedBindings.flatMap { offset < $0.count ? $0[offset] : nil } ?? .notDecoded
                addBinding(element, decoded: decodedBinding, at: pointer, in: source, to: &manifest.bindings)
            }
        case .some:
            report(.wrongType, "'\(ManifestKey.bindings)' must be an array of binding objects; found "
                + (topLevel.bindings?.kindDescription ?? ""), at: topLevel.bindings?.position, pointer: "/\(ManifestKey.bindings)")
        }
        if let value = topLevel.decorate { manifest.decorations = decorations(value, in: source) }
        return manifest
    }

    private mutating func injectors(_ value: JSONPlace) -> [InjectorName]? {
        let pointer = "/\(ManifestKey.injectors)"
        guard value.kind == .array else {
            report(.wrongType, "'\(ManifestKey.injectors)' must be an array of strings; found \(value.kindDescription)",
                at: value.position, pointer: pointer)
            return nil
        }
        var names: [InjectorName] = []
        var seen: Set<String> = []
        for (offset, element) in value.children.enumerated() {
            guard let name = element.stringValue, !name.isEmpty else {
                report(.wrongType, "each injector must be a non-empty string; found \(element.kindDescription)",
                    at: element.position, pointer: pointer + "/\(offset)")
                continue
            }
            if !seen.insert(name).inserted {
                report(.duplicateInjector, "injector '\(name)' is listed twice in '\(ManifestKey.injectors)'; remove one",
                    at: element.position, pointer: pointer + "/\(offset)")
                continue
            }
            names.append(InjectorName(name))
        }
        return names
    }

    /// Adds the binding at `pointer` to `bindings`, marked broken when any of
    /// its keys has a problem; none without a type name, which nothing could
    /// count as bound. Made in place in the list: a binding holds a dozen
    /// references, and a returned one was copied into it.
    private mutating func addBinding(
        _ object: JSONPlace, decoded: BindingDocument, at pointer: String, in source: SourceOrigin.File,
        to bindings: inout [Binding]
    ) {
        if Self.appendPlainBinding(object, decoded: decoded, to: &bindings) {
            bindings[bindings.count - 1].origin = SourceOrigin(source, pointer: pointer, node: object.node)
            return
        }
        let reportedBefore = diagnostics.count
        let keyed = BindingMembers(object)
        if !keyed.unknown.isEmpty {
            let bindingKeys = BindingKey.allCases.map(\.rawValue)
            checkUnknownKeys(keyed.unknown, known: bindingKeys, suggested: bindingKeys, at: pointer, what: "binding key")
        }
        // `protocol` names the type's single binding, `collection` adds an element to its collection.
        let protocolName: String?
        var isCollectionElement = false
        switch (keyed.protocolName, keyed.collection) {
        case (nil, nil):
            report(.missingKey, "binding is missing required key '\(BindingKey.protocol)' or "
                + "'\(BindingKey.collection)' (a string: the type it binds, or whose collection it adds to)",
                at: object.position, pointer: pointer)
            protocolName = nil
        case (let single?, nil):
            protocolName = requiredString(single, decoded.read(\.protocolName), .protocol, at: pointer)
        case (nil, let element?):
            protocolName = requiredString(element, nil, .collection, at: pointer)
            isCollectionElement = true
        case (let single?, let element?):
            // Read as the single binding it also says it is, broken: its type
            // counts as bound, so its dependents get no follow-on error.
            report(.collectionAndProtocol, "binding names both '\(BindingKey.protocol)' and "
                + "'\(BindingKey.collection)'; a binding is either a type's single binding ('\(BindingKey.protocol)') "
                + "or one element of its collection ('\(BindingKey.collection)'): keep one of the two keys",
                at: object.position, pointer: pointer)
            _ = requiredString(element, nil, .collection, at: pointer)
            protocolName = requiredString(single, decoded.read(\.protocolName), .protocol, at: pointer)
        }
        var factory: String?
        if let value = keyed.factory {
            factory = requiredString(value, decoded.read(\.factory), .factory, at: pointer)
        } else {
            report(.missingKey, "binding is missing required key '\(BindingKey.factory)' (a string)", at: object.position,
                pointer: pointer)
        }
        var lifetime: Lifetime?
        if let name = string(keyed.lifetime, decoded.read(\.lifetime), key: BindingKey.lifetime, in: pointer) {
            lifetime = Lifetime.named(name)
            if lifetime == nil {
                let suggestion = EditDistance.suggestions(for: name, among: Lifetime.allCases.map(\.rawValue)).first
                report(.unknownLifetime, "unknown lifetime '\(MessageText.name(name))'; use \(Lifetime.validNames)"
                    + (suggestion.map { MessageText.didYouMean($0, for: name) } ?? ""),
                    at: keyed.lifetime?.position, pointer: pointer + "/\(BindingKey.lifetime)", suggestion: suggestion)
            }
        }
        var injector = InjectorName.primary
        if let name = string(keyed.injector, decoded.read(\.injector), key: BindingKey.injector, in: pointer) {
            if name.isEmpty {
                report(.wrongType, "'\(BindingKey.injector)' must be a non-empty string", at: keyed.injector?.position,
                    pointer: pointer + "/\(BindingKey.injector)")
            } else {
                injector = InjectorName(name)
            }
        }
        var parameters: BindingParameters?
        if let value = keyed.parameters {
            if value.kind == .object {
                parameters = BindingParameters(value)
            } else {
                report(.wrongType, "'\(BindingKey.parameters)' must be an object; found \(value.kindDescription)",
                    at: value.position, pointer: pointer + "/\(BindingKey.parameters)")
            }
        }
        let decorators = keyed.decorators.map {
            decoratorUses($0, at: pointer + "/\(BindingKey.decorators)", key: BindingKey.decorators.rawValue, in: source)
        } ?? []
        guard let protocolName else { return }
        // With no factory, the binding still binds its protocol, badly: its
        // dependents are not also reported. Validation skips the empty name.
        bindings.append(Binding(protocol: protocolName, factory: factory ?? "", lifetime: lifetime, injector: injector))
        let last = bindings.count - 1
        bindings[last].isCollectionElement = isCollectionElement
        bindings[last].parameterSource = parameters
        bindings[last].origin = SourceOrigin(source, pointer: pointer, node: object.node)
        bindings[last].decorators = decorators
        bindings[last].isBroken = diagnostics.count > reportedBefore
    }

    /// Appends the binding when the decoder's reading of it says all there is to know: its members are
    /// only `protocol` and `factory`, non-empty strings, and `lifetime` and `injector` if any, a known
    /// lifetime and a non-empty string. Then no member needs finding by its key, nor a place: nearly
    /// every binding of a manifest, whose members were filed one by one (a tenth of activation above
    /// `JSONDecoder`'s own cost). False for any other, which is read member by member.
    private static func appendPlainBinding(
        _ object: JSONPlace, decoded: BindingDocument, to bindings: inout [Binding]
    ) -> Bool {
        // Decoded strings are members present; a member absent, null or of another type is nil. So when
        // the object holds exactly as many members as strings were decoded, it holds those and no other.
        guard decoded.isDecoded, let protocolName = decoded.protocolName, !protocolName.isEmpty,
              let factory = decoded.factory, !factory.isEmpty
        else { return false }
        let (lifetime, injector) = (decoded.lifetime, decoded.injector)
        var members = 2
        var knownLifetime: Lifetime?
        if let lifetime {
            guard let known = Lifetime.named(lifetime) else { return false }
            (knownLifetime, members) = (known, members + 1)
        }
        if let injector {
            guard !injector.isEmpty else { return false }
            members += 1
        }
        guard object.layout.nodes[object.node].count == members else { return false }
        bindings.append(Binding(protocol: protocolName, factory: factory, lifetime: knownLifetime,
            injector: injector.map { InjectorName($0) } ?? .primary))
        return true
    }

    /// A binding's `decorators`, or a `decorate` entry's `add` (`key`, at
    /// `pointer`): an array whose entries are a decorator's name, or an
    /// object with `decorator` and `parameters`. An entry with a problem is
    /// reported and left out (the binding is then broken), except one whose
    /// `parameters` alone are wrong: it is kept, marked refused, so that its
    /// name is judged too.
    mutating func decoratorUses(
        _ value: JSONPlace, at pointer: String, key: String, in source: SourceOrigin.File
    ) -> [Binding.Decorator] {
        guard value.kind == .array else {
            report(.wrongType, "'\(key)' must be an array of decorator names (or objects with "
                + "'\(DecoratorKey.decorator)' and '\(DecoratorKey.parameters)'); found \(value.kindDescription)",
                at: value.position, pointer: pointer)
            return []
        }
        var uses: [Binding.Decorator] = []
        for (offset, element) in value.children.enumerated() {
            let entry = pointer + "/\(offset)"
            switch element.kind {
            case .string:
                guard let name = element.stringValue, !name.isEmpty else {
                    report(.wrongType, "a decorator's name must be a non-empty string; found an empty string",
                        at: element.position, pointer: entry)
                    continue
                }
                var use = Binding.Decorator(name)
                use.origin = SourceOrigin(source, pointer: entry, node: element.node)
                uses.append(use)
            case .object:
                var name: JSONPlace?, parameters: JSONPlace?, unknown: [JSONPlace] = []
                element.layout.forEachMember(of: element.node, in: DecoratorKey.table) { key, child in
                    let member = JSONPlace(element.layout, node: child)
                    switch key {
                    case .decorator: name = member
                    case .parameters: parameters = member
                    case nil: unknown.append(member)
                    }
                }
                let keys = DecoratorKey.allCases.map(\.rawValue)
                checkUnknownKeys(unknown, known: keys, suggested: keys, at: entry, what: "decorator key")
                guard let name else {
                    report(.missingKey, "decorator is missing required key '\(DecoratorKey.decorator)' (a string: the "
                        + "decorator's name)", at: element.position, pointer: entry)
                    continue
                }
                guard let text = name.stringValue, !text.isEmpty else {
                    report(.wrongType, "'\(DecoratorKey.decorator)' must be a non-empty string; found "
                        + (name.stringValue != nil ? "an empty string" : name.kindDescription), at: name.position,
                        pointer: entry + "/\(DecoratorKey.decorator)")
                    continue
                }
                var use = Binding.Decorator(text)
                use.origin = SourceOrigin(source, pointer: entry, node: element.node)
                if let parameters {
                    if parameters.kind == .object {
                        use.parameterSource = BindingParameters(parameters)
                    } else {
                        // Kept, refused: its name is still judged (unknown, not of this type) with this problem.
                        report(.wrongType, "'\(DecoratorKey.parameters)' must be an object; found \(parameters.kindDescription)",
                            at: parameters.position, pointer: entry + "/\(DecoratorKey.parameters)")
                        use.parametersRefused = true
                    }
                }
                uses.append(use)
            default:
                report(.wrongType, "each decorator must be a name (a string) or an object with "
                    + "'\(DecoratorKey.decorator)'; found \(element.kindDescription)", at: element.position, pointer: entry)
            }
        }
        return uses
    }

    // MARK: - Shape helpers

    /// Reports each member of the object at `pointer` whose key the format
    /// does not define, in the order of their keys, at the key, with the
    /// key it `meaning` says a writer meant by it, else the nearest of `suggested`.
    mutating func checkUnknownKeys(
        _ unknown: [JSONPlace], known: [String], suggested: [String], at pointer: String, what: String,
        meaning: [String: String] = [:]
    ) {
        guard !unknown.isEmpty else { return }
        // Each key made once, not at each comparison of the sort; the first few listed, the rest counted.
        let keyed = unknown.map { (key: $0.key, place: $0) }.sorted { $0.key < $1.key }
        let valid = "valid keys are " + known.map { "'\($0)'" }.joined(separator: ", ")
        for (key, member) in keyed.prefix(UnknownKeyList.listedPerObject) {
            let suggestion = meaning[key] ?? EditDistance.suggestions(for: key, among: suggested).first
            report(.unknownKey, "unknown \(what) '\(MessageText.name(key))'"
                + (suggestion.map { MessageText.didYouMean($0, for: key) } ?? "; " + valid),
                at: member.keyPosition, pointer: pointer + "/" + JSONPointer.escape(key), suggestion: suggestion)
        }
        if keyed.count > UnknownKeyList.listedPerObject {
            let (key, member) = keyed[UnknownKeyList.listedPerObject]
            report(.unknownKey, UnknownKeyList.rest(keyed.count - UnknownKeyList.listedPerObject, what: what, fix: valid),
                at: member.keyPosition, pointer: pointer + "/" + JSONPointer.escape(key))
        }
    }

    /// A binding's non-empty string member `key`; nil after reporting when it
    /// is not one. `decoded` is the decoder's reading of it (nil inside when
    /// it is not a string), when the document was decoded.
    private mutating func requiredString(
        _ value: JSONPlace, _ decoded: String??, _ key: BindingKey, at pointer: String
    ) -> String? {
        let text = decoded ?? value.stringValue
        guard let text, !text.isEmpty else {
            report(.wrongType, "'\(key)' must be a non-empty string; found "
                + (text != nil ? "an empty string" : value.kindDescription), at: value.position,
                pointer: pointer + "/\(key)")
            return nil
        }
        return text
    }

    /// The string member `key` of the object at `pointer`; nil when absent,
    /// or after reporting when it is not a string.
    private mutating func string(
        _ value: JSONPlace?, _ decoded: String??, key: some CustomStringConvertible, in pointer: String = ""
    ) -> String? {
        guard let value else { return nil }
        guard let text = decoded ?? value.stringValue else {
            report(.wrongType, "'\(key)' must be a string; found \(value.kindDescription)", at: value.position,
                pointer: pointer + "/\(key)")
            return nil
        }
        return text
    }

    mutating func report(
        _ code: DiagnosticCode, _ message: String, at position: SourcePosition?, pointer: String = "",
        suggestion: String? = nil
    ) {
        let position = position ?? SourcePosition(line: 1, column: 1)
        diagnostics.append(Diagnostic(
            code: code, message: message, file: file, line: position.line, column: position.column,
            path: pointer, suggestion: suggestion))
    }
}
