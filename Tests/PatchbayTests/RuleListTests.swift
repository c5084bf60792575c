import Foundation
import Testing

/// The list of the validator's rules at the top of `ManifestValidator.swift`
/// is where a newcomer starts reading: it must name every code that a rule
/// in `Validation/` reports, so a new rule cannot be left out of it.
struct RuleListTests {
    private let sources = repositoryRoot.appendingPathComponent("Sources/Patchbay")

    private func read(_ path: String) throws -> String {
        try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func everyCodeAValidationRuleReportsIsInTheRuleList() throws {
        // `public static let unknownFactory: Self = "unknown-factory"`
        var spelled: [String: String] = [:]
        for match in try read("Diagnostics/DiagnosticCode.swift").matches(of: Regex(#"static let (\w+): Self = "([a-z-]+)""#)) {
            spelled[String(match.output[1].substring!)] = String(match.output[2].substring!)
        }
        #expect(spelled["unknownFactory"] == "unknown-factory")

        let validator = try read("Validation/ManifestValidator.swift")
        let start = try #require(validator.range(of: "## The rules, in the order they run"))
        let end = try #require(validator.range(of: "public struct ManifestValidator"))
        let list = validator[start.upperBound..<end.lowerBound]

        var reported: Set<String> = []
        let folder = sources.appendingPathComponent("Validation")
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for match in text.matches(of: try Regex(#"\.(\w+)\b"#)) {
                if let code = spelled[String(match.output[1].substring!)] { reported.insert(code) }
            }
        }
        #expect(reported.contains("dependency-cycle"), "the scan found the rules' codes")
        for code in reported.sorted() {
            #expect(list.contains("`\(code)`"), "'\(code)' is reported in Validation/ but missing from the rule list")
        }
    }
}
