import Foundation
import Patchbay

extension TypeExplanation {
    /// The explanation as `patchbay explain` prints it: a header line, labelled
    /// rows, and the tree of needs, one line per need:
    ///
    ///     NoteService in Manifests/production.json (environment production)
    ///       type:         NotesKit.NoteService
    ///       requested:    from primary
    ///       served by:    primary
    ///       binding:      Manifests/base.json:6:5 (inherited through extends)
    ///       factory:      note-service, makes NoteService
    ///       lifetime:     singleton (from the binding)
    ///       parameters:   none
    ///       shadows:      nothing: no other injector binds NoteService
    ///       needs:
    ///         NoteStore    <- primary: file-store (singleton) parameters {"path":"/tmp/notes.json"}
    ///         Clock        <- primary: system-clock (singleton)  [from Manifests/base.json]
    ///
    /// A decorated binding has a `decorators` row, the chain in order, then a
    /// line per link with the place that added it (the binding's own
    /// `decorators`, or the `decorate` of a file of the `extends` chain), its
    /// parameters and its needs (with a catalog):
    ///
    ///       decorators:   'timing-store' -> 'caching-store' (the first wraps the factory's product; callers get the last)
    ///         'timing-store'  Manifests/base.json:7:24, in the binding's decorators
    ///           needs:
    ///             Logger    <- primary: json-logger (singleton)
    ///         'caching-store'  Manifests/staging.json:5:47, added by decorate
    ///           parameters: {"ttl":30}
    ///           needs:      nothing
    ///
    /// The output depends only on the manifest and the catalog: it is stable
    /// from run to run.
    ///
    /// A collection (`[Plugin]`, or `Plugin` when only its collection is
    /// bound) lists its elements instead, each with its factory, lifetime,
    /// place and needs (see ``CollectionResolution``).
    public func text() -> String {
        var lines: [String] = []
        func row(_ label: String, _ value: String) {
            lines.append("  " + (label + ":").padding(toLength: 14, withPad: " ", startingAt: 0) + value)
        }
        let place = file + (environment.map { " (environment \($0))" } ?? "")
        if let collection, requestedCollection || (resolution == nil && !collection.elements.isEmpty) {
            return (collectionLines(collection, place: place).map(\.escapingControlCharacters).joined(separator: "\n") + "\n")
                .inertInWorkflowLogs()
        }
        switch outcome {
        case .bound(let resolution):
            lines.append("\(displayName) in \(place)")
            if type != displayName { row("type", type) }
            row("requested", requestedText)
            if let declared = entryPointDeclaredAt { row("entry point", "the app resolves it itself (declared at \(declared))") }
            let served = resolution.served
            row("served by", served.injector.rawValue + (served.injector == injector ? ""
                : " (by fallback: \(injector) binds no \(displayName))"))
            row("binding", location(of: served.binding)
                + (Self.isInherited(served.binding) ? " (inherited through extends)" : ""))
            for replaced in served.overrides { row("overrides", "'\(replaced.factory)' at \(location(of: replaced))") }
            row("factory", factoryText(served))
            // Where its chain makes it, when a link decides that, else where its factory runs.
            let byChain = resolution.chainExecution.map { _ in " (a decorator of its chain runs so)" } ?? ""
            switch resolution.chainExecution ?? factories[served.factory]?.execution {
            case "main-actor"?:
                row("runs", "on the main actor\(byChain): resolve it there, or with try await container.resolve(awaiting:)")
            case "async"?: row("runs", "async\(byChain): resolve it with try await container.resolve(awaiting:)")
            default: break
            }
            if let argument = factories[served.factory]?.argument {
                row("argument", "\(argument), given to resolve(_:argument:)")
            }
            row("lifetime", lifetimeText(served))
            row("parameters", served.binding.parameters.flatMap(Self.parametersText) ?? "none")
            let chain = served.binding.decorators
            if !chain.isEmpty {
                row("decorators", chain.map { "'\($0.name)'" }.joined(separator: " -> ")
                    + " (the first wraps the factory's product; callers get the last)")
                // Where each link comes from (the binding's own `decorators`, or a `decorate` of the
                // extends chain), then its parameters and what it needs, from the binding's injector.
                for (offset, link) in chain.enumerated() {
                    lines.append("    " + linkText(link, of: served.binding))
                    if let parameters = link.parameters.flatMap(Self.parametersText) {
                        lines.append("      parameters: " + parameters)
                    }
                    guard offset < resolution.linkNeeds.count else { continue }
                    switch resolution.linkNeeds[offset] {
                    case .known(let nodes) where nodes.isEmpty: lines.append("      needs:      nothing")
                    case .known(let nodes):
                        lines.append("      needs:")
                        lines += treeLines(nodes).map { "    " + $0 }
                    default: break
                    }
                }
            }
            if resolution.shadows.isEmpty {
                row("shadows", "nothing: no other injector binds \(displayName)")
            }
            for shadowed in resolution.shadows {
                row("shadows", Self.bindingText(shadowed) + " at \(location(of: shadowed.binding))")
            }
            if let collection, let servedBy = collection.servedBy {
                row("collection", "also [\(displayName)], \(collection.elements.count) element"
                    + (collection.elements.count == 1 ? "" : "s") + " from \(servedBy): explain '[\(displayName)]'")
            }
            switch resolution.needs {
            case .known(let nodes) where nodes.isEmpty: row("needs", "nothing")
            case .known(let nodes):
                lines.append("  needs:")
                lines += treeLines(nodes)
            case .byHand: row("needs", "unknown: factory '\(served.factory)' resolves by hand")
            case .unknownFactory: row("needs", "unknown: the catalog has no factory '\(served.factory)'")
            case .noCatalog:
                row("needs", "unknown without a catalog (pass --catalog FILE, or put catalog.json beside the manifest)")
            }
        case .unbound(let unbound):
            if !unbound.ambiguous.isEmpty {
                lines.append("\(requested) is ambiguous in \(place)")
                row("requested", requestedText)
                row("ambiguous", "\(requested) matches " + unbound.ambiguous.joined(separator: ", ")
                    + "; name one of them module-qualified")
                break
            }
            lines.append("\(displayName) is not bound in \(place)")
            if type != displayName { row("type", type) }
            row("requested", requestedText)
            row("searched", unbound.searched.map(\.rawValue).joined(separator: ", ")
                + " (no binding of \(displayName))")
            if !unbound.suggestions.isEmpty { row("did you mean", unbound.suggestions.joined(separator: ", ")) }
            if !hasCatalog {
                row("providers", "unknown without a catalog")
            } else if unbound.providers.isEmpty {
                row("providers", "no catalog factory provides \(displayName)")
            } else {
                row("providers", unbound.providers.joined(separator: ", "))
                row("to bind it", "{ \"protocol\": \"\(displayName)\", \"factory\": \"\(unbound.providers[0])\""
                    + (injector == .primary ? "" : ", \"injector\": \"\(injector)\"") + " }")
            }
        }
        // Names come from the manifest: a line break or terminal escape in one prints escaped, forging no line.
        return (lines.map(\.escapingControlCharacters).joined(separator: "\n") + "\n").inertInWorkflowLogs()
    }

    /// A collection: its elements in order, or why it is empty.
    private func collectionLines(_ collection: CollectionResolution, place: String) -> [String] {
        var lines: [String] = []
        func row(_ label: String, _ value: String) {
            lines.append("  " + (label + ":").padding(toLength: 14, withPad: " ", startingAt: 0) + value)
        }
        let name = "[\(displayName)]"
        guard let servedBy = collection.servedBy else {
            lines.append("\(name) has no elements in \(place)")
            if type != displayName { row("type", "[\(type)]") }
            row("requested", requestedText)
            row("searched", collection.searched.map(\.rawValue).joined(separator: ", ") + " (no element of \(name))")
            if hasCatalog, collection.providers.isEmpty {
                row("resolves to", "not bound: no catalog factory provides \(displayName)")
            } else {
                row("resolves to", "[] (a collection is zero or more elements)")
            }
            if !hasCatalog {
                row("providers", "unknown without a catalog")
            } else if !collection.providers.isEmpty {
                row("providers", collection.providers.joined(separator: ", "))
                row("to add one", "{ \"collection\": \"\(displayName)\", \"factory\": \"\(collection.providers[0])\""
                    + (injector == .primary ? "" : ", \"injector\": \"\(injector)\"") + " }")
            }
            return lines
        }
        lines.append("\(name) in \(place)")
        if type != displayName { row("type", "[\(type)]") }
        row("requested", requestedText)
        row("served by", servedBy.rawValue + (servedBy == injector ? ""
            : " (by fallback: \(injector) lists no element of \(name))"))
        row("elements", "\(collection.elements.count), in manifest order, each made as its own lifetime says")
        for (offset, element) in collection.elements.enumerated() {
            let served = element.served
            row("element \(offset + 1)", elementText(served))
            for replaced in served.overrides { row("overrides", "'\(replaced.factory)' at \(location(of: replaced))") }
            switch element.needs {
            case .known(let nodes) where !nodes.isEmpty: lines += treeLines(nodes)
            case .byHand: row("needs", "unknown: factory '\(served.factory)' resolves by hand")
            default: break
            }
        }
        for shadowed in collection.shadows {
            row("shadows", Self.bindingText(shadowed) + " at \(location(of: shadowed.binding))")
        }
        return lines
    }

    /// `audit-plugin (singleton) parameters {...} at plugins.json:5:5`.
    private func elementText(_ served: BindingDescription) -> String {
        var text = served.factory
        if factories[served.factory] == nil, hasCatalog { text += " (not in the catalog: run patchbay check)" }
        if served.lifetimeSource != .unknown { text += " (\(served.lifetime))" }
        if let parameters = served.binding.parameters.flatMap(Self.parametersText) { text += " parameters \(parameters)" }
        text += " at \(location(of: served.binding))"
        if Self.isInherited(served.binding) { text += " (inherited through extends)" }
        return text
    }

    private var requestedText: String {
        "from \(injector)" + (injectorOrder.contains(injector) ? ""
            : " (not an injector of this manifest: every injector is searched in order)")
    }

    /// The file a binding was written in; the manifest's for one made in code.
    private func file(of binding: Binding) -> String { binding.origin?.file ?? file }

    /// `file:line:column` of a binding.
    private func location(of binding: Binding) -> String {
        let position = binding.origin?.position() ?? SourcePosition(line: 1, column: 1)
        return "\(file(of: binding)):\(position.line):\(position.column)"
    }

    /// One link of a chain and the file that added it: `'timing-store'  Manifests/staging.json:5:49, added by decorate`.
    private func linkText(_ link: Binding.Decorator, of binding: Binding) -> String {
        let name = "'\(link.name)'"
        guard let origin = link.origin else { return name + "  " + file(of: binding) + ", in the binding's decorators" }
        let position = origin.position()
        let written = binding.origin.map { origin.file == $0.file && origin.pointer.hasPrefix($0.pointer + "/") } ?? false
        return name.padding(toLength: max(name.count, 12), withPad: " ", startingAt: 0) + "  "
            + "\(origin.file):\(position.line):\(position.column)"
            + (written ? ", in the binding's decorators" : ", added by decorate")
    }

    /// Whether a binding comes from a manifest this one extends.
    private static func isInherited(_ binding: Binding) -> Bool { (binding.origin?.depth ?? 0) > 0 }

    private func factoryText(_ served: BindingDescription) -> String {
        guard let factory = factories[served.factory] else {
            return hasCatalog ? "\(served.factory) (not in the catalog: run patchbay check)" : served.factory
        }
        return served.factory + ", makes \(factory.productType)"
            + (factory.registeredAt.map { " (registered at \($0))" } ?? "")
    }

    private func lifetimeText(_ served: BindingDescription) -> String {
        let lifetime = served.lifetime
        switch served.lifetimeSource {
        case .unknown:
            return "unknown: the binding names none, and without "
                + (hasCatalog ? "the factory in the catalog" : "a catalog") + " its default is unknown (else transient)"
        case .binding: return "\(lifetime) (from the binding)"
        case .factoryDefault: return "\(lifetime) (the factory's default)"
        case .transientDefault: return "\(lifetime) (neither the binding nor the factory names one)"
        }
    }

    /// The parameters as compact JSON with sorted keys; `nil` when there are none.
    static func parametersText(_ parameters: JSONValue) -> String? {
        if case .object(let members) = parameters, members.isEmpty { return nil }
        return parameters.description
    }

    /// `secondary: file-store (singleton) parameters {...}`.
    static func bindingText(_ served: BindingDescription) -> String {
        "\(served.injector): \(served.factory)" + (served.lifetimeSource == .unknown ? "" : " (\(served.lifetime))")
            + (served.binding.parameters.flatMap(parametersText).map { " parameters \($0)" } ?? "")
    }

    // MARK: - The tree

    /// One line per node, the arrows aligned across the whole tree.
    func treeLines(_ nodes: [Node]) -> [String] {
        var rows: [(name: String, rest: String)] = []
        func walk(_ nodes: [Node], depth: Int) {
            for node in nodes {
                let name = String(repeating: "  ", count: depth + 2) + Self.needName(node)
                rows.append((name, nodeText(node)))
                walk(node.children, depth: depth + 1)
            }
        }
        walk(nodes, depth: 0)
        let width = rows.map(\.name.count).max() ?? 0
        return rows.map { $0.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + "<- " + $0.rest }
    }

    private static func needName(_ node: Node) -> String {
        switch node.kind {
        case .direct: node.type
        case .optional: node.type + "?"
        case .lazy: "Lazy<\(node.type)>"
        case .provider: "Provider<\(node.type)>"
        case .collection: "[\(node.type)]"
        }
    }

    private func nodeText(_ node: Node) -> String {
        if node.kind == .collection, let first = node.children.first?.served {
            let count = node.children.count
            return "\(count) element\(count == 1 ? "" : "s") from \(first.injector)"
                + (node.fallbackFrom.map { "  [fallback: \($0) lists no element of [\(node.type)]]" } ?? "")
        }
        guard let served = node.served else {
            let searched = "searched " + node.searched.map(\.rawValue).joined(separator: ", ")
            switch node.kind {
            case .direct: return "not bound (\(searched))"
            case .optional: return "not bound: resolves to nil (\(searched))"
            case .lazy: return "not bound: fails on first use (\(searched))"
            case .provider: return "not bound: fails at each call (\(searched))"
            case .collection: return "no elements: resolves to [] (\(searched))"
            }
        }
        var notes: [String] = []
        if let asked = node.fallbackFrom { notes.append("fallback: \(asked) binds no \(node.type)") }
        if Self.isInherited(served.binding) { notes.append("from \(file(of: served.binding))") }
        for mark in node.marks {
            switch mark {
            case .cycle(let loop): notes.append("cycle: " + loop.joined(separator: " -> "))
            case .shownAbove: notes.append("needs shown above")
            case .byHand: notes.append("needs unknown (resolves by hand)")
            case .unknownFactory: notes.append("no factory '\(served.factory)' in the catalog")
            case .takesArgument: notes.append("takes a resolve-time argument, which no dependency can supply")
            case .deeper:
                notes.append("needs not shown past \(ManifestExplainer.depthLimit) levels: explain \(node.type) shows them")
            }
        }
        return Self.bindingText(served) + (notes.isEmpty ? "" : "  [" + notes.joined(separator: "; ") + "]")
    }
}
