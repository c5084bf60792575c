// `patchbay check` with a catalog description (catalog.json, on a CI runner
// that never builds the app) and the app's live catalog give one verdict:
// the same codes at the same places, for every manifest of the example, of
// the bad-manifest corpus and of the environment fixtures. The corpus test
// holds the live check to what the app's activation reports.
import Foundation
import NotesKit
import Testing
@testable import Patchbay

@Suite struct OneVerdictTests {
    /// Cases where the description cannot know what the live catalog knows,
    /// each with the reason. The test also checks that each still differs,
    /// so the list cannot outlive its reasons.
    static let descriptionCannotKnow: [String: String] = [
        "invalid-parameters-custom-decoder":
            "FixedClock's init(from:) rejects a date that is not ISO 8601; the description records only that "
            + "iso8601 is a string, so only the app (and a check with the live catalog) sees the bad date",
    ]

    /// The diagnostics' places, `code line:column file`, sorted.
    static func places(_ report: CheckReport) -> [String] {
        report.diagnostics.map { "\($0.code) \($0.line):\($0.column) \(($0.file as NSString).lastPathComponent)" }.sorted()
    }

    /// Checks `paths` with the live catalog and with its description; both reports.
    static func bothChecks(
        of paths: [URL], catalog: FactoryCatalog, environment: [String: String] = [:],
        loader: ManifestLoader = ManifestLoader(), requiresEnvironment: Bool = true
    ) throws -> (live: CheckReport, described: CheckReport) {
        var loader = loader  // its limits; the variables are `environment`
        loader.environment = environment
        let live = try ManifestChecker(catalog: catalog, loader: loader, requiresEnvironment: requiresEnvironment)
            .check(paths)
        let described = try ManifestChecker(
            description: catalog.describe(), loader: loader, requiresEnvironment: requiresEnvironment
        ).check(paths)
        return (live, described)
    }

    @Test(arguments: BadManifestCorpus.cases.filter { $0.catalog != .none })
    func everyCorpusCaseGetsOneVerdict(_ testCase: BadManifestCase) throws {
        let catalog = try #require(testCase.catalog.catalog)
        let (live, described) = try Self.bothChecks(
            of: [testCase.entry], catalog: catalog, environment: testCase.environment, loader: testCase.loader)
        if let reason = Self.descriptionCannotKnow[testCase.name] {
            #expect(Self.places(live) != Self.places(described), "listed as different, but agrees: \(reason)")
        } else {
            #expect(Self.places(live) == Self.places(described), "live: \(live.diagnostics)\ndescribed: \(described.diagnostics)")
            #expect(live.failed() == described.failed())
        }
    }

    @Test func theExampleManifestsGetOneVerdict() throws {
        let (live, described) = try Self.bothChecks(of: [exampleManifests], catalog: .notes)
        #expect(Self.places(live) == Self.places(described))
        // And the committed catalog.json is the one the live catalog writes.
        let committed = try CatalogDescription(jsonData: Data(contentsOf: exampleManifests.appendingPathComponent("catalog.json")))
        #expect(committed == FactoryCatalog.notes.describe().locatingSources(in: repositoryRoot))
        let discovered = try ManifestChecker(loader: ManifestLoader(environment: [:]), requiresEnvironment: true)
            .check([exampleManifests])
        #expect(Self.places(discovered) == Self.places(live))
    }

    @Test(arguments: EnvironmentFixture.allCases)
    func everyEnvironmentFixtureGetsOneVerdict(_ fixture: EnvironmentFixture) throws {
        let (live, described) = try Self.bothChecks(of: [fixture.folder], catalog: .notes, requiresEnvironment: false)
        #expect(Self.places(live) == Self.places(described))
        #expect(live.requiredVariables == described.requiredVariables)
    }
}
