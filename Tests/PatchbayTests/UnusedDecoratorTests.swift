// Rule `unused-decorator` (issue 55): a decorator the catalog registers that
// no binding's chain, in any manifest of a folder, names. Judged as
// `unused-factory` is (ManifestDiagnosticsTests, EnvironmentFixtureTests):
// over a folder only, once, at the registration, a warning, with one verdict
// from the live catalog and from its description.
import Foundation
import Testing
@testable import Patchbay

@Suite struct UnusedDecoratorTests {
    /// Two environments of DecoratorTests' catalog: production names `first`
    /// and `tagging`, test `second` and `recording` (allowed in test only).
    static let environments = [
        "production.json": DecoratorTests.manifest(
            #"["first", { "decorator": "tagging", "parameters": { "tag": "p" } }]"#, environment: "production"),
        "test.json": DecoratorTests.manifest(#"["second", "recording"]"#, environment: "test"),
    ]

    /// The `unused-decorator` warnings of checking `folder` by the live catalog and by its description.
    static func unused(in folder: ManifestFolder, catalog: FactoryCatalog = DecoratorTests.catalog()) throws
        -> (live: [Diagnostic], described: [Diagnostic])
    {
        let description = try CatalogDescription(jsonData: catalog.describe().jsonData())
        let live = try ManifestChecker(catalog: catalog).check([folder.url]).diagnostics
        let described = try ManifestChecker(description: description).check([folder.url]).diagnostics
        return (live.with(.unusedDecorator), described.with(.unusedDecorator))
    }

    static func shown(_ diagnostic: Diagnostic) -> String {
        "\(diagnostic.severity) \(diagnostic.file):\(diagnostic.line):\(diagnostic.column) \(diagnostic.message)"
    }

    @Test func aDecoratorNoChainNamesIsAWarningAtItsRegistration() throws {
        let folder = try ManifestFolder(Self.environments)
        let (live, described) = try Self.unused(in: folder)
        // Every decorator but the four named, once each (the report lists them in the order of their places).
        let names = live.map { String($0.message.split(separator: "'")[1]) }
        #expect(names.sorted() == ["clock-wrapper", "counted", "failing", "looping", "timed"])
        #expect(live.map(\.line) == live.map(\.line).sorted())
        let counted = try #require(live.first { $0.message.contains("'counted'") })
        #expect(counted.message == "decorator 'counted' is not in the 'decorators' of any binding of the 2 manifests in "
            + "\(ManifestLoader.displayPath(for: folder.url)); add it to the chain of a binding in the environment that "
            + "needs it, or remove its registration")
        #expect(counted.severity == .warning)
        #expect(counted.file == "PatchbayTests/DecoratorTests.swift" && counted.line > 1 && counted.column == 1)
        // One verdict: the description gives the same warnings at the same places.
        #expect(described.map(Self.shown) == live.map(Self.shown))
        // The factories keep their own rule: `plugin-store` and `some-clock` are unbound, and named as factories.
        let factories = try ManifestChecker(catalog: DecoratorTests.catalog()).check([folder.url]).diagnostics
            .with(.unusedFactory).map { String($0.message.split(separator: "'")[1]) }
        #expect(factories.sorted() == ["plugin-store", "some-clock"])
    }

    @Test func aDecoratorNamedInOneEnvironmentOnlyIsUsed() throws {
        // Production alone leaves `second` and `recording` unused; the folder of both does not.
        let production = try ManifestFolder(["production.json": Self.environments["production.json"]!])
        let alone = try Self.unused(in: production).live.map { $0.message.split(separator: "'")[1] }
        #expect(alone.contains("second") && alone.contains("recording"))
        #expect(!alone.contains("first") && !alone.contains("tagging"))
        let both = try Self.unused(in: ManifestFolder(Self.environments)).live
        #expect(!both.contains { $0.message.contains("'second'") || $0.message.contains("'recording'") })
    }

    @Test func aDecoratorNamedByABrokenBindingOrChainIsNotAlsoUnused() throws {
        // Each chain has another mistake (a misspelt protocol, a link twice, a decorator of
        // another type, an element decorated); its decorators still count as used.
        let text = """
            {
              "format": 1,
              "environment": "production",
              "bindings": [
                { "protocol": "TaggedStor", "factory": "base-store", "decorators": ["counted"] },
                { "protocol": "TaggedStore", "factory": "base-store", "decorators": ["first", "first", "clock-wrapper", "timed"] },
                { "collection": "TaggedStore", "factory": "plugin-store", "decorators": ["looping"] }
              ]
            }
            """
        let folder = try ManifestFolder(["production.json": text])
        let checked = try ManifestChecker(catalog: DecoratorTests.catalog()).check([folder.url]).diagnostics
        for code in [DiagnosticCode.unknownProtocol, .duplicateDecorator, .decoratorDoesNotDecorate, .decoratorNotSupported] {
            #expect(!checked.with(code).isEmpty, "\(code): \(checked)")
        }
        let (live, described) = try Self.unused(in: folder)
        #expect(live.map { String($0.message.split(separator: "'")[1]) }.sorted() == ["failing", "recording", "second", "tagging"])
        #expect(described.map(Self.shown) == live.map(Self.shown))
    }

    @Test func oneManifestAloneIsNotJudged() throws {
        let folder = try ManifestFolder(Self.environments)
        let file = try ManifestChecker(catalog: DecoratorTests.catalog()).check([folder.file("production.json")])
        #expect(file.diagnostics.with(.unusedDecorator).isEmpty, "\(file.diagnostics)")
        // Nor in the app, which loads one environment.
        let container = try DecoratorTests.container(Self.environments["production.json"]!)
        #expect(container.warnings.with(.unusedDecorator).isEmpty)
    }

    /// A catalog whose only unused entry is the decorator `second`.
    static func smallCatalog() -> FactoryCatalog {
        var catalog = FactoryCatalog()
        catalog.register("base-store", provides: (any TaggedStore).self) { BaseStore() }
        catalog.registerDecorator("first", decorates: (any TaggedStore).self) { (inner: any TaggedStore) in
            Layer(inner, "first")
        }
        catalog.registerDecorator("second", decorates: (any TaggedStore).self) { (inner: any TaggedStore) in
            Layer(inner, "second")
        }
        catalog.entryPoint((any TaggedStore).self)
        return catalog
    }

    @Test func strictFailsOnAnUnusedDecorator() throws {
        let folder = try ManifestFolder(["production.json": DecoratorTests.manifest(#"["first"]"#)])
        let report = try ManifestChecker(catalog: Self.smallCatalog()).check([folder.url])
        #expect(report.diagnostics.map(\.code) == [.unusedDecorator], "\(report.diagnostics)")
        #expect(!report.failed())
        #expect(report.failed(strict: true))
    }

    /// Through the command, with the description committed beside the
    /// manifests as an app does: `check` passes, `check --strict` fails.
    @Test func theCommandReportsItAndStrictFails() throws {
        let description = String(decoding: try Self.smallCatalog().describe().jsonData(), as: UTF8.self)
        let folder = try ManifestFolder([
            "catalog.json": description, "production.json": DecoratorTests.manifest(#"["first"]"#),
        ])
        let plain = try runProduct("patchbay", ["check", "."], in: folder.url)
        #expect(plain.status == 0, "\(plain)")
        let strict = try runProduct("patchbay", ["check", "--strict", "."], in: folder.url)
        #expect(strict.status == 1, "\(strict)")
        let lines = strict.stdout.split(separator: "\n")
        #expect(lines.count == 2, "\(strict)")
        #expect(lines.first?.hasPrefix("PatchbayTests/UnusedDecoratorTests.swift:") == true, "\(strict)")
        #expect(lines.first?.hasSuffix(": warning: decorator 'second' is not in the 'decorators' of any binding of the "
            + "1 manifest in .; add it to the chain of a binding in the environment that needs it, or remove its "
            + "registration [unused-decorator]") == true, "\(strict)")
        #expect(lines.last == "0 errors, 1 warning in 1 manifest")
    }
}
