/// Checks a loaded manifest against a catalog and reports every problem in
/// one pass: names, duplicates, injectors, lifetimes, parameters, and the
/// dependency graph (missing dependencies, cycles, captive dependencies,
/// arguments). Container activation and `patchbay check` both use it.
///
///     let diagnostics = ManifestValidator(catalog: catalog).validate(manifest)
///
/// With a live ``FactoryCatalog`` it also decodes each binding's `parameters`
/// into the factory's real parameter type. With a ``CatalogDescription`` it
/// checks what the description knows. With no catalog it checks what needs
/// none: duplicates and injectors.
public struct ManifestValidator: Sendable {
    let description: CatalogDescription?
    let live: FactoryCatalog?

    /// Validates against a live catalog, decoding parameters with their real types.
    public init(catalog: FactoryCatalog) {
        self.live = catalog
        self.description = catalog.describe(forValidation: true)
    }

    private var catalogIndex: CatalogIndex? { description.map { CatalogIndex($0) } }

    /// Validates against a catalog description, as `patchbay check --catalog` does.
    public init(description: CatalogDescription) {
        self.live = nil
        self.description = description
    }

    /// Validates only what needs no catalog.
    public init() {
        self.live = nil
        self.description = nil
    }

    /// Every problem in the manifest, errors and warnings, in file and position order.
    public func validate(_ manifest: Manifest) -> [Diagnostic] {
        Diagnostic.sortedForDisplay(run(manifest).diagnostics)
    }

    /// The validation result with the compiled bindings, for activation.
    func run(_ manifest: Manifest) -> ValidationResult {
        var validation = ValidationRun(manifest: manifest, catalog: catalogIndex, live: live)
        validation.checkBindings()
        validation.checkGraph()
        validation.checkUnusedFactories()
        return ValidationResult(
            diagnostics: validation.diagnostics, bindings: validation.effective,
            injectorOrder: validation.injectorOrder)
    }
}

/// A binding that passed validation, with everything activation needs.
///
/// A class: validation and activation pass these through several arrays,
/// and a copy of a struct holding a ``Binding`` cost a dozen retains and
/// releases (measured at a tenth of activating 1,000 bindings).
final class ValidatedBinding: Sendable {
    let binding: Binding
    /// The module-qualified name of the bound type (the raw name without a catalog).
    let typeName: String
    /// The factory's place in the catalog description, which for a live
    /// catalog is its place in registration order (-1 without a catalog).
    let factoryOffset: Int
    let lifetime: Lifetime
    let injector: InjectorName
    /// The decoded parameters (live catalog only).
    let parameters: (any Sendable)?

    init(
        binding: Binding, typeName: String, factoryOffset: Int, lifetime: Lifetime, injector: InjectorName,
        parameters: (any Sendable)?
    ) {
        self.binding = binding
        self.typeName = typeName
        self.factoryOffset = factoryOffset
        self.lifetime = lifetime
        self.injector = injector
        self.parameters = parameters
    }
}

/// What validation found and what activation compiles.
struct ValidationResult: Sendable {
    let diagnostics: [Diagnostic]
    /// The bindings in effect after `extends` overrides, in manifest order.
    let bindings: [ValidatedBinding]
    /// The injector fallback order.
    let injectorOrder: [InjectorName]
}

/// The state of one validation pass.
struct ValidationRun {
    let manifest: Manifest
    let catalog: CatalogIndex?
    let live: FactoryCatalog?
    var diagnostics: [Diagnostic] = []
    var effective: [ValidatedBinding] = []
    /// The serving table of `effective`, when checking overrides made it.
    var serving: [String: Serving]?
    var injectorOrder: [InjectorName] = []
    /// The `injectors` array as a set, for one lookup per binding.
    var declaredInjectors: Set<InjectorName> = []
    /// Which catalog factories (by place in the description) some binding
    /// names, marked as bindings are checked: no set of names to build.
    var namedFactories: [Bool] = []

    init(manifest: Manifest, catalog: CatalogIndex?, live: FactoryCatalog?) {
        self.manifest = manifest
        self.catalog = catalog
        self.live = live
        self.namedFactories = Array(repeating: false, count: catalog?.factories.count ?? 0)
    }

    mutating func report(_ diagnostic: Diagnostic) { diagnostics.append(diagnostic) }

    // MARK: - Bindings

    mutating func checkBindings() {
        injectorOrder = Self.injectorOrder(of: manifest)
        declaredInjectors = Set(manifest.injectors ?? [])
        var candidates: [ValidatedBinding] = []
        for binding in manifest.bindings {
            if let validated = check(binding) { candidates.append(validated) }
        }
        effective = resolveOverrides(candidates)
    }

    /// primary, secondary, then custom injectors in `injectors` order, else in order of first use.
    static func injectorOrder(of manifest: Manifest) -> [InjectorName] {
        var order: [InjectorName] = [.primary, .secondary]
        var seen = Set(order)  // a manifest may use thousands of injectors: no linear search per name
        let custom = manifest.injectors ?? manifest.bindings.map(\.injector)
        // Most bindings use primary: compared first, not hashed.
        for name in custom where name != .primary && name != .secondary && seen.insert(name).inserted {
            order.append(name)
        }
        return order
    }

    private mutating func check(_ binding: Binding) -> ValidatedBinding? {
        var valid = true
        if let declared = manifest.injectors, binding.injector != .primary, binding.injector != .secondary,
            !declaredInjectors.contains(binding.injector)
        {
            let suggestion = EditDistance.suggestions(for: binding.injector.rawValue, among: declared.map(\.rawValue)).first
            report(binding.diagnostic(
                .undeclaredInjector, "injector '\(binding.injector)' is not listed in 'injectors' "
                    + "(\(declared.map { "'\($0)'" }.joined(separator: ", "))); add it there"
                    + (suggestion.map { ", or did you mean '\($0)'?" } ?? ""),
                field: "injector", suggestion: suggestion, fallbackFile: manifest.file))
            valid = false
        }
        guard let catalog else {
            return valid ? ValidatedBinding(
                binding: binding, typeName: binding.protocolName, factoryOffset: -1,
                lifetime: binding.lifetime ?? .transient,
                injector: binding.injector, parameters: nil) : nil
        }
        let typeName = resolveType(binding, in: catalog)
        guard let offset = resolveFactory(binding, type: typeName, in: catalog) else { return nil }
        guard let typeName else { return nil }
        // Fields read in place: a copy of the factory costs a retain and a release of each of them.
        let lifetime = binding.lifetime ?? catalog.factories[offset].defaultLifetime ?? .transient
        if lifetime == .weak, !catalog.factories[offset].productIsClass {
            let factory = catalog.factories[offset]
            report(binding.diagnostic(
                .weakValueType, "lifetime 'weak' needs a class instance, but factory '\(factory.name)' makes "
                    + "\(catalog.display(factory.productType)), which is not a class (or a class-bound protocol); "
                    + "use 'singleton', 'scoped' or 'transient'",
                field: binding.lifetime == nil ? "factory" : "lifetime", fallbackFile: manifest.file))
            valid = false
        }
        let parameters = checkParameters(binding, factoryAt: offset, in: catalog)
        guard valid, let parameters else { return nil }
        return ValidatedBinding(
            binding: binding, typeName: typeName, factoryOffset: offset, lifetime: lifetime,
            injector: binding.injector, parameters: parameters.value)
    }

    /// The qualified type a binding's protocol name means, or a diagnostic.
    private mutating func resolveType(_ binding: Binding, in catalog: CatalogIndex) -> String? {
        let name = binding.protocolName
        if catalog.isType(name) { return name }
        if let only = catalog.onlyType(named: name) { return only }
        let matches = catalog.types(named: name)
        if matches.count > 1 {
            report(binding.diagnostic(
                .ambiguousProtocol, "protocol name '\(name)' matches \(matches.count) types: "
                    + matches.joined(separator: ", ") + "; write the module-qualified name",
                field: "protocol", fallbackFile: manifest.file))
            return nil
        }
        let suggestion = EditDistance.suggestions(for: name, among: catalog.providedShortNames).first
        report(binding.diagnostic(
            .unknownProtocol, "no factory in the catalog provides '\(name)'"
                + (suggestion.map { "; did you mean '\($0)'?" } ?? "; check the spelling, or register a factory for it"),
            field: "protocol", suggestion: suggestion, fallbackFile: manifest.file))
        return nil
    }

    /// The place of the binding's factory in the catalog, or a diagnostic.
    private mutating func resolveFactory(_ binding: Binding, type: String?, in catalog: CatalogIndex) -> Int? {
        // For messages only: looked up when one is made.
        var providers: [String] { type.flatMap { catalog.providers(of: $0) } ?? [] }
        guard let offset = catalog.factoryOffset(named: binding.factory) else {
            let pool = providers.isEmpty ? catalog.factoryNames : providers
            let suggestion = EditDistance.suggestions(for: binding.factory, among: pool).first
            var message = "unknown factory '\(binding.factory)' for \(binding.protocolName)"
            if let suggestion {
                message += "; did you mean '\(suggestion)'?"
            } else if !providers.isEmpty {
                message += "; factories that provide it: " + providers.map { "'\($0)'" }.joined(separator: ", ")
            }
            report(binding.diagnostic(
                .unknownFactory, message, field: "factory", suggestion: suggestion, fallbackFile: manifest.file))
            return nil
        }
        // Named, whatever else is wrong with the binding: not unused.
        namedFactories[offset] = true
        if let type, !catalog.factories[offset].provides.contains(type) {
            let factory = catalog.factories[offset]
            report(binding.diagnostic(
                .factoryDoesNotProvide, "factory '\(factory.name)' does not provide \(catalog.display(type)) "
                    + "(it provides \(factory.provides.map(catalog.display).joined(separator: ", ")))"
                    + (providers.isEmpty ? "" : "; factories that provide \(catalog.display(type)): "
                        + providers.map { "'\($0)'" }.joined(separator: ", ")),
                field: "factory", suggestion: providers.first, fallbackFile: manifest.file))
            return nil
        }
        return offset
    }

    /// The decoded parameters (`.some(nil)` when there are none), or `nil` after a diagnostic.
    private mutating func checkParameters(
        _ binding: Binding, factoryAt offset: Int, in catalog: CatalogIndex
    ) -> DecodedParameters? {
        guard catalog.factories[offset].parameters != nil else {
            guard let parameters = binding.parameters else { return DecodedParameters(value: nil) }
            let factory = catalog.factories[offset]
            let given = parameters.objectValue ?? [:]
            if parameters.objectValue == nil {
                report(binding.diagnostic(
                    .invalidParameters, "factory '\(factory.name)' takes no parameters, and 'parameters' must be "
                        + "an object anyway; found \(parameters.kindDescription); remove 'parameters'",
                    field: "parameters", fallbackFile: manifest.file))
                return nil
            }
            if !given.isEmpty {
                report(binding.diagnostic(
                    .invalidParameters, "factory '\(factory.name)' takes no parameters, but the binding gives "
                        + given.keys.sorted().map { "'\($0)'" }.joined(separator: ", ") + "; remove 'parameters'",
                    field: "parameters", fallbackFile: manifest.file))
                return nil
            }
            return DecodedParameters(value: nil)
        }
        let factory = catalog.factories[offset]
        // A live catalog is described for validation in registration order: its offsets are the same.
        guard let spec = live?.definitions[offset].parameters else {
            return DecodedParameters(value: nil)
        }
        do {
            return DecodedParameters(value: try spec.decode(binding.parameters ?? .object([:])))
        } catch {
            let detail = (error as? DecodingError)?.readableDescription ?? "\(error)"
            var field = "parameters"
            if let error = error as? DecodingError, let keys = error.codingPathKeys, !keys.isEmpty {
                field += "/" + keys.map(JSONPositionIndex.escape).joined(separator: "/")
            }
            report(binding.diagnostic(
                .invalidParameters, "parameters of \(binding.displayKey) do not fit factory '\(factory.name)' "
                    + "(\(spec.typeName)): \(detail)", field: field, fallbackFile: manifest.file))
            return nil
        }
    }

    struct DecodedParameters { let value: (any Sendable)? }

    /// Drops parent bindings replaced by a child's, and reports duplicates within one file.
    private mutating func resolveOverrides(_ candidates: [ValidatedBinding]) -> [ValidatedBinding] {
        struct Key: Hashable { let type: String; let injector: InjectorName }
        // Usually every binding is the only one of its type and injector: one
        // pass with no per-key arrays finds that, nothing is dropped, and the
        // pass's table serves the graph check.
        if let table = servingTableIfUnique(candidates) {
            serving = table
            return candidates
        }
        var groups: [Key: [Int]] = [:]
        for (offset, candidate) in candidates.enumerated() {
            groups[Key(type: candidate.typeName, injector: candidate.injector), default: []].append(offset)
        }
        var keep = Set<Int>()
        for offsets in groups.values {
            let depths = offsets.map { candidates[$0].binding.origin?.depth ?? 0 }
            let winningDepth = depths.min()!
            let winners = offsets.filter { (candidates[$0].binding.origin?.depth ?? 0) == winningDepth }
            if winners.count > 1 {
                for offset in winners {
                    let binding = candidates[offset].binding
                    // At most a few places: a file may repeat one binding thousands of
                    // times, and every repeat gets a diagnostic.
                    let others = winners.lazy.filter { $0 != offset }.compactMap { candidates[$0].binding.origin }
                    let shown = others.prefix(3).map { "line \($0.position().line)" }
                    let more = winners.count - 1 - shown.count
                    report(binding.diagnostic(
                        .duplicateBinding, "\(binding.displayKey) is bound more than once in this file (also at "
                            + shown.joined(separator: ", ") + (more > 0 ? " and \(more) more" : "")
                            + "); keep one binding per protocol and injector",
                        fallbackFile: manifest.file))
                }
            }
            keep.insert(winners[0])
        }
        return candidates.indices.filter(keep.contains).map { candidates[$0] }
    }
}

extension DecodingError {
    /// The keys of the coding path, as JSON Pointer segments.
    var codingPathKeys: [String]? {
        let context: Context
        switch self {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c): context = c
        case .keyNotFound(_, let c): context = c
        @unknown default: return nil
        }
        return context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
    }
}
