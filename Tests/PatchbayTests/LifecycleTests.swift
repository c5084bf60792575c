// The lifecycle of made singletons: `madeSingletons(as:)` lists them in
// order of making, `shutdown()` stops the `AsyncShutdown` ones in reverse,
// and `BindingDescription.diagnostic` places an app's own failure at the
// binding that made the instance.
import Foundation
import Testing
@testable import Patchbay

enum Lifecycle {
    protocol Pool: Sendable {}
    protocol Repository: Sendable {}
    protocol Cache: Sendable {}
    /// Something an app runs, as swift-service-lifecycle's `Service` is; no binding names it.
    protocol Runnable: Sendable {}

    /// The names of the instances shut down, in the order they were.
    final class Journal: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [String] = []
        func note(_ entry: String) { lock.withLock { entries.append(entry) } }
        var all: [String] { lock.withLock { entries } }
    }

    struct Refused: Error, CustomStringConvertible { var description: String { "the socket is already closed" } }

    final class Part: Pool, Repository, Cache, Runnable, AsyncShutdown {
        let name: String, journal: Journal, fails: Bool
        init(_ name: String, _ journal: Journal, fails: Bool = false) {
            (self.name, self.journal, self.fails) = (name, journal, fails)
        }
        func shutdown() async throws {
            journal.note(name)
            if fails { throw Refused() }
        }
    }

    /// A singleton with nothing to stop.
    final class Plain: Cache {}

    /// `pool`; `repository`, which needs the pool; `cache`, which needs the
    /// repository; `failing-pool`, whose shutdown throws; `async-pool`, made
    /// by an `async` factory; `plain-cache`, no `AsyncShutdown`; and `shared`,
    /// one product that provides both `Pool` and `Cache`.
    static func catalog(_ journal: Journal) -> FactoryCatalog {
        var catalog = FactoryCatalog()
        catalog.register("pool", provides: (any Pool).self, lifetime: .singleton) { Part("pool", journal) as any Pool }
        catalog.register("failing-pool", provides: (any Pool).self, lifetime: .singleton) {
            Part("failing-pool", journal, fails: true) as any Pool
        }
        catalog.register("async-pool", provides: (any Pool).self, lifetime: .singleton) { () async -> any Pool in
            await Task.yield()
            return Part("async-pool", journal)
        }
        catalog.register("repository", provides: (any Repository).self, lifetime: .singleton) {
            (_: any Pool) -> any Repository in Part("repository", journal)
        }
        catalog.register("cache", provides: (any Cache).self, lifetime: .singleton) {
            (_: any Repository) -> any Cache in Part("cache", journal)
        }
        catalog.register("plain-cache", provides: (any Cache).self, lifetime: .singleton) { Plain() as any Cache }
        catalog.register("shared", product: Part.self, provides: (any Pool).self, (any Cache).self, lifetime: .singleton) {
            Part("shared", journal)
        }
        return catalog
    }

    static func container(_ journal: Journal, _ text: String) throws -> Container {
        let manifest = try ManifestLoader(environment: [:]).load(data: Data(text.utf8), file: "app.json")
        return try Container(catalog: catalog(journal), manifest: manifest)
    }

    static let chain = """
        { "format": 1, "bindings": [
          { "protocol": "Cache", "factory": "cache" },
          { "protocol": "Repository", "factory": "repository" },
          { "protocol": "Pool", "factory": "pool" }
        ] }
        """
}

@Suite struct MadeSingletonsTests {
    typealias L = Lifecycle

    @Test func dependenciesComeBeforeWhatNeedsThem() throws {
        let container = try L.container(L.Journal(), L.chain)
        _ = try container.resolve((any L.Cache).self)  // makes the pool, then the repository, then the cache
        let made = container.madeSingletons(as: L.Part.self)
        #expect(made.map(\.instance.name) == ["pool", "repository", "cache"])
        #expect(made.map { $0.binding?.factory } == ["pool", "repository", "cache"])
    }

    @Test func onlyWhatWasMadeIsListed() throws {
        let container = try L.container(L.Journal(), L.chain)
        #expect(container.madeSingletons(as: L.Part.self).isEmpty)
        _ = try container.resolve((any L.Repository).self)
        #expect(container.madeSingletons(as: L.Part.self).map(\.instance.name) == ["pool", "repository"])
    }

    @Test func aTypeNoBindingNamesFindsTheInstancesThatAreOne() throws {
        let text = """
            { "format": 1, "bindings": [
              { "protocol": "Cache", "factory": "plain-cache" },
              { "protocol": "Pool", "factory": "pool" }
            ] }
            """
        let container = try L.container(L.Journal(), text)
        try container.makeSingletons()
        #expect(container.madeSingletons(as: (any L.Runnable).self).count == 1)  // the pool, not the plain cache
        #expect(container.madeSingletons(as: (any L.Cache).self).count == 2)  // the pool is a Cache too
        #expect(container.madeSingletons(as: Int.self).isEmpty)
    }

    @Test func oneInstanceServingTwoTypesIsListedOnce() throws {
        let text = """
            { "format": 1, "bindings": [
              { "protocol": "Cache", "factory": "shared" },
              { "protocol": "Pool", "factory": "shared" }
            ] }
            """
        let container = try L.container(L.Journal(), text)
        try container.makeSingletons()
        #expect(container.madeSingletons(as: L.Part.self).map(\.instance.name) == ["shared"])
    }

    @Test func collectionElementsAndAsyncSingletonsAreListed() async throws {
        let text = """
            { "format": 1, "bindings": [
              { "protocol": "Pool", "factory": "async-pool" },
              { "collection": "Cache", "factory": "plain-cache", "lifetime": "singleton" },
              { "collection": "Cache", "factory": "shared", "lifetime": "singleton" }
            ] }
            """
        let container = try L.container(L.Journal(), text)
        _ = try container.resolve([any L.Cache].self)
        _ = try await container.resolve(awaiting: (any L.Pool).self)
        #expect(container.madeSingletons(as: L.Part.self).map(\.instance.name) == ["shared", "async-pool"])
        #expect(container.madeSingletons(as: (any L.Cache).self).count == 3)
    }

    @Test func aTransientIsNeverListed() throws {
        let text = """
            { "format": 1, "bindings": [ { "protocol": "Pool", "factory": "pool", "lifetime": "transient" } ] }
            """
        let container = try L.container(L.Journal(), text)
        _ = try container.resolve((any L.Pool).self)
        #expect(container.madeSingletons(as: L.Part.self).isEmpty)
    }
}

@Suite struct ShutdownTests {
    typealias L = Lifecycle

    @Test func shutsDownInReverseOrderOfMaking() async throws {
        let journal = L.Journal()
        let container = try L.container(journal, L.chain)
        _ = try container.resolve((any L.Cache).self)
        try await container.shutdown()
        #expect(journal.all == ["cache", "repository", "pool"])
    }

    @Test func whatWasNeverMadeHasNothingToStop() async throws {
        let journal = L.Journal()
        let container = try L.container(journal, L.chain)
        _ = try container.resolve((any L.Pool).self)
        try await container.shutdown()
        #expect(journal.all == ["pool"])
    }

    @Test func everyOneIsCalledAndEveryFailureReportedAtItsBinding() async throws {
        let text = """
            { "format": 1, "bindings": [
              { "protocol": "Pool", "factory": "failing-pool" },
              { "protocol": "Repository", "factory": "repository" },
              { "protocol": "Cache", "factory": "cache" }
            ] }
            """
        let journal = L.Journal()
        let container = try L.container(journal, text)
        _ = try container.resolve((any L.Cache).self)
        do {
            try await container.shutdown()
            Issue.record("a failing shutdown passed")
        } catch {
            #expect(journal.all == ["cache", "repository", "failing-pool"])  // the failure stopped nothing
            #expect(error.diagnostics.map(\.code) == [.shutdownFailed])
            let place = position(of: #""failing-pool""#, in: text)
            #expect(error.diagnostics.first.map { "\($0.file):\($0.line):\($0.column)" }
                == "app.json:\(place.line):\(place.column)")
            #expect(error.diagnostics.first?.message.contains("the socket is already closed") == true)
            #expect(error.diagnostics.first?.message.contains("'failing-pool'") == true)
        }
    }

    @Test func resetForgetsWithoutShuttingDown() async throws {
        let journal = L.Journal()
        let container = try L.container(journal, L.chain)
        _ = try container.resolve((any L.Pool).self)
        container.reset()
        #expect(journal.all.isEmpty)
        #expect(container.madeSingletons(as: L.Part.self).isEmpty)  // forgotten: not the container's to stop
        try await container.shutdown()
        #expect(journal.all.isEmpty)
    }

    @Test func aSingletonMadeInsideOverridesIsTheBlocksNotTheContainers() async throws {
        let journal = L.Journal()
        let container = try L.container(journal, L.chain)
        let fake = L.Part("fake-cache", journal)
        try await container.withOverrides({ $0.override((any L.Cache).self, with: fake) }) { () async throws in
            _ = try container.resolve((any L.Repository).self)  // the repository and pool of this block
        }
        try await container.shutdown()
        #expect(journal.all.isEmpty)
    }
}

@Suite struct BindingDiagnosticTests {
    @Test func anAppsOwnFailureIsPlacedAtTheBindingsFactory() throws {
        let text = """
            { "format": 1, "bindings": [
              { "protocol": "Cache", "factory": "plain-cache" },
              { "protocol": "Pool",
                "factory": "pool" }
            ] }
            """
        let container = try Lifecycle.container(Lifecycle.Journal(), text)
        let binding = try #require(container.binding(for: (any Lifecycle.Pool).self))
        let diagnostic = binding.diagnostic(.startUpFailed, "could not connect")
        let place = position(of: #""pool""#, in: text)
        #expect(diagnostic.description.hasPrefix("app.json:\(place.line):\(place.column): error: could not connect"))
        #expect(diagnostic.description.hasSuffix("[start-up-failed]"))
    }

    @Test func aBindingMadeInCodeHasNoFileOfItsOwn() throws {
        let container = try Container(
            catalog: Lifecycle.catalog(Lifecycle.Journal()),
            manifest: Manifest(bindings: [Binding(protocol: "Pool", factory: "pool")]))
        let binding = try #require(container.binding(for: (any Lifecycle.Pool).self))
        #expect(binding.diagnostic(.startUpFailed, "x", severity: .warning).description.hasPrefix("<code>:1:1: warning: x"))
    }
}
