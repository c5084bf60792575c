/// Rule `unbound-entry-point`: every type the app resolves itself, as its
/// catalog declares them, is served from the injector it is requested from,
/// through the fallback order, as resolution would search.
///
/// A type bound only by a broken binding counts as bound: that binding's own
/// problem is the one to fix. An optional entry point may be unbound. The
/// rest of an entry point's graph (its needs, cycles, lifetimes) is checked
/// by the graph rules, which follow every binding in effect.
extension ValidationRun {
    mutating func checkEntryPoints() {
        guard let catalog, !catalog.entryPoints.isEmpty else { return }
        let table = serving ?? servingTable(effective)
        for entry in catalog.entryPoints where !entry.isOptional {
            guard entry.type < typeCount, table.binding(serving: entry.type, from: entry.injector) == nil,
                  !brokenTypes.contains(entry.type) else { continue }
            let name = catalog.display(entry.type)
            // A misspelled binding of it is reported already, with its correction: one mistake, one diagnostic.
            if diagnostics.contains(where: { $0.code == .unknownProtocol && $0.suggestion == name }) { continue }
            let providers = catalog.providers(of: entry.type)
            let requested = entry.injector == .primary ? "" : ", requested from \(entry.injector)"
            // Where the tools run, in the package, a live catalog's `#fileID` is named as its file;
            // in a shipped app there is no such file, and the `#fileID` stays.
            let declared = entry.declaredAt.map(SourceLocations.displayedHere)
            report(manifest.diagnostic(
                .unboundEntryPoint, "\(name) is an entry point of the app (declared at \(declared ?? "its catalog")"
                    + "\(requested)), but no injector binds it (searched \(searched(from: entry.injector))); "
                    + "add a binding for \(name) to this environment's manifest"
                    + (providers.isEmpty ? "" : " (factories that provide it: "
                        + providers.map { "'\($0)'" }.joined(separator: ", ") + ")"),
                at: .bindings, suggestion: providers.first))
        }
    }
}
