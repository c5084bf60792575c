// The rules of a manifest's `decorate` (see ``Decoration``): which bindings
// each entry edits, and whether its edits fit their chains. Run first, so
// that every other rule, activation and the tools read the edited chains
// as if the files had written them, each added link at its own entry.

extension ValidationRun {
    /// The type a binding or an entry names, as the `extends` rule groups
    /// bindings: the catalog's type, else the name as written.
    private enum NamedType: Hashable {
        case known(CatalogIndex.TypeID)
        case written(String)
    }

    /// Applies the manifest's `decorate` entries to its bindings' chains,
    /// each file's after its parents' and in file order. An entry edits the
    /// binding of its type in effect where its file stands in the `extends`
    /// chain (the shallowest of those in its file and its parents), in its
    /// `injector`, or in every injector that binds the type: `remove` first,
    /// then `add`, appended outermost in order.
    ///
    /// Rules `unknown-protocol`, `ambiguous-protocol` (the entry's type),
    /// `decorate-unbound` (no binding of it to edit), `decorator-not-in-chain`
    /// (a `remove` no edited chain has) and `duplicate-decorator` (an `add`
    /// already in the chain). What each added link is (`unknown-decorator`,
    /// its environments, its parameters, its needs) is judged with the
    /// chain, at the entry that added it.
    mutating func applyDecorations() {
        // Edited as one list, written back once: the caller's manifest stays as the files wrote it.
        var bindings = manifest.bindings
        var byType: [NamedType: [Int]] = [:]
        for (index, binding) in bindings.enumerated() where !binding.isCollectionElement {
            byType[namedType(binding.protocolName), default: []].append(index)
        }
        // The deepest file's entries first: a child edits what its parents made.
        let order = manifest.decorations.indices.sorted {
            (-(manifest.decorations[$0].origin?.depth ?? 0), $0) < (-(manifest.decorations[$1].origin?.depth ?? 0), $1)
        }
        for offset in order {
            let entry = manifest.decorations[offset]
            noteNamedDecorators(of: entry)
            guard let type = entryType(of: entry) else { continue }
            let bound = byType[type] ?? (catalog == nil ? boundByShortName(entry.protocolName, in: byType) : [])
            let targets = bindingsInEffect(of: bound, at: entry, in: bindings)
            guard !targets.isEmpty else {
                reportUnbound(entry, bound: bound, in: bindings)
                continue
            }
            edit(targets, by: entry, in: &bindings)
        }
        manifest.bindings = bindings
    }

    /// Without a catalog, which alone knows that `App.NoteStore` and
    /// `NoteStore` are one type, the bindings whose name as written ends as
    /// the entry's does after the module: an entry that names the type
    /// otherwise than the parent does is then not reported unbound by a
    /// check that cannot tell (the app, which has the catalog, matches it exactly).
    private func boundByShortName(_ name: String, in byType: [NamedType: [Int]]) -> [Int] {
        func short(_ name: String) -> Substring { name.split(separator: ".").last ?? Substring(name) }
        guard !name.contains("<") else { return [] }
        let wanted = short(name)
        var found: [Int] = []
        for case (.written(let written), let indices) in byType where !written.contains("<") && short(written) == wanted {
            found += indices
        }
        return found.sorted()
    }

    private func namedType(_ name: String) -> NamedType {
        if let catalog, case .type(let type) = catalog.lookup(name) { return .known(type) }
        return .written(name)
    }

    /// The type an entry names; nil after reporting one the catalog does not know, or that is ambiguous.
    private mutating func entryType(of entry: Decoration) -> NamedType? {
        guard let catalog else { return .written(entry.protocolName) }
        let name = entry.protocolName
        switch catalog.lookup(name) {
        case .type(let type):
            return .known(type)
        case .ambiguous(let matches):
            let names = matches.map { catalog.types[$0].qualified }.sorted()
            report(Decoration.diagnostic(
                .ambiguousProtocol, "'\(ManifestKey.decorate)' names '\(MessageText.name(name))', which matches "
                    + "\(names.count) types: " + names.joined(separator: ", ") + "; write the module-qualified name",
                at: entry.origin, field: DecorateKey.protocol.rawValue, fallbackFile: manifest.file))
        case .unknown:
            let suggestion = catalog.typeSuggestions(for: name, limit: 1).first
            report(Decoration.diagnostic(
                .unknownProtocol, "'\(ManifestKey.decorate)' names '\(MessageText.name(name))', which no factory in the "
                    + "catalog provides" + (suggestion.map { MessageText.didYouMean($0, for: name) }
                        ?? "; write the type of a binding this file inherits"),
                at: entry.origin, field: DecorateKey.protocol.rawValue, suggestion: suggestion,
                fallbackFile: manifest.file))
        }
        return nil
    }

    /// Of the bindings of one type (`bound`, places in `bindings`), those the
    /// entry edits: in each injector it applies to, the ones in the
    /// shallowest file at or above the entry's (as the `extends` rule picks
    /// them where the entry's file stands); two there are duplicates, and both are edited.
    private func bindingsInEffect(of bound: [Int], at entry: Decoration, in bindings: [Binding]) -> [Int] {
        let depth = entry.origin?.depth ?? 0
        var shallowest: [InjectorName: Int] = [:]
        for index in bound where entry.injector.map({ $0 == bindings[index].injector }) ?? true {
            let found = bindings[index].origin?.depth ?? 0
            guard found >= depth else { continue }
            shallowest[bindings[index].injector] = min(shallowest[bindings[index].injector] ?? found, found)
        }
        return bound.filter { index in
            shallowest[bindings[index].injector] == (bindings[index].origin?.depth ?? 0)
        }
    }

    /// Edits each of `targets`' chains by `entry`: its removals, then its
    /// additions. A removal no edited chain has, and an addition a chain
    /// already has, are reported once, at their names.
    private mutating func edit(_ targets: [Int], by entry: Decoration, in bindings: inout [Binding]) {
        var removedSomewhere = Array(repeating: false, count: entry.remove.count)
        var reportedTwice = Set<Int>()
        // The chains as the entry found them, for what a message says they had (shared, not copied).
        let found = targets.map { bindings[$0] }
        for target in targets {
            var chain = bindings[target].decorators
            // By name, in sets: an entry of thousands of names costs a pass, not a search per name.
            var names = Set(chain.map(\.name))
            var taken = Set<String>()
            for (offset, removal) in entry.remove.enumerated() where names.remove(removal.name) != nil {
                taken.insert(removal.name)
                removedSomewhere[offset] = true
            }
            if !taken.isEmpty { chain.removeAll { taken.contains($0.name) } }
            for (offset, use) in entry.add.enumerated() {
                guard names.insert(use.name).inserted else {
                    if reportedTwice.insert(offset).inserted {
                        reportAlreadyInChain(use, of: bindings[target], chain: chain, entry: entry)
                        checkParameters(ofRefused: use, in: bindings[target])
                    }
                    continue
                }
                chain.append(use)
            }
            bindings[target].decorators = chain
        }
        guard removedSomewhere.contains(false) else { return }
        // What the chains had, and suggestions among it, made once for every name they lack.
        var seen = Set<String>()
        let names = found.flatMap { $0.decorators.map(\.name) }.filter { seen.insert($0).inserted }  // in chain order
        let suggestions = SuggestionIndex(names)
        var firstOffset: [String: Int] = [:]
        for (offset, removal) in entry.remove.enumerated() {
            let first = firstOffset[removal.name] ?? offset
            firstOffset[removal.name] = first
            guard !removedSomewhere[offset] else { continue }
            if first < offset {
                // The first removed it: the chain had it, and a message saying it had not would mislead.
                report(Decoration.diagnostic(
                    .decoratorNotInChain, "'\(DecorateKey.remove)' names decorator '\(MessageText.name(removal.name))' "
                        + "twice (first as \(DecorateKey.remove)[\(first)]), and a chain has each decorator once: "
                        + "remove one", at: removal.origin, fallbackFile: manifest.file))
                continue
            }
            reportNotInChain(removal, entry: entry, chains: found, names: names, suggestions: suggestions)
        }
    }

    /// Notes each catalog decorator an entry names, added or removed, as named (for `unused-decorator`).
    private mutating func noteNamedDecorators(of entry: Decoration) {
        guard let catalog else { return }
        for use in entry.add + entry.remove {
            if let place = catalog.decoratorOffset(named: use.name) { namedFactories[place] = true }
        }
    }

    /// A link that one entry adds to the chains of several injectors is one
    /// link, at one place: each chain judged it, naming its injector, and what
    /// they found alike is reported once, the first chain's words kept. Alike
    /// means the same code about the same thing: the need (a dependency
    /// path's last type), else the message with the injector left out. A
    /// link's several needs or parameter fields share its place, and each is
    /// reported, as the same link in a binding's `decorators` reports them.
    mutating func reportEachAddedLinkOnce() {
        struct Problem: Hashable { let file: String, path: String, code: DiagnosticCode, subject: String }
        let prefix = "/\(ManifestKey.decorate)/"
        guard diagnostics.contains(where: { $0.path.hasPrefix(prefix) }) else { return }
        var injectors = Set<String>()
        for binding in manifest.bindings where binding.injector != .primary {
            injectors.insert(MessageText.name(binding.injector.rawValue))
        }
        var seen = Set<Problem>()
        diagnostics.removeAll { diagnostic in
            guard diagnostic.path.hasPrefix(prefix) else { return false }
            let subject = diagnostic.dependencyPath?.last.map { "need " + $0 }
                ?? Self.leavingOutInjectors(injectors, of: diagnostic.message)
            return !seen.insert(Problem(file: diagnostic.file, path: diagnostic.path, code: diagnostic.code, subject: subject))
                .inserted
        }
    }

    /// The message without " in secondary" where it names an injector's
    /// binding ("NoteStore in secondary" as "NoteStore"): one pass, with each
    /// word after " in " looked up, however many injectors the manifest has.
    /// A name a word does not end (one with a space) stays, and a problem
    /// is then reported once per chain: repeated, never lost.
    private static func leavingOutInjectors(_ injectors: Set<String>, of message: String) -> String {
        guard !injectors.isEmpty else { return message }
        var kept = ""
        var rest = Substring(message)
        while let found = rest.range(of: " in ") {
            let word = rest[found.upperBound...].prefix { !" ,;:)".contains($0) }
            kept += rest[..<found.lowerBound]
            if injectors.contains(String(word)) {
                rest = rest[word.endIndex...]
            } else {
                kept += rest[found]
                rest = rest[found.upperBound...]
            }
        }
        return kept + rest
    }

    // MARK: - Diagnostics

    /// Rule `decorate-unbound`: no binding of the entry's type, in its injector, where its file stands.
    private mutating func reportUnbound(_ entry: Decoration, bound: [Int], in bindings: [Binding]) {
        let depth = entry.origin?.depth ?? 0
        let injectors = Set(bound.filter { (bindings[$0].origin?.depth ?? 0) >= depth }.map { bindings[$0].injector.rawValue })
            .sorted()
        let type = MessageText.name(entry.protocolName)
        let isElement = bindings.contains { $0.isCollectionElement && $0.protocolName == entry.protocolName }
        var message = "'\(ManifestKey.decorate)' edits the chain of \(entry.displayKey), but no binding of \(type)"
            + (entry.injector.map { " in \(MessageText.name($0.rawValue))" } ?? "")
            + " is in effect in this file or the files it extends"
        if entry.injector != nil, !injectors.isEmpty {
            message += " (\(type) is bound in " + injectors.map(MessageText.name).joined(separator: ", ")
                + "): name one of those injectors, "
                + "or leave out '\(DecorateKey.injector)' to edit every one"
        } else if isElement {
            message += "; a collection's elements cannot be decorated: decorate the type's single binding"
        } else {
            message += "; bind \(type) here or in a parent, or remove the entry"
        }
        report(Decoration.diagnostic(
            .decorateUnbound, message, at: entry.origin,
            field: (entry.injector != nil && !injectors.isEmpty ? DecorateKey.injector : .protocol).rawValue,
            suggestion: entry.injector != nil ? injectors.first : nil, fallbackFile: manifest.file))
    }

    /// Rule `decorator-not-in-chain`: a `remove` that names a decorator no edited chain has.
    private mutating func reportNotInChain(
        _ removal: Binding.Decorator, entry: Decoration, chains: [Binding], names: [String], suggestions: SuggestionIndex
    ) {
        let suggestion = suggestions.suggestions(for: removal.name, limit: 1).first
        let inherited = names.isEmpty ? "which has no decorators" : "whose decorators are "
            + names.prefix(8).map { "'\(MessageText.name($0))'" }.joined(separator: ", ")
            + (names.count > 8 ? " and \(names.count - 8) more" : "")
        let chainsOf = chains.count == 1 ? "the chain of \(chains[0].displayKey)" : "any chain of \(entry.displayKey)"
        report(Decoration.diagnostic(
            .decoratorNotInChain, "'\(DecorateKey.remove)' names decorator '\(MessageText.name(removal.name))', which is "
                + "not in \(chainsOf) (\(inherited)) at this point of the extends chain; nothing to remove"
                + (suggestion.map { MessageText.didYouMean($0, for: removal.name) } ?? ": remove the name"),
            at: removal.origin, suggestion: suggestion, fallbackFile: manifest.file))
    }

    /// The parameter rules for an `add` refused as a duplicate, which no
    /// chain judges: its other problems are reported with that one, not
    /// after it is fixed. Its name is the chain's own, so it is known.
    private mutating func checkParameters(ofRefused use: Binding.Decorator, in binding: Binding) {
        guard let catalog, !use.parametersRefused, let place = catalog.decoratorOffset(named: use.name) else { return }
        _ = checkParameters(of: use.asBinding(of: binding), factory: place, in: catalog)
    }

    /// Rule `duplicate-decorator` for an `add`: the chain it edits already has the decorator.
    private mutating func reportAlreadyInChain(_ use: Binding.Decorator, of binding: Binding, chain: [Binding.Decorator], entry: Decoration) {
        let existing = chain.first { $0.name == use.name }?.origin
            ?? entry.add.first { $0.name == use.name }?.origin
        let from = existing.map { " (from \($0.file), line \($0.position().line))" } ?? ""
        report(Decoration.diagnostic(
            .duplicateDecorator, "decorator '\(MessageText.name(use.name))' is already in the chain of "
                + "\(binding.displayKey)\(from); a chain wraps with each decorator once: take it out of "
                + "'\(DecorateKey.add)', or also name it in '\(DecorateKey.remove)' to move it outermost",
            at: use.origin, field: use.origin?.value.kind == .object ? DecoratorKey.decorator.rawValue : nil,
            fallbackFile: manifest.file))
    }
}
