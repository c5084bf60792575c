import Foundation
import NotesKit
import Testing
@testable import Patchbay

/// A passing check means a running app: the types the app resolves itself
/// (its entry points) must be bound in every environment, and the check, the
/// live check and activation say so with one code at one place.
@Suite struct EntryPointTests {
    /// The example's five needs of NoteService, bound, without NoteService itself.
    static let everythingButNoteService = """
        { "format": 1, "environment": "production", "bindings": [
          { "protocol": "NoteStore", "factory": "in-memory-store" },
          { "protocol": "Clock", "factory": "system-clock" },
          { "protocol": "Logger", "factory": "json-logger" },
          { "protocol": "Mailer", "factory": "outbox-mailer" },
          { "protocol": "IDGenerator", "factory": "uuid-ids" }
        ] }
        """

    /// The same with NoteService bound: a manifest the app runs with.
    static var complete: String {
        everythingButNoteService.replacingOccurrences(
            of: #"{ "protocol": "NoteStore""#,
            with: #"{ "protocol": "NoteService", "factory": "note-service" },"# + "\n  " + #"{ "protocol": "NoteStore""#)
    }

    /// The places of `unbound-entry-point` from the check with the live catalog, with
    /// catalog.json, and from activation of `file`: all three must be equal.
    static func verdicts(_ folder: ManifestFolder, _ file: String, catalog: FactoryCatalog = .notes) throws
        -> (live: [String], offline: [String], activation: [String])
    {
        let (live, described) = try OneVerdictTests.bothChecks(of: [folder.file(file)], catalog: catalog)
        var activation: [String] = []
        do {
            _ = try Container(catalog: catalog, manifestAt: folder.file(file), loader: ManifestLoader(environment: [:]))
        } catch {
            activation = error.diagnostics.map { "\($0.code) \($0.line):\($0.column) \(($0.file as NSString).lastPathComponent)" }
                .sorted()
        }
        func entryPoints(_ places: [String]) -> [String] { places.filter { $0.hasPrefix("unbound-entry-point") } }
        return (entryPoints(OneVerdictTests.places(live)), entryPoints(OneVerdictTests.places(described)),
                entryPoints(activation))
    }

    @Test func anUnboundEntryPointInOneEnvironmentIsOneVerdictEverywhere() throws {
        let folder = try ManifestFolder(["development.json": Self.complete, "production.json": Self.everythingButNoteService])
        // At the value of `bindings`, the list that lacks it.
        let (line, column) = position(of: #""bindings": ["#, in: Self.everythingButNoteService)
        let expected = ["unbound-entry-point \(line):\(column + 12) production.json"]
        let verdicts = try Self.verdicts(folder, "production.json")
        #expect(verdicts.live == expected)
        #expect(verdicts.offline == expected)
        #expect(verdicts.activation == expected)
        #expect(try Self.verdicts(folder, "development.json").activation.isEmpty)
        // The message names the entry point, where it was declared and the injectors searched.
        let report = try ManifestChecker(catalog: .notes).check([folder.url])
        let diagnostic = try #require(report.diagnostics.first { $0.code == .unboundEntryPoint })
        #expect(diagnostic.message.contains("NoteService is an entry point of the app (declared at Sources/NotesKit/NotesCatalog.swift:"))
        #expect(diagnostic.message.contains("searched primary, secondary"))
        #expect(diagnostic.suggestion == "note-service")
        #expect(report.failed())
    }

    @Test func inEveryEnvironmentEachIsReported() throws {
        let folder = try ManifestFolder(["a.json": Self.everythingButNoteService, "b.json": Self.everythingButNoteService])
        let report = try ManifestChecker(description: FactoryCatalog.notes.describe()).check([folder.url])
        #expect(report.diagnostics.filter { $0.code == .unboundEntryPoint }.map { ($0.file as NSString).lastPathComponent }
            == ["a.json", "b.json"])
    }

    @Test func anEmptyManifestIsRefusedNotTrappedOn() throws {
        let empty = #"{ "format": 1, "bindings": [] }"#
        let folder = try ManifestFolder(["production.json": empty])
        let verdicts = try Self.verdicts(folder, "production.json")
        #expect(verdicts.live == ["unbound-entry-point 1:28 production.json"])
        #expect(verdicts.offline == verdicts.live && verdicts.activation == verdicts.live)
    }

    protocol Analytics: Sendable {}
    struct NoAnalytics: Analytics {}
    protocol Screen: Sendable {}
    struct HomeScreen: Screen {}

    static func screens(_ entry: (inout FactoryCatalog) -> Void) -> FactoryCatalog {
        var catalog = FactoryCatalog()
        catalog.register("home", provides: (any Screen).self) { HomeScreen() }
        catalog.register("no-analytics", provides: (any Analytics).self) { NoAnalytics() }
        entry(&catalog)
        return catalog
    }

    @Test func anEntryPointServedOnlyByAFallbackInjectorIsServed() throws {
        let catalog = Self.screens { $0.entryPoint((any Screen).self) }
        let folder = try ManifestFolder(["app.json": """
            { "format": 1, "bindings": [ { "protocol": "Screen", "factory": "home", "injector": "secondary" } ] }
            """])
        let verdicts = try Self.verdicts(folder, "app.json", catalog: catalog)
        #expect(verdicts.live.isEmpty && verdicts.offline.isEmpty && verdicts.activation.isEmpty)
        // Asked from a custom injector not in the order, it searches that injector, then the order.
        let fromCustom = Self.screens { $0.entryPoint((any Screen).self, from: "kiosk") }
        let unbound = try ManifestChecker(catalog: fromCustom).check([folder.url])
        #expect(!unbound.diagnostics.contains { $0.code == .unboundEntryPoint }, "\(unbound.diagnostics)")
    }

    @Test func anOptionalEntryPointMayBeUnbound() throws {
        let catalog = Self.screens {
            $0.entryPoint((any Screen).self)
            $0.entryPoint((any Analytics).self, optional: true)
        }
        let folder = try ManifestFolder(["app.json": #"{ "format": 1, "bindings": [ { "protocol": "Screen", "factory": "home" } ] }"#])
        let verdicts = try Self.verdicts(folder, "app.json", catalog: catalog)
        #expect(verdicts.live.isEmpty && verdicts.offline.isEmpty && verdicts.activation.isEmpty)
        // The description records it as optional.
        #expect(catalog.describe().entryPoints?.map(\.optional) == [nil, true])
    }

    @Test func aCatalogWithoutEntryPointsGetsOneWarningFromCheckOnly() throws {
        let catalog = Self.screens { _ in }
        let folder = try ManifestFolder([
            "a.json": #"{ "format": 1, "bindings": [ { "protocol": "Screen", "factory": "home" } ] }"#,
            "b.json": #"{ "format": 1, "bindings": [ { "protocol": "Analytics", "factory": "no-analytics" } ] }"#,
        ])
        let report = try ManifestChecker(catalog: catalog).check([folder.url])
        #expect(report.diagnostics.filter { $0.code == .noEntryPoints }.count == 1)
        #expect(report.diagnostics.first { $0.code == .noEntryPoints }?.severity == .warning)
        #expect(!report.failed() && report.failed(strict: true))
        // Activation has nothing to say about it.
        let container = try Container(catalog: catalog, manifestAt: folder.file("a.json"))
        #expect(container.warnings.isEmpty)
    }

    @Test func aPartialManifestInATestSkipsTheRuleOnPurpose() throws {
        let clockOnly = Manifest(bindings: [Binding(protocol: "Clock", factory: "system-clock")])
        #expect(throws: ManifestError.self) { try Container(catalog: .notes, manifest: clockOnly) }
        let container = try Container(catalog: FactoryCatalog.notes.ignoringEntryPoints, manifest: clockOnly)
        #expect(container.isBound((any Clock).self))
    }

    @Test func anOldCatalogDescriptionIsOutdatedNotCheckedWithoutTheRule() throws {
        var old = FactoryCatalog.notes.describe()
        old.version = 1
        old.entryPoints = nil
        let folder = try ManifestFolder(["catalog.json": String(decoding: try old.jsonData(), as: UTF8.self)])
        #expect(throws: ManifestError.self) { try ManifestChecker.readCatalog(folder.file("catalog.json")) }
    }

    /// `PATCHBAY_ENV=production notes-example` with NoteService unbound: a
    /// non-zero exit and the diagnostic, where it used to trap on first use.
    @Test func theExampleRefusesToStartWithoutItsEntryPoint() throws {
        let folder = try ManifestFolder(["production.json": Self.everythingButNoteService])
        let result = try runProduct(
            "notes-example", ["--manifests", folder.url.path], environment: ["PATCHBAY_ENV": "production"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("[unbound-entry-point]"), "\(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"))
    }
}

/// `Container.makeSingletons()`: a failed start rather than a failed screen.
@Suite struct MakeSingletonsTests {
    protocol Store: Sendable {}
    final class GoodStore: Store { init() {} }
    struct Broken: Error, CustomStringConvertible { var description: String { "the disk is full" } }
    final class Counter: @unchecked Sendable { var made = 0 }

    static func catalog(_ counter: Counter) -> FactoryCatalog {
        var catalog = FactoryCatalog()
        catalog.register("good", provides: (any Store).self, lifetime: .singleton) { () -> any Store in
            counter.made += 1
            return GoodStore()
        }
        catalog.register("broken", provides: (any Store).self, lifetime: .singleton) { () throws -> any Store in
            throw Broken()
        }
        return catalog
    }

    @Test func everySingletonIsMadeOnceAtStart() throws {
        let counter = Counter()
        let container = try Container(catalog: Self.catalog(counter), manifest: Manifest(bindings: [
            Binding(protocol: "Store", factory: "good"),
        ]))
        try container.makeSingletons()
        #expect(counter.made == 1)
        let first = try container.resolve((any Store).self)
        #expect(counter.made == 1)  // the instance made at start is the one served
        #expect(first as AnyObject === (try container.resolve((any Store).self)) as AnyObject)
    }

    @Test func everyFailureIsReportedAtItsBindingAllAtOnce() throws {
        let text = """
            { "format": 1, "bindings": [
              { "protocol": "Store", "factory": "broken" },
              { "protocol": "Store", "factory": "broken", "injector": "secondary" }
            ] }
            """
        let manifest = try ManifestLoader(environment: [:]).load(data: Data(text.utf8), file: "app.json")
        let container = try Container(catalog: Self.catalog(Counter()), manifest: manifest)  // activation alone cannot know
        do {
            try container.makeSingletons()
            Issue.record("a failing singleton was made")
        } catch {
            #expect(error.diagnostics.map(\.code) == [.singletonFailed, .singletonFailed])
            let first = position(of: #""broken""#, in: text)
            #expect(error.diagnostics.first.map { "\($0.line):\($0.column)" } == "\(first.line):\(first.column)")
            #expect(error.diagnostics.first?.message.contains("the disk is full") == true)
        }
    }
}
