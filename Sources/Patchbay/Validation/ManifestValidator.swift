import Foundation

/// Checks a loaded manifest against a catalog and reports every problem in
/// one pass: injectors, names, lifetimes, parameters, duplicates and
/// overrides, and the dependency graph (missing dependencies, arguments,
/// captive dependencies, cycles).
///
///     let diagnostics = ManifestValidator(catalog: catalog).validate(manifest)
///
/// It is the only validator: container activation compiles its result, and
/// `patchbay check` prints it, so the app and the check give one verdict;
/// `patchbay explain` and `graph` show the bindings it concluded
/// (``BindingDescription``), so they show what the app would serve.
/// With a live ``FactoryCatalog`` it also decodes each binding's `parameters`
/// into the factory's real parameter type, which may reject values for its
/// own reasons (an `init(from:)` that checks a range, say); with a
/// ``CatalogDescription`` it checks what the description records of the
/// parameter fields. With no catalog it checks what needs none: injectors
/// and duplicates.
///
/// A manifest is one environment, so `unused-factory` and `unused-decorator`
/// are not judged here: ``ManifestChecker`` judges them over every manifest of a folder.
///
/// ## The rules, in the order they run
///
/// Each rule reports under a stable code (``DiagnosticCode``) and is one
/// function, named here with its file in `Validation/`.
///
/// First the manifest's own label (`checkEnvironmentLabel()`, EnvironmentRule.swift):
/// `environment-label-mismatch`, its `environment` names the environment it is
/// loaded, and judged, as (see `JudgedEnvironment`), or is left out.
///
/// Then the manifest's `decorate` entries, each file's after its parents'
/// (`applyDecorations()`, DecorateRule.swift): `unknown-protocol` and
/// `ambiguous-protocol` for an entry's type, `decorate-unbound` for an entry
/// that edits no binding, `decorator-not-in-chain` for a `remove` no edited
/// chain has, `duplicate-decorator` for an `add` a chain already has. Every
/// later rule reads the chains so edited, each added link at its entry.
///
/// Then each binding on its own, in manifest order (`checkBindings()`):
///
/// | # | code | checks that | function, file |
/// |---|---|---|---|
/// | 1 | `undeclared-injector` | a custom injector is listed in `injectors`, when there is such a list | `checkInjectorIsDeclared`, ManifestValidator.swift |
/// | 2 | `unknown-protocol`, `ambiguous-protocol` | the protocol name means one catalog type | `boundType(of:in:)`, ManifestValidator.swift |
/// | 3 | `unknown-factory` | the factory is in the catalog | `factoryOffset`, ManifestValidator.swift |
/// | 4 | `factory-does-not-provide` | the factory provides the bound type | `providedOffset`, ManifestValidator.swift |
/// | 4a | `environment-not-allowed` | the factory may be bound in the manifest's environment | `checkEnvironmentAllows`, EnvironmentRule.swift |
/// | 5 | `weak-value-type`, `weak-unchecked` (a note) | a `weak` binding's factory (or its chain's last decorator) makes a class instance, or a note when only its first value can tell | `checkWeakNeedsAClass`, ManifestValidator.swift |
/// | 6 | `invalid-parameters`, `unknown-parameter` | `parameters` fit the factory's parameter type, and name only keys it reads | `checkParameters`, then `ParameterCheck`, ParameterCheck.swift |
/// | 7 | `collection-element-takes-argument` | an element's factory takes no resolve-time argument | `checkElementTakesNoArgument`, ManifestValidator+Collections.swift |
/// | 8 | `needs-await` | an element's factory is not `async` | `checkElementIsNotAsync`, ManifestValidator+Collections.swift |
/// | 8a | `decorator-not-supported`, `unknown-decorator`, `duplicate-decorator`, `decorator-does-not-decorate`, `environment-not-allowed`, `invalid-parameters` | each of `decorators` is a decorator of the bound type, used once, allowed here, with parameters that fit | `checkDecorators`, DecoratorRule.swift |
///
/// Rules 5 to 8 judge only a binding whose type and factory the catalog
/// knows. The lifetime in effect (the binding's, else the factory's
/// default, else transient) is `Lifetime.inEffect(named:factoryDefault:factoryIsKnown:)`.
///
/// Then the bindings together, under the `extends` rule (`OverrideRule`),
/// in `resolveOverrides()`:
///
/// | # | code | checks that | function, file |
/// |---|---|---|---|
/// | 9 | `duplicate-binding` | a file binds a type in an injector once | `reportDuplicates`, ManifestValidator.swift |
/// | 10 | `duplicate-collection-element` (warning) | a file lists an element with the same factory and parameters once | `reportDuplicateElements`, ManifestValidator+Collections.swift |
///
/// Then the dependency graph, need by need of each binding in effect,
/// followed from the injector that served it with resolution's fallback
/// (`checkGraph()` over `followNeeds`, ManifestValidator+Graph.swift; the
/// same walk gives `explain` and `graph` their verdicts, DependencyVerdicts.swift):
///
/// | # | code | checks that | function |
/// |---|---|---|---|
/// | 11 | `missing-dependency` | a direct or lazy need (a factory's, or a decorator's of its chain) is bound in some injector searched | `checkNeedIsBound` |
/// | 12 | `argument-required` | a need's factory takes no argument its dependent cannot pass | `checkDependencyTakesNoArgument` |
/// | 13 | `needs-await`, `needs-main-actor` | a need's factory can run where its dependent's runs | `checkNeedCanBeMade` |
/// | 14 | `captive-dependency` | nothing keeps a dependency alive past its lifetime | `checkNotCaptive` |
/// | 15 | `dependency-cycle` | no loop of non-lazy needs, each drawn once | `reportCycles` |
///
/// Last, the types the app resolves itself (`checkEntryPoints()`):
///
/// | # | code | checks that | function, file |
/// |---|---|---|---|
/// | 16 | `unbound-entry-point` | each entry point the catalog declares is served from its injector | `checkEntryPoints`, EntryPointRule.swift |
///
/// Before these, reading the file (`Manifest/`: ``ManifestLoader`` and the
/// parser, over the scanner in `JSON/`) reports what is wrong with the JSON
/// and the format: `syntax`,
/// `too-large`, `too-deep`, `duplicate-key`, `unsupported-format`,
/// `unknown-key`, `missing-key`, `wrong-type`, `collection-and-protocol`,
/// `unknown-lifetime`, `duplicate-injector`, `env-var-missing`, `extends-*`,
/// `unreadable`. After them, over a folder, ``ManifestChecker`` reports
/// `unused-factory` and `unused-decorator` (UnusedFactories.swift) and `no-entry-points`
/// (Checking/CheckRun.swift); ``ManifestDirectory`` reports
/// `unknown-environment`, for an environment with no manifest file.
public struct ManifestValidator: Sendable {
    let catalog: CatalogIndex?
    /// How many threads may check bindings' parameters (see `ValidationRun.checkDeferredParameters(in:)`):
    /// every active core; a test sets 1 to compare a run on one core with a run on several.
    var cores = ProcessInfo.processInfo.activeProcessorCount

    /// Validates against a live catalog, decoding parameters with their real types.
    public init(catalog: FactoryCatalog) { self.catalog = CatalogIndex(catalog) }

    /// Validates against a catalog description, as `patchbay check` does with `catalog.json`.
    public init(description: CatalogDescription) { self.catalog = CatalogIndex(description) }

    /// Validates only what needs no catalog.
    public init() { self.catalog = nil }

    /// Every problem in the manifest, errors first, each in file and position order.
    public func validate(_ manifest: Manifest) -> [Diagnostic] {
        Diagnostic.sortedForDisplay(run(manifest).diagnostics)
    }

    /// Validates against a catalog index the caller has made: the tools,
    /// which read the index themselves, make it once.
    package init(index: CatalogIndex?) { self.catalog = index }

    /// The validation result, with the bindings in effect, for activation and the tools.
    package func run(_ manifest: Manifest) -> ValidationResult {
        var validation = ValidationRun(manifest: manifest, catalog: catalog)
        validation.cores = cores
        validation.checkEnvironmentLabel()
        validation.checkBindings()
        validation.checkGraph()
        validation.checkEntryPoints()
        if !manifest.decorations.isEmpty { validation.reportEachAddedLinkOnce() }
        return ValidationResult(
            diagnostics: validation.diagnostics, bindings: validation.effective, injectorOrder: validation.injectorOrder,
            typeCount: validation.typeCount, namedFactories: validation.namedFactories)
    }
}

/// What validation found, and what activation compiles.
package struct ValidationResult: Sendable {
    /// Every problem found, in the order found; taken out (left empty) by
    /// whoever throws them, so that hundreds of thousands are not copied.
    package var diagnostics: [Diagnostic]
    /// The bindings in effect after `extends` overrides, in manifest order; none broken.
    package let bindings: [BindingDescription]
    /// The injector fallback order.
    package let injectorOrder: [InjectorName]
    /// How many types the bindings' ``BindingDescription/typeID``s are numbered below.
    let typeCount: Int
    /// Which catalog factories (by place in the index) some binding names,
    /// and which decorators some binding's chain names, even one with a
    /// problem: for `unused-factory` and `unused-decorator` over several manifests.
    let namedFactories: [Bool]
}

/// The state of one validation pass.
package struct ValidationRun {
    /// The manifest judged, its chains edited by its `decorate` once `checkBindings()` begins.
    var manifest: Manifest
    let catalog: CatalogIndex?
    var diagnostics: [Diagnostic] = []
    /// Every binding with a factory key, broken or not, in manifest order
    /// (without a catalog, every binding).
    var candidates: [BindingDescription] = []
    /// Whether some candidate's type or factory the catalog lacks, or its factory does not provide its type.
    var anyUnknownToCatalog = false
    /// Whether some candidate has no factory key (without a catalog only).
    var anyWithoutFactory = false
    /// Whether some candidate is an element of a collection: only then are
    /// the candidates split into single bindings and elements.
    var anyCollectionElement = false
    /// The candidates that won their type and injector under `extends`, broken or not.
    var winners: [BindingDescription] = []
    /// The bindings in effect: the winners that are not broken.
    var effective: [BindingDescription] = []
    /// Types some binding binds, though badly: for their dependents they are bound.
    var brokenTypes: Set<CatalogIndex.TypeID> = []
    /// Which binding of `effective` serves each type from each injector.
    var serving: ServingTable?
    var injectorOrder: [InjectorName] = []
    /// Which catalog factories some binding names (see ``ValidationResult/namedFactories``).
    var namedFactories: [Bool]
    /// The decoder of parameter types, made when the first binding with parameters is checked.
    var parameterDecoder: JSONDecoder?
    /// Suggestions among the manifest's `injectors`, made for the first undeclared one.
    var declaredInjectorSuggestions: SuggestionIndex?
    /// Suggestions among the factories that provide a type, by type, made for the first binding that needs them.
    var providerSuggestions: [CatalogIndex.TypeID: SuggestionIndex] = [:]
    /// The nearest factory name to an unknown one, by the binding's type (-1 for none) and the name: a file
    /// of 440,000 bindings naming one unknown factory asked the same question 440,000 times.
    var factorySuggestions: [FactorySuggestionKey: String?] = [:]
    struct FactorySuggestionKey: Hashable { let type: CatalogIndex.TypeID, name: String }
    /// The decorators of a type and suggestions among them (or among all, for a type with none), by type,
    /// made for the first binding of the type whose chain needs them.
    var decoratorsByType: [CatalogIndex.TypeID: (names: [String], suggestions: SuggestionIndex)] = [:]
    /// Suggestions among parameter types' fields (see ``ParameterCheck/fieldSuggestions``).
    var fieldSuggestions: [String: SuggestionIndex] = [:]
    /// The bindings whose parameters are checked once the other checks are done, on every core.
    var deferredParameters: [DeferredParameters] = []
    /// How many threads check them (``ManifestValidator/cores``).
    var cores = 1
    /// A type the catalog does not know (or, without a catalog, any type) is
    /// its protocol name as written, numbered here after the catalog's types.
    var namesWithoutCatalog = NameTable<Int>()

    init(manifest: Manifest, catalog: CatalogIndex?) {
        self.manifest = manifest
        self.catalog = catalog
        self.namedFactories = Array(repeating: false, count: catalog?.factories.count ?? 0)
    }

    /// How many types the serving table has room for.
    var typeCount: Int { (catalog?.types.count ?? 0) + namesWithoutCatalog.count }

    /// The number of a type known only by the name a binding wrote.
    mutating func typeWithoutCatalog(named name: String) -> CatalogIndex.TypeID {
        let next = namesWithoutCatalog.count
        return (catalog?.types.count ?? 0) + namesWithoutCatalog.update(name, initial: next) { $0 }
    }

    mutating func report(_ diagnostic: Diagnostic) { diagnostics.append(diagnostic) }

    /// The manifest's binding that `validated` stands for.
    func binding(_ validated: BindingDescription) -> Binding { manifest.bindings[validated.index] }

    /// A diagnostic at a field of a binding (its own file and position).
    func diagnostic(
        _ binding: Binding, _ code: DiagnosticCode, _ message: String, field: String? = nil,
        suggestion: String? = nil, dependencyPath: [String]? = nil
    ) -> Diagnostic {
        binding.diagnostic(
            code, message, field: field, suggestion: suggestion, dependencyPath: dependencyPath,
            fallbackFile: manifest.file)
    }

    // MARK: - Bindings

    /// Checks every binding on its own, then applies `extends` overrides and finds duplicates.
    ///
    /// Every binding with a factory key is described, even one whose type or
    /// factory the catalog lacks (broken, so never in effect), so the tools
    /// can explain a manifest being repaired. A binding with no factory key
    /// (already reported by the parser) names nothing to describe.
    mutating func checkBindings() {
        if !manifest.decorations.isEmpty { applyDecorations() }
        injectorOrder = Self.injectorOrder(of: manifest)
        // Each binding's place in the order is found here once and kept in its description.
        let ranks = InjectorRanks(injectorOrder)
        let bindings = manifest.bindings
        candidates.reserveCapacity(bindings.count)
        guard let catalog else {
            for (index, binding) in bindings.enumerated() {
                let rank = ranks[binding.injector]
                let injectorIsDeclared = checkInjectorIsDeclared(binding, rank: rank)
                // Without a catalog, a binding with no factory key still counts
                // for duplicates, as it always has; it is left out of the winners.
                if binding.factory.isEmpty { anyWithoutFactory = true }
                if binding.isCollectionElement { anyCollectionElement = true }
                let type = typeWithoutCatalog(named: binding.protocolName)
                let (lifetime, source) = Lifetime.inEffect(named: binding.lifetime, factoryDefault: nil, factoryIsKnown: false)
                candidates.append(BindingDescription(
                    bindings: bindings, index: index, types: nil, typeID: type, factoryPlace: -1, provided: -1,
                    lifetime: lifetime, lifetimeSource: source,
                    injector: binding.injector, injectorRank: rank, parameters: nil, isBroken: binding.isBroken || !injectorIsDeclared))
            }
            resolveOverrides()
            return
        }
        let types = catalog.types
        // By index, not `enumerated()`, whose pairs were a copy of each binding (a dozen retains and releases).
        for index in bindings.indices {
            let binding = bindings[index]
            reserveForProblems(seenIn: index, of: bindings.count)
            let rank = ranks[binding.injector]
            let injectorIsDeclared = checkInjectorIsDeclared(binding, rank: rank)
            let type = boundType(of: binding, in: catalog)
            if !binding.decorators.isEmpty { noteNamedDecorators(of: binding, in: catalog) }
            // A broken element leaves the type's single binding as it is: only that counts for `T` needs.
            let bindsSingle = !binding.isCollectionElement
            if !bindsSingle { anyCollectionElement = true }
            guard !binding.factory.isEmpty else {
                if let type, bindsSingle { brokenTypes.insert(type) }
                continue
            }
            let factory = factoryOffset(of: binding, for: type, in: catalog)
            let provided = type.flatMap { type in factory.flatMap { providedOffset(of: type, by: $0, for: binding, in: catalog) } }
            let (lifetime, source) = Lifetime.inEffect(
                named: binding.lifetime, factoryDefault: factory.flatMap { catalog.factories[$0].defaultLifetime },
                factoryIsKnown: factory != nil)
            // A binding whose type or factory is wrong is not checked further:
            // its lifetime and parameters are judged once it names the right ones.
            var checksPass = false
            var parameters: DecodedParameters?
            var decorators: [DecoratorLink] = []
            if let factory, provided != nil, let type {
                let allowedHere = catalog.environmentRules.isEmpty
                    || checkEnvironmentAllows(binding, factory: factory, type: type, in: catalog)
                let chain = checkDecorators(of: binding, type: type, in: catalog)
                // What a weak binding keeps is what its chain's last link makes.
                let lifetimeFits = binding.decorators.isEmpty
                    ? checkWeakNeedsAClass(binding, lifetime: lifetime, factory: factory, in: catalog)
                    : chain.map { checkWeakNeedsAClass(binding, lifetime: lifetime, outermost: $0.last, in: catalog) }
                        ?? true
                parameters = deferParameters(of: binding, at: index, factory: factory, in: catalog)
                    ?? checkParameters(of: binding, factory: factory, in: catalog)
                let servable = bindsSingle
                    || (checkElementTakesNoArgument(binding, factory: factory, in: catalog)
                        && checkElementIsNotAsync(binding, factory: factory, in: catalog))
                decorators = chain ?? []
                checksPass = allowedHere && lifetimeFits && parameters != nil && servable && chain != nil
            } else {
                anyUnknownToCatalog = true
                if let type, bindsSingle { brokenTypes.insert(type) }
                // Its chain hangs on the type alone: judged now, not after the factory is fixed.
                if let type { _ = checkDecorators(of: binding, type: type, in: catalog) }
            }
            candidates.append(BindingDescription(
                bindings: bindings, index: index, types: types,
                typeID: type ?? typeWithoutCatalog(named: binding.protocolName), factoryPlace: factory ?? -1,
                provided: provided ?? -1, lifetime: lifetime, lifetimeSource: source, injector: binding.injector,
                injectorRank: rank, parameters: parameters?.value, isBroken: binding.isBroken || !injectorIsDeclared || !checksPass,
                decorators: decorators))
        }
        if !deferredParameters.isEmpty { checkDeferredParameters(in: catalog) }
        resolveOverrides()
    }

    /// When thousands of bindings have problems, makes room for as many
    /// diagnostics as the rate so far foretells for all of them, once:
    /// doubling the array again and again would hold both copies each time,
    /// and leave it up to twice as large as needed.
    private mutating func reserveForProblems(seenIn checked: Int, of total: Int) {
        guard diagnostics.count >= 4_096, diagnostics.count == diagnostics.capacity, checked > 0 else { return }
        let foretold = Double(diagnostics.count) / Double(checked) * Double(total) * 1.05
        if foretold > Double(diagnostics.capacity) * 2 { diagnostics.reserveCapacity(Int(foretold)) }
    }

    /// Rule `undeclared-injector`: with an `injectors` list, a binding's custom injector is in it.
    /// `rank` is the injector's place in the order, which holds primary, secondary and every listed
    /// injector: one not in it (`Int.max`) is not listed.
    mutating func checkInjectorIsDeclared(_ binding: Binding, rank: Int) -> Bool {
        guard let listed = manifest.injectors, rank == Int.max else { return true }
        if declaredInjectorSuggestions == nil { declaredInjectorSuggestions = SuggestionIndex(listed.map(\.rawValue)) }
        let suggestion = declaredInjectorSuggestions?.suggestions(for: binding.injector.rawValue, limit: 1).first
        report(diagnostic(
            binding, .undeclaredInjector, "injector '\(MessageText.name(binding.injector.rawValue))' is not listed in 'injectors' "
                + "(\(listed.map { "'\($0)'" }.joined(separator: ", "))); add it there"
                + (suggestion.map { MessageText.didYouMean($0, for: binding.injector.rawValue, lead: ", or did you mean") } ?? ""),
            field: BindingKey.injector.rawValue, suggestion: suggestion))
        return false
    }

    /// Rules `unknown-protocol` and `ambiguous-protocol`: the type a binding's
    /// protocol name means, a module-qualified name first, else a short name
    /// that only one type has.
    mutating func boundType(of binding: Binding, in catalog: CatalogIndex) -> CatalogIndex.TypeID? {
        let name = binding.protocolName
        switch catalog.lookup(name) {
        case .type(let type):
            return type
        case .ambiguous(let matches):
            let names = matches.map { catalog.types[$0].qualified }.sorted()
            report(diagnostic(
                binding, .ambiguousProtocol, "\(binding.typeKey) name '\(MessageText.name(name))' matches \(names.count) types: "
                    + names.joined(separator: ", ") + "; write the module-qualified name",
                field: binding.typeKey.rawValue))
            return nil
        case .unknown:
            break
        }
        let suggestion = catalog.typeSuggestions(for: name, limit: 1).first
        report(diagnostic(
            binding, .unknownProtocol, "no factory in the catalog provides '\(MessageText.name(name))'"
                + (suggestion.map { MessageText.didYouMean($0, for: name) } ?? "; check the spelling, or register a factory for it"),
            field: binding.typeKey.rawValue, suggestion: suggestion))
        return nil
    }

    /// Rule `unknown-factory`: the binding's factory is in the catalog.
    mutating func factoryOffset(
        of binding: Binding, for type: CatalogIndex.TypeID?, in catalog: CatalogIndex
    ) -> Int? {
        if let offset = catalog.factoryOffset(named: binding.factory) {
            // Named, whatever else is wrong with the binding: not unused.
            namedFactories[offset] = true
            return offset
        }
        let providers = type.map { catalog.providers(of: $0) } ?? []
        // Among the type's providers when it has any (an index made for the first of its
        // bindings that needs one), else among every factory.
        let suggestionKey = FactorySuggestionKey(type: providers.isEmpty ? -1 : type ?? -1, name: binding.factory)
        let suggestion: String?
        if let known = factorySuggestions[suggestionKey] {
            suggestion = known
        } else {
            var suggestions = catalog.factoryNameSuggestions
            if let type, !providers.isEmpty {
                if providerSuggestions[type] == nil { providerSuggestions[type] = SuggestionIndex(providers) }
                suggestions = providerSuggestions[type]!
            }
            suggestion = suggestions.suggestions(for: binding.factory, limit: 1).first
            factorySuggestions[suggestionKey] = .some(suggestion)
        }
        var message = "unknown factory '\(binding.displayFactory)' for \(MessageText.name(binding.protocolName))"
        if let suggestion {
            message += MessageText.didYouMean(suggestion, for: binding.factory)
        } else if !providers.isEmpty {
            message += "; factories that provide it: " + providers.map { "'\($0)'" }.joined(separator: ", ")
        }
        if catalog.decoratorOffset(named: binding.factory) != nil {
            message += ". '\(binding.displayFactory)' is a decorator: it wraps what a factory makes, so name it in "
                + "the binding's '\(BindingKey.decorators)' and a factory in '\(BindingKey.factory)'"
        } else if binding.factory.contains("${") {
            // Only parameters are interpolated: the reference is the name, which no catalog has.
            message += ". A factory name is not interpolated: '${...}' is read as part of the name, since only "
                + "'\(BindingKey.parameters)' values are; write the factory's name, and give each environment "
                + "its own manifest (with '\(ManifestKey.extends)') to choose another"
        } else if suggestion == nil, case .description = catalog.source {
            // Not a typo of a known name: perhaps a factory registered since catalog.json was written.
            message += ". Is catalog.json stale? If '\(binding.displayFactory)' was registered since it was written, "
                + CatalogDescription.howToRegenerate("catalog.json").lowercasedFirst
        }
        report(diagnostic(binding, .unknownFactory, message, field: BindingKey.factory.rawValue, suggestion: suggestion))
        return nil
    }

    /// Rule `factory-does-not-provide`: the factory provides the bound type;
    /// the place of that type among the factory's provided types.
    mutating func providedOffset(
        of type: CatalogIndex.TypeID, by factory: Int, for binding: Binding, in catalog: CatalogIndex
    ) -> Int? {
        let provides = catalog.provides(factory)
        if let place = provides.firstIndex(of: type) { return place - provides.startIndex }
        let providers = catalog.providers(of: type)
        report(diagnostic(
            binding, .factoryDoesNotProvide, "factory '\(binding.displayFactory)' does not provide \(catalog.display(type)) "
                + "(it provides \(provides.map(catalog.display).joined(separator: ", ")))"
                + (providers.isEmpty ? "" : "; factories that provide \(catalog.display(type)): "
                    + providers.map { "'\($0)'" }.joined(separator: ", ")),
            field: BindingKey.factory.rawValue, suggestion: providers.first))
        return nil
    }

    /// Rule `weak-value-type`: a weak binding's factory makes a class instance.
    ///
    /// When the catalog cannot tell (a protocol product: Swift has no public
    /// answer for whether an existential is class-bound without a value, see
    /// ``TypeConformance``), a `weak-unchecked` note says so instead of
    /// guessing, and the app checks the factory's value when it makes it.
    ///
    /// A decorated binding keeps what its chain's last link makes: `outermost`
    /// is judged then, and named.
    mutating func checkWeakNeedsAClass(
        _ binding: Binding, lifetime: Lifetime, factory: Int? = nil, outermost: DecoratorLink? = nil,
        in catalog: CatalogIndex
    ) -> Bool {
        guard lifetime == .weak, let maker = outermost?.place ?? factory else { return true }
        let isClass = catalog.factories[maker].productIsClass
        guard isClass != true else { return true }
        let product = catalog.productTypeName(maker)
        let named = outermost.map { "decorator '\(MessageText.name(binding.decorators[$0.offset].name))', the last of "
            + "its chain," } ?? "factory '\(binding.displayFactory)'"
        report(binding.diagnostic(
            isClass == nil ? .weakUnchecked : .weakValueType, isClass == nil
                ? "lifetime 'weak' needs a class instance; whether \(named) makes one "
                    + "(\(product)) is known only from its values, so the app checks its first value when it makes it"
                : "lifetime 'weak' needs a class instance, but \(named) makes \(product), "
                    + "which is not a class (or a class-bound protocol); use 'singleton', 'scoped' or 'transient'",
            field: (binding.lifetime == nil ? BindingKey.factory : .lifetime).rawValue,
            severity: isClass == nil ? .note : .error, fallbackFile: manifest.file))
        return isClass == nil
    }

    /// Rule `invalid-parameters` (see ``ParameterCheck``): the decoded
    /// parameters (a `nil` value when none are taken), or nil after reporting.
    mutating func checkParameters(of binding: Binding, factory: Int, in catalog: CatalogIndex) -> DecodedParameters? {
        // The usual binding: no parameters taken, none given, nothing to check.
        if !catalog.factories[factory].takesParameters, binding.parameterSource == nil { return DecodedParameters(value: nil) }
        // One decoder for the run: making one per binding cost more than most decodes.
        if parameterDecoder == nil { parameterDecoder = catalog.makeParameterDecoder() }
        var check = ParameterCheck(
            binding: binding, factory: factory, catalog: catalog, manifestFile: manifest.file, decoder: parameterDecoder)
        // Moved in and out, not copied, so that adding to it never copies the whole table.
        swap(&check.fieldSuggestions, &fieldSuggestions)
        let value = check.run()
        swap(&check.fieldSuggestions, &fieldSuggestions)
        diagnostics += check.diagnostics
        return check.diagnostics.isEmpty ? DecodedParameters(value: value) : nil
    }

    struct DecodedParameters { let value: (any Sendable)? }

    /// Rule `duplicate-binding`, and the `extends` override: of the bindings
    /// of one type and injector, the one in the shallowest file wins; two in
    /// that file are duplicates. Sets the winners, each with what it
    /// overrides, and those in effect; records the types of broken winners.
    ///
    /// The verdict (duplicates, the bindings in effect) is reached over the
    /// bindings whose type and factory the catalog knows, as if the others
    /// were not written: an unknown or ambiguous protocol's type is a guess,
    /// so it must not make a duplicate nor displace a binding that is right.
    /// The tools' winners are reached over every binding with a factory key,
    /// since they show what the author wrote. The two differ only in a
    /// manifest that has such an error.
    mutating func resolveOverrides() {
        guard anyCollectionElement else { return resolveSingleOverrides(candidates) }
        // Elements follow a rule of their own (see `resolveCollectionOverrides`);
        // each kind is resolved apart, then both are put back in manifest order.
        let bindings = manifest.bindings
        resolveSingleOverrides(candidates.filter { !bindings[$0.index].isCollectionElement })
        let collections = resolveCollectionOverrides(candidates.filter { bindings[$0.index].isCollectionElement })
        // Two runs each in manifest order: the standard library's sort finds the runs and merges them.
        winners = (winners + collections.winners).sorted { $0.index < $1.index }
        effective = (effective + collections.effective).sorted { $0.index < $1.index }
        serving = nil  // its places were in the single bindings alone
    }

    /// The overrides and duplicates of single bindings, over `candidates`.
    private mutating func resolveSingleOverrides(_ candidates: [BindingDescription]) {
        // Usually every binding is the only one of its type and injector:
        // one pass finds that, and nothing is dropped.
        var table = ServingTable(typeCount: typeCount, injectorCount: injectorOrder.count)
        var repeats = false
        var anyBroken = false
        // Type by type (see `GroupedOrder`), each type's record filled while it is in cache; fields read
        // in place, as `enumerated()` copied each description. Whether any repeats is the same in any order.
        let byType = GroupedOrder(count: candidates.count, keyCount: typeCount) { candidates[$0].typeID }
        for offset in byType.places {
            anyBroken = anyBroken || candidates[offset].isBroken
            let type = candidates[offset].typeID
            if !table.add(
                offset, type: type, injector: candidates[offset].injector, rank: candidates[offset].injectorRank,
                bindingsOfType: byType.size(of: type))
            {
                repeats = true
                break
            }
        }
        // The usual manifest: every binding is in effect, and this is the graph
        // check's table. (A binding unknown to the catalog, or with no factory
        // key, is broken: there is none here.)
        if !repeats, !anyBroken {
            serving = table
            winners = candidates
            effective = candidates
            return
        }
        let described = anyWithoutFactory ? candidates.filter { !$0.factory.isEmpty } : candidates
        // Without repeats nothing displaces anything: every binding stands.
        var standing = candidates
        winners = described
        if repeats {
            let known = anyUnknownToCatalog ? candidates.filter(\.isKnownToCatalog) : candidates
            let outcome = applyOverrides(to: known)
            for duplicates in outcome.duplicates { reportDuplicates(duplicates, of: known) }
            standing = outcome.winners
            winners = anyUnknownToCatalog || anyWithoutFactory ? applyOverrides(to: described).winners : outcome.winners
        }
        for winner in standing where winner.isBroken { brokenTypes.insert(winner.typeID) }
        effective = standing.filter { !$0.isBroken }
    }

    /// The `extends` rule over `described`: the winners, each with the
    /// manifest places of what it overrides, and the groups of duplicates.
    private func applyOverrides(to described: [BindingDescription]) -> (winners: [BindingDescription], duplicates: [[Int]]) {
        let groups = OverrideRule.apply(to: overrideKeys(of: described))
        let winners = groups.map { group in
            var kept = described[group.standing[0]]
            kept.overridden = group.replaced.map { described[$0].index }
            return kept
        }
        return (winners, groups.map(\.standing).filter { $0.count > 1 })
    }

    /// What the `extends` rule reads of each of `described`.
    func overrideKeys(of described: [BindingDescription]) -> [OverrideRule.Key] {
        let bindings = manifest.bindings
        return described.map {
            OverrideRule.Key(type: $0.typeID, injector: $0.injector, depth: bindings[$0.index].origin?.depth ?? 0)
        }
    }

    private mutating func reportDuplicates(_ offsets: [Int], of candidates: [BindingDescription]) {
        for offset in offsets {
            let binding = manifest.bindings[candidates[offset].index]
            // At most a few places: a file may repeat one binding thousands of
            // times, and every repeat gets a diagnostic.
            let bindings = manifest.bindings
            // A manifest built in code has no lines: its bindings are named
            // by their place in its list and their factory instead.
            let others = offsets.lazy.filter { $0 != offset }.map { candidates[$0].index }
            let shown = others.prefix(3).map { index in
                bindings[index].origin.map { "line \($0.position().line)" }
                    ?? "bindings[\(index)], factory '\(bindings[index].factory)'"
            }
            let more = offsets.count - 1 - shown.count
            report(diagnostic(
                binding, .duplicateBinding, "\(binding.displayKey) is bound more than once in this file (also at "
                    + shown.joined(separator: ", ") + (more > 0 ? " and \(more) more" : "")
                    + "); keep one binding per protocol and injector"))
        }
    }
}

extension DecodingError {
    /// The keys of the coding path, as JSON Pointer segments.
    var codingPathKeys: [String]? {
        let context: Context
        switch self {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c), .keyNotFound(_, let c): context = c
        @unknown default: return nil
        }
        return context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
    }
}

extension String {
    /// The string with its first letter lower-cased, to continue a sentence.
    var lowercasedFirst: String { prefix(1).lowercased() + dropFirst() }
}

/// The `extends` rule, the one place it is written: of the bindings of one
/// type and injector, those in the shallowest file (the child) stand and
/// replace those of deeper files (its parents). A single binding stands
/// alone: two in that file are duplicates, of which the first stays, and
/// validation reports them. A collection is replaced whole, never merged:
/// every element the child lists stands, in its order, so an environment
/// can drop an element its base lists. `explain` shows what each replaced.
enum OverrideRule {
    /// What the rule reads of a binding.
    struct Key {
        /// The bound type, numbered by the caller.
        let type: Int
        let injector: InjectorName
        /// How deep its file is in the `extends` chain (0 for the file loaded first).
        let depth: Int
    }

    /// The bindings of one type and injector, by place in the keys given.
    struct Group {
        /// Those in the shallowest file, in the order given.
        let standing: [Int]
        /// Those of deeper files, which the standing ones replace: nearest
        /// parent first, then in the order given.
        let replaced: [Int]
    }

    /// Applies the rule: every group, in the order of its first standing binding.
    static func apply(to keys: [Key]) -> [Group] {
        struct Bound: Hashable { let type: Int; let injector: InjectorName }
        var offsetsByBound: [Bound: [Int]] = [:]
        for (offset, key) in keys.enumerated() {
            offsetsByBound[Bound(type: key.type, injector: key.injector), default: []].append(offset)
        }
        var groups: [Group] = []
        groups.reserveCapacity(offsetsByBound.count)
        for offsets in offsetsByBound.values {
            let shallowest = offsets.lazy.map { keys[$0].depth }.min()!
            let replaced = offsets.filter { keys[$0].depth > shallowest }
            groups.append(Group(
                standing: offsets.filter { keys[$0].depth == shallowest },
                replaced: replaced.sorted { (keys[$0].depth, $0) < (keys[$1].depth, $1) }))
        }
        return groups.sorted { $0.standing[0] < $1.standing[0] }
    }
}
