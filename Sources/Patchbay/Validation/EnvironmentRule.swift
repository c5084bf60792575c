/// Rule `environment-not-allowed`: a binding names a factory that may be
/// bound in the manifest's environment (see ``FactoryEnvironments``).
///
/// Judged per binding, in every injector and in every file of an `extends`
/// chain, against ``Manifest/judgedEnvironment`` (see ``JudgedEnvironment``):
/// the environment the file loaded first is loaded as, so a parent is
/// judged as each child that loads it. A binding
/// another file overrides is judged too, as its parameters are: a manifest
/// that names a test double, even one replaced further down, is refused
/// rather than trusted to keep replacing it. The binding is then broken:
/// never in effect, but bound for its dependents, whose needs are not
/// reported again.
extension ValidationRun {
    mutating func checkEnvironmentAllows(
        _ binding: Binding, factory: Int, type: CatalogIndex.TypeID, in catalog: CatalogIndex
    ) -> Bool {
        guard let rule = catalog.environmentRules[factory], let environment = manifest.judgedEnvironment,
            !rule.allows(environment)
        else { return true }
        let name = catalog.display(type)
        let servable = catalog.providers(of: type).filter { provider in
            catalog.factoryOffset(named: provider).map { catalog.environmentRules[$0]?.allows(environment) ?? true }
                ?? false
        }
        let place = catalog.registeredAt(factory).map { ", registered at \($0)" } ?? ""
        let shownEnvironment = "'\(environment)'"
        let allowedList = rule.whereAllowed("bound", none: "it is limited to no environment, so no manifest may bind it")
        let alternatives = servable.isEmpty
            ? "no factory that provides \(name) may be bound in \(shownEnvironment)"
            : "factories that may serve \(name) in \(shownEnvironment): " + servable.map { "'\($0)'" }.joined(separator: ", ")
        report(diagnostic(
            binding, .environmentNotAllowed,
            "factory '\(binding.factory)' may not be bound in environment \(shownEnvironment): "
                + allowedList + place + "; \(alternatives). Bind another factory, or, if it is meant to run here, "
                + "add \(shownEnvironment) to its registration's environments",
            field: BindingKey.factory.rawValue, suggestion: servable.first))
        return false
    }
}

/// Rule `environment-label-mismatch`: a manifest's `environment` label names
/// the environment it is judged as (see ``JudgedEnvironment``), or is left out.
///
/// A label never chooses the environment: `production.json` labelled `test`
/// is still judged as `production`, and the label is an error at the label,
/// found without a catalog, so a stale description never softens it. Names
/// compare by ``JudgedEnvironment/same(_:_:)``: `Production`, `production `
/// and a name with a zero-width character inside are other names. A
/// parent's label is not judged (a shared base is each child's); a file
/// loaded alone is judged as its label, so its label disagrees with nothing.
extension ValidationRun {
    mutating func checkEnvironmentLabel() {
        guard let named = manifest.loadedAs, !manifest.environmentIsInherited, let label = manifest.environment,
            !JudgedEnvironment.same(label, named)
        else { return }
        let shownLabel = "'\(MessageText.name(label))'", shownNamed = "'\(MessageText.name(named))'"
        report(manifest.diagnostic(
            .environmentLabelMismatch, "this manifest's 'environment' says \(shownLabel), but it is loaded, and judged, "
                + "as environment \(shownNamed) (the environment the app names, which loads this file: PATCHBAY_ENV="
                + "\(MessageText.name(named))); a label never chooses the environment, and names compare exactly (case, "
                + "spaces and invisible characters count). Set \"environment\" to \"\(MessageText.name(named))\" or remove "
                + "it; if these bindings are meant for \(shownLabel), move them to that environment's own file",
            at: .environment, suggestion: named))
    }
}
