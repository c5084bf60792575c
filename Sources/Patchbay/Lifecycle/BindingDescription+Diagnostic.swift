extension BindingDescription {
    /// A diagnostic at this binding's `factory` in its manifest, for what the
    /// app finds wrong with what the binding made once it runs: a database
    /// that refuses the password, a service that cannot start. It prints as
    /// the check's diagnostics do, `file:line:column: error: message [code]`,
    /// so a start-up failure points at the line to fix.
    ///
    ///     if let binding = container.binding(for: (any Database).self) {
    ///         print(binding.diagnostic(.startUpFailed, "could not connect: \(error)"))
    ///     }
    ///
    /// A binding made in code, which no file wrote, is placed at line 1 of `"<code>"`.
    public func diagnostic(
        _ code: DiagnosticCode, _ message: String, severity: Diagnostic.Severity = .error
    ) -> Diagnostic {
        binding.diagnostic(code, message, field: BindingKey.factory.rawValue, severity: severity, fallbackFile: "<code>")
    }
}
