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
    ///
    /// At most the first 200 diagnostics are listed, then one line says how
    /// many more there are; the summary counts them all, and ``diagnostics``
    /// holds every one.
    public var description: String {
        let (shown, more) = Diagnostic.printed(
            diagnostics, limit: Diagnostic.defaultPrintLimit, hint: "ManifestError.diagnostics lists every one")
        return (shown.map(\.description) + (more.map { [$0] } ?? []) + [ManifestError.summary(of: diagnostics)])
            .joined(separator: "\n")
    }

    /// "2 errors, 1 warning", and ", 1 note" when there are notes.
    static func summary(of diagnostics: some Collection<Diagnostic>) -> String {
        // Counted, not filtered into copies: there may be hundreds of thousands.
        let (errors, warnings, notes) = counts(of: diagnostics)
        return "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
            + (notes == 0 ? "" : ", \(notes) note\(notes == 1 ? "" : "s")")
    }

    /// How many errors, warnings and notes there are.
    package static func counts(of diagnostics: some Collection<Diagnostic>) -> (errors: Int, warnings: Int, notes: Int) {
        // Each severity read in place: a filter's closure took a copy of every diagnostic.
        var (errors, notes) = (0, 0)
        for index in diagnostics.indices {
            switch diagnostics[index].severity {
            case .error: errors += 1
            case .note: notes += 1
            default: break
            }
        }
        return (errors, diagnostics.count - errors - notes, notes)
    }
}

extension Diagnostic {
    /// How many diagnostics a printed report lists by default before one line
    /// says how many more there are, as compilers' error limits do: every
    /// problem is still counted and kept, but a manifest with 400,000 of them
    /// must not print 400,000 lines (`patchbay check --max-diagnostics`).
    package static let defaultPrintLimit = 200

    /// The diagnostics to print, at most `limit` of them (all when nil), and
    /// the line that says how many were left out (nil when none was), ending with `hint`.
    package static func printed(
        _ diagnostics: [Diagnostic], limit: Int?, hint: String
    ) -> (shown: ArraySlice<Diagnostic>, more: String?) {
        guard let limit, diagnostics.count > limit else { return (diagnostics[...], nil) }
        let hidden = diagnostics[limit...]
        return (diagnostics[..<limit], "... and \(hidden.count) more not shown (\(ManifestError.summary(of: hidden))); \(hint)")
    }
}
