/// A manifest could not be loaded or activated. Lists every problem found,
/// not only the first.
///
///     do {
///         try container.activate(manifest)
///     } catch let error as ManifestError {
///         for diagnostic in error.diagnostics { print(diagnostic) }
///     }
public struct ManifestError: Error, Sendable, CustomStringConvertible {
    /// Every problem found, errors and warnings, in file and position order.
    public let diagnostics: [Diagnostic]

    /// Creates an error from the diagnostics found.
    public init(diagnostics: [Diagnostic]) {
        self.diagnostics = Diagnostic.sortedForDisplay(diagnostics)
    }

    /// One diagnostic per line, then a summary line ("2 errors, 1 warning").
    public var description: String {
        (diagnostics.map(\.description) + [ManifestError.summary(of: diagnostics)]).joined(separator: "\n")
    }

    /// "2 errors, 1 warning".
    static func summary(of diagnostics: [Diagnostic]) -> String {
        let errors = diagnostics.errors.count, warnings = diagnostics.warnings.count
        return "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
    }
}
