/// Rule `environment-not-allowed`: a binding names a factory that may be
/// bound in the manifest's environment (see ``FactoryEnvironments``).
///
/// Judged per binding, in every injector and in every file of an `extends`
/// chain, against ``Manifest/judgedEnvironment``: the environment of the file
/// loaded first, so a parent is judged as each child that loads it. A binding
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
        let allowedList: String
        if let allowed = rule.allowed {
            allowedList = allowed.isEmpty ? "no environment" : "only in " + allowed.map { "'\($0)'" }.joined(separator: ", ")
        } else {
            allowedList = "in every environment except " + rule.excluded.map { "'\($0)'" }.joined(separator: ", ")
        }
        let alternatives = servable.isEmpty
            ? "no factory that provides \(name) may be bound in \(shownEnvironment)"
            : "factories that may serve \(name) in \(shownEnvironment): " + servable.map { "'\($0)'" }.joined(separator: ", ")
        report(diagnostic(
            binding, .environmentNotAllowed,
            "factory '\(binding.factory)' may not be bound in environment \(shownEnvironment): it may be bound "
                + allowedList + place + "; \(alternatives). Bind another factory, or, if it is meant to run here, "
                + "add \(shownEnvironment) to its registration's environments",
            field: BindingKey.factory.rawValue, suggestion: servable.first))
        return false
    }
}
