// Reading a manifest's `decorate`: the shape of each entry, every problem
// at its place. Which bindings an entry edits, and whether its edits fit
// their chains, needs the `extends` chain merged and the catalog's types:
// validation judges that (Validation/DecorateRule.swift).

extension ManifestParser {
    /// The top-level `decorate`: an array of entries, each an object with
    /// `protocol`, optional `injector`, and `remove` or `add` or both. An
    /// entry with no usable `protocol` is reported and left out; one with
    /// another problem is reported and kept with what could be read, so that
    /// the rest of it is judged too.
    mutating func decorations(_ value: JSONPlace, in source: SourceOrigin.File) -> [Decoration] {
        let pointer = "/\(ManifestKey.decorate)"
        guard value.kind == .array else {
            report(.wrongType, "'\(ManifestKey.decorate)' must be an array of objects, each with "
                + "'\(DecorateKey.protocol)' and '\(DecorateKey.add)' or '\(DecorateKey.remove)'; found "
                + value.kindDescription, at: value.position, pointer: pointer)
            return []
        }
        var entries: [Decoration] = []
        for (offset, element) in value.children.enumerated() {
            if let entry = decoration(element, at: pointer + "/\(offset)", in: source) { entries.append(entry) }
        }
        return entries
    }

    /// One entry of `decorate`, at `pointer`.
    private mutating func decoration(_ element: JSONPlace, at pointer: String, in source: SourceOrigin.File) -> Decoration? {
        guard element.kind == .object else {
            report(.wrongType, "each entry of '\(ManifestKey.decorate)' must be an object with '\(DecorateKey.protocol)' "
                + "and '\(DecorateKey.add)' or '\(DecorateKey.remove)'; found \(element.kindDescription)",
                at: element.position, pointer: pointer)
            return nil
        }
        var members: [DecorateKey: JSONPlace] = [:]
        var unknown: [JSONPlace] = []
        element.layout.forEachMember(of: element.node, in: DecorateKey.table) { key, child in
            let member = JSONPlace(element.layout, node: child)
            if let key { members[key] = member } else { unknown.append(member) }
        }
        let keys = DecorateKey.allCases.map(\.rawValue)
        // A binding's key for its chain, which an entry edits by `add`: no edit distance finds it.
        checkUnknownKeys(unknown, known: keys, suggested: keys, at: pointer, what: "decorate key",
            meaning: [BindingKey.decorators.rawValue: DecorateKey.add.rawValue,
                      DecoratorKey.decorator.rawValue: DecorateKey.add.rawValue])
        var protocolName: String?
        if let value = members[.protocol] {
            protocolName = nonEmptyString(value, key: .protocol, at: pointer)
        } else {
            report(.missingKey, "entry of '\(ManifestKey.decorate)' is missing required key '\(DecorateKey.protocol)' "
                + "(a string: the type whose inherited bindings it decorates)", at: element.position, pointer: pointer)
        }
        var injector: InjectorName?
        if let value = members[.injector], let name = nonEmptyString(value, key: .injector, at: pointer) {
            injector = InjectorName(name)
        }
        var remove: [Binding.Decorator] = []
        if let value = members[.remove] { remove = removals(value, at: pointer + "/\(DecorateKey.remove)", in: source) }
        var add: [Binding.Decorator] = []
        if let value = members[.add] {
            let addPointer = pointer + "/\(DecorateKey.add)"
            if value.kind == .array, value.children.isEmpty {
                reportEmpty(.add, value, at: addPointer)
            } else {
                add = decoratorUses(value, at: addPointer, key: DecorateKey.add.rawValue, in: source)
            }
        }
        // A misspelt `add` is reported as the unknown key it is, not again as missing.
        if members[.add] == nil, members[.remove] == nil, unknown.isEmpty {
            report(.missingKey, "entry of '\(ManifestKey.decorate)' changes nothing: give it '\(DecorateKey.add)' (the "
                + "decorators to append to the inherited chain) or '\(DecorateKey.remove)' (the names to take out of it), "
                + "or both", at: element.position, pointer: pointer)
        }
        guard let protocolName else { return nil }
        var entry = Decoration(protocol: protocolName, injector: injector, add: add)
        entry.remove = remove
        entry.origin = SourceOrigin(source, pointer: pointer, node: element.node)
        return entry
    }

    /// An entry's `remove`: a non-empty array of decorator names, each kept with its place.
    private mutating func removals(_ value: JSONPlace, at pointer: String, in source: SourceOrigin.File) -> [Binding.Decorator] {
        guard value.kind == .array else {
            report(.wrongType, "'\(DecorateKey.remove)' must be an array of decorator names; found "
                + value.kindDescription, at: value.position, pointer: pointer)
            return []
        }
        guard !value.children.isEmpty else {
            reportEmpty(.remove, value, at: pointer)
            return []
        }
        var names: [Binding.Decorator] = []
        for (offset, element) in value.children.enumerated() {
            guard let name = element.stringValue, !name.isEmpty else {
                report(.wrongType, "each entry of '\(DecorateKey.remove)' must be a decorator's name, a non-empty "
                    + "string (parameters do not matter to which link is removed); found "
                    + (element.stringValue != nil ? "an empty string" : element.kindDescription),
                    at: element.position, pointer: pointer + "/\(offset)")
                continue
            }
            var use = Binding.Decorator(name)
            use.origin = SourceOrigin(source, pointer: pointer + "/\(offset)", node: element.node)
            names.append(use)
        }
        return names
    }

    /// Rule `wrong-type` for an empty `add` or `remove`: an edit that edits nothing is a mistake left behind.
    private mutating func reportEmpty(_ key: DecorateKey, _ value: JSONPlace, at pointer: String) {
        report(.wrongType, "'\(key)' must name at least one decorator; found an empty array: name one, or remove "
            + "the key", at: value.position, pointer: pointer)
    }

    /// An entry's non-empty string member `key`; nil after reporting when it is not one.
    private mutating func nonEmptyString(_ value: JSONPlace, key: DecorateKey, at pointer: String) -> String? {
        guard let text = value.stringValue, !text.isEmpty else {
            report(.wrongType, "'\(key)' must be a non-empty string; found "
                + (value.stringValue != nil ? "an empty string" : value.kindDescription),
                at: value.position, pointer: pointer + "/\(key)")
            return nil
        }
        return text
    }
}
