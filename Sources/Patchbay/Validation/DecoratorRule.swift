// The rules of a binding's `decorators`, each link judged as a factory is:
// its name, the type it decorates, the environments it may be used in, its
// parameters (by the factories' own `ParameterCheck`, reading the link as a
// binding of the decorated type to the decorator), and, in the graph check,
// its needs (ManifestValidator+Graph.swift).

/// One link of a binding's chain as validation concluded it, for activation.
struct DecoratorLink: Sendable {
    /// The decorator's place in the catalog index's ``CatalogIndex/factories``
    /// (past its ``CatalogIndex/decoratorStart``).
    let place: Int
    /// Its place in the binding's `decorators`.
    let offset: Int
    /// Its decoded parameters (live catalog only).
    let parameters: (any Sendable)?
}

extension ValidationRun {
    /// Rules `decorator-not-supported`, `unknown-decorator`, `duplicate-decorator`,
    /// `decorator-does-not-decorate`, `environment-not-allowed` and the parameter
    /// rules, for each of a binding's decorators, in order: the chain, or nil
    /// after reporting every problem (the binding is then broken). A chain
    /// depends on the bound type only (around any factory: an `async` one,
    /// or an `async` link, makes it awaited, which the graph check judges):
    /// it is judged when the factory is unknown too, so every problem is reported at once.
    mutating func checkDecorators(
        of binding: Binding, type: CatalogIndex.TypeID, in catalog: CatalogIndex
    ) -> [DecoratorLink]? {
        guard !binding.decorators.isEmpty else { return [] }
        let typeName = catalog.display(type)
        if binding.isCollectionElement {
            report(diagnostic(
                binding, .decoratorNotSupported, "binding \(binding.displayKey) names decorators, but a collection's "
                    + "element cannot be decorated yet; decorate the type's single binding, or wrap the element in a "
                    + "factory of its own", field: BindingKey.decorators.rawValue))
            return nil
        }
        var links: [DecoratorLink] = []
        var allFit = true
        var firstOffset: [String: Int] = [:]
        for (offset, use) in binding.decorators.enumerated() {
            let link = use.asBinding(of: binding)
            let nameField = use.origin?.value.kind == .object ? DecoratorKey.decorator.rawValue : nil
            let shown = "'\(MessageText.name(use.name))'"
            guard let place = catalog.decoratorOffset(named: use.name) else {
                reportUnknownDecorator(use.name, in: link, field: nameField, type: type, catalog: catalog)
                allFit = false
                continue
            }
            if let first = firstOffset[use.name] {
                report(diagnostic(link, .duplicateDecorator, "decorator \(shown) is named twice in the chain of "
                    + "\(binding.displayKey) (first as decorators[\(first)]); a chain wraps with each decorator once: "
                    + "remove one", field: nameField))
                allFit = false
                continue
            }
            firstOffset[use.name] = offset
            guard catalog.decorates(place) == type else {
                let decorated = catalog.decorates(place).map(catalog.display) ?? "another type"
                let others = decorators(of: type, in: catalog).names
                let inInjector = binding.injector == .primary ? "" : " in \(MessageText.name(binding.injector.rawValue))"
                // A link a `decorate` entry added is taken out where it was written: the entry's `add`.
                let takeOut = use.origin?.pointer.hasPrefix("/\(ManifestKey.decorate)/") == true
                    ? "take it out of '\(DecorateKey.add)'" : "remove it from the chain"
                report(diagnostic(link, .decoratorDoesNotDecorate, "decorator \(shown) decorates \(decorated), not "
                    + "\(typeName) (the type this binding\(inInjector) binds); "
                    + (others.isEmpty ? "\(takeOut) (no decorator of the catalog decorates \(typeName))"
                        : "\(takeOut), or use a decorator of \(typeName): " + others.map { "'\($0)'" }.joined(separator: ", ")),
                    field: nameField, suggestion: others.first))
                allFit = false
                continue
            }
            // Both judged, whichever fails: every problem of a link at once.
            let allowed = checkDecoratorEnvironment(link, decorator: place, field: nameField, in: catalog)
            // Parameters the file reader refused were reported there; the link is refused all the same.
            let parameters = use.parametersRefused ? nil : checkParameters(of: link, factory: place, in: catalog)
            guard allowed, let parameters else {
                allFit = false
                continue
            }
            links.append(DecoratorLink(place: place, offset: offset, parameters: parameters.value))
        }
        return allFit ? links : nil
    }

    /// Notes each decorator the binding's chain names as named (see
    /// ``ValidationResult/namedFactories``), whatever else is wrong with the
    /// binding or its chain, as a factory is: for `unused-decorator`.
    mutating func noteNamedDecorators(of binding: Binding, in catalog: CatalogIndex) {
        for use in binding.decorators {
            if let place = catalog.decoratorOffset(named: use.name) { namedFactories[place] = true }
        }
    }

    /// Rule `unknown-decorator`, with a "did you mean" among the decorators
    /// of the binding's type (else among all), and a word when the name is a factory's.
    private mutating func reportUnknownDecorator(
        _ name: String, in link: Binding, field: String?, type: CatalogIndex.TypeID, catalog: CatalogIndex
    ) {
        let (ofType, suggestions) = decorators(of: type, in: catalog)
        let suggestion = suggestions.suggestions(for: name, limit: 1).first
        var message = "unknown decorator '\(MessageText.name(name))' for \(link.displayKey)"
        if let suggestion {
            message += MessageText.didYouMean(suggestion, for: name)
        } else if !ofType.isEmpty {
            message += "; decorators of \(catalog.display(type)): " + ofType.map { "'\($0)'" }.joined(separator: ", ")
        } else {
            message += "; no decorator of the catalog decorates \(catalog.display(type)): register one with "
                + "catalog.registerDecorator(_:decorates:)"
        }
        if catalog.factoryOffset(named: name) != nil {
            message += ". '\(MessageText.name(name))' is a factory: a binding's '\(BindingKey.factory)' names it, "
                + "'\(BindingKey.decorators)' names decorators"
        } else if suggestion == nil, case .description = catalog.source {
            message += ". Is catalog.json stale? If '\(MessageText.name(name))' was registered since it was written, "
                + CatalogDescription.howToRegenerate("catalog.json").lowercasedFirst
        }
        report(diagnostic(link, .unknownDecorator, message, field: field, suggestion: suggestion))
    }

    /// The decorators of `type`, and suggestions among them (among all when
    /// it has none): made once per type and run, however many chains misspell one.
    private mutating func decorators(
        of type: CatalogIndex.TypeID, in catalog: CatalogIndex
    ) -> (names: [String], suggestions: SuggestionIndex) {
        if let known = decoratorsByType[type] { return known }
        let names = catalog.decorators(of: type)
        let made = (names, SuggestionIndex(names.isEmpty ? catalog.decoratorNames : names))
        decoratorsByType[type] = made
        return made
    }

    /// Rule `environment-not-allowed` for a decorator: the environments rule applies to every link of a chain.
    private mutating func checkDecoratorEnvironment(
        _ link: Binding, decorator: Int, field: String?, in catalog: CatalogIndex
    ) -> Bool {
        guard let rule = catalog.environmentRules[decorator], let environment = manifest.judgedEnvironment,
            !rule.allows(environment)
        else { return true }
        let place = catalog.registeredAt(decorator).map { ", registered at \($0)" } ?? ""
        let shownEnvironment = "'\(MessageText.name(environment))'"
        let allowedList = rule.whereAllowed("used", none: "it is limited to no environment")
        report(diagnostic(
            link, .environmentNotAllowed, "decorator '\(link.displayFactory)' may not be used in environment "
                + "\(shownEnvironment): " + allowedList + place + ". Remove it from this environment's chain, or, "
                + "if it is meant to run here, add \(shownEnvironment) to its registration's environments",
            field: field))
        return false
    }
}
