// `@MainActor` and `async` factories: where each can be resolved, a
// singleton made once under concurrent first use, errors that name the
// path, and the static rules (`needs-await`, `needs-main-actor`) with one
// verdict from the live catalog and its description.
import Foundation
import Testing
@testable import Patchbay
@testable import PatchbayTools

/// Marks the main dispatch queue, where the main actor runs its jobs (on
/// Linux under `swift test`, a worker thread serves it, not the main thread).
let mainQueueMarker: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()

/// A main-actor view model, as a SwiftUI app writes one.
@MainActor final class FeedModel {
    let source: any Widget
    let madeOnMainQueue: Bool
    init(source: any Widget) {
        self.source = source
        madeOnMainQueue = DispatchQueue.getSpecific(key: mainQueueMarker) == true
    }
}

/// A service that must await to start.
final class TokenStore: Sendable {
    let serial: Int
    init(serial: Int) async {
        await Task.yield()
        self.serial = serial
    }
}

/// An async service that needs another async service, a plain one and an unbound optional one.
final class SessionService: Sendable {
    let store: TokenStore
    let widget: any Widget
    let gadget: (any Gadget)?
    init(store: TokenStore, widget: any Widget, gadget: (any Gadget)?) {
        self.store = store
        self.widget = widget
        self.gadget = gadget
    }
}

/// A synchronous service, for the static rules' dependents.
final class Dashboard: Sendable {}

struct StoreUnavailable: Error {}

/// Lets a factory reach the container it is registered in, as a factory that resolves by hand does.
final class ContainerHolder: @unchecked Sendable {
    var container: Container?
}

struct IsolationTests {
    private func catalog(made: Counter = Counter(), failing: Bool = false) -> FactoryCatalog {
        var catalog = FactoryCatalog()
        catalog.register("part", provides: (any Widget).self) { Part(tag: "plain") }
        catalog.register("feed", provides: FeedModel.self, on: MainActor.self) { (source: any Widget) in
            FeedModel(source: source)
        }
        catalog.register("token-store", provides: TokenStore.self) { () async throws in
            if failing { throw StoreUnavailable() }
            return await TokenStore(serial: made.increment())
        }
        catalog.register("session", provides: SessionService.self) {
            (store: TokenStore, widget: any Widget, gadget: (any Gadget)?) async in
            await Task.yield()
            return SessionService(store: store, widget: widget, gadget: gadget)
        }
        return catalog
    }

    private func container(
        made: Counter = Counter(), failing: Bool = false, store: Lifetime = .singleton
    ) throws -> Container {
        try makeContainer(catalog(made: made, failing: failing), [
            bind("Widget", to: "part"), bind("FeedModel", to: "feed"),
            bind("TokenStore", to: "token-store", store), bind("SessionService", to: "session"),
        ])
    }

    // MARK: Main actor

    @MainActor @Test func aMainActorViewModelWithANonisolatedDependencyResolvesOnTheMainActor() throws {
        _ = mainQueueMarker
        let container = try container()
        let model = try container.resolve(FeedModel.self)
        #expect(model.madeOnMainQueue)
        #expect(model.source.tag == "plain")
    }

    @Test func offTheMainActorAMainActorFactoryIsRefusedNotRunThere() async throws {
        let container = try container()
        _ = mainQueueMarker
        let outcome = await Task.detached { () -> ResolutionError? in
            do {
                _ = try container.resolve(FeedModel.self)
                return nil
            } catch {
                return error as? ResolutionError
            }
        }.value
        let error = try #require(outcome)
        #expect(error.reason == .needsMainActor)
        #expect(error.factory == "feed")
        #expect(error.description.contains("resolve(awaiting:)"))
    }

    @Test func awaitingAMainActorFactoryGoesToTheMainActor() async throws {
        _ = mainQueueMarker
        let container = try container()
        let madeThere = try await Task.detached {
            let model = try await container.resolve(awaiting: FeedModel.self)
            return model.madeOnMainQueue
        }.value
        #expect(madeThere)
    }

    // MARK: Async

    @Test func anAsyncFactoryIsAwaitedWithItsNeeds() async throws {
        let container = try container()
        let session = try await container.resolve(awaiting: SessionService.self)
        #expect(session.widget.tag == "plain")
        #expect(session.gadget == nil)  // unbound optional need
        #expect(session.store.serial == 1)
        // Plain bindings resolve through `await` as they do without it.
        #expect(try await container.resolve(awaiting: (any Widget).self).tag == "plain")
    }

    @Test func anAsyncFactoryAwaitsAnOptionalNeedOfAnAsyncFactory() async throws {
        var catalog = catalog()
        catalog.register("vault", provides: (any Gadget).self) { (store: TokenStore?) async in
            Part(tag: "vault", serial: store?.serial ?? -1)
        }
        let container = try makeContainer(catalog, [
            bind("TokenStore", to: "token-store", .singleton), bind("Gadget", to: "vault"),
        ])
        #expect(try await container.resolve(awaiting: (any Gadget).self).serial == 1)
    }

    @Test func anAsyncSingletonIsMadeOnceUnderAHundredConcurrentFirstResolves() async throws {
        let made = Counter()
        let container = try container(made: made)
        let stores = try await withThrowingTaskGroup(of: TokenStore.self) { group in
            for _ in 0..<100 { group.addTask { try await container.resolve(awaiting: TokenStore.self) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(made.value == 1)
        #expect(stores.count == 100)
        #expect(stores.allSatisfy { $0 === stores[0] })
        // Once made, a synchronous resolve returns it too.
        #expect(try container.resolve(TokenStore.self) === stores[0])
    }

    @Test(.timeLimit(.minutes(1)))
    func anAsyncSingletonAwaitedFromInsideItsOwnMakingIsACycleNotAHang() async throws {
        let holder = ContainerHolder()
        var catalog = FactoryCatalog()
        catalog.register("loop", provides: TokenStore.self, lifetime: .singleton) { () async throws in
            _ = try await holder.container!.resolve(awaiting: TokenStore.self)
            return await TokenStore(serial: 0)
        }
        let container = try makeContainer(catalog, [bind("TokenStore", to: "loop")])
        holder.container = container
        let error = await #expect(throws: ResolutionError.self) {
            try await container.resolve(awaiting: TokenStore.self)
        }
        #expect(error?.reason == .factoryFailed || error?.reason == .dependencyCycle)
        let cycle = (error?.underlying as? ResolutionError) ?? error
        #expect(cycle?.reason == .dependencyCycle)
        holder.container = nil
    }

    @Test func anAsyncTransientIsMadeEachTime() async throws {
        let made = Counter()
        let container = try container(made: made, store: .transient)
        let first = try await container.resolve(awaiting: TokenStore.self)
        let second = try await container.resolve(awaiting: TokenStore.self)
        #expect(first !== second)
        #expect(made.value == 2)
    }

    @Test func anAsyncFactoryNotYetMadeIsRefusedSynchronously() throws {
        let container = try container()
        let error = #expect(throws: ResolutionError.self) { try container.resolve(TokenStore.self) }
        #expect(error?.reason == .needsAwait)
        #expect(error?.factory == "token-store")
    }

    @Test func anAsyncFactoryThatThrowsNamesThePath() async throws {
        let container = try container(failing: true)
        do {
            _ = try await container.resolve(awaiting: SessionService.self)
            Issue.record("expected a failure")
        } catch {
            #expect(error.reason == .factoryFailed)
            #expect(error.factory == "token-store")
            #expect(error.dependencyPath == ["SessionService", "TokenStore"])
            #expect(error.underlying is StoreUnavailable)
        }
        // A failed making is not kept: the next request tries again.
        let error = await #expect(throws: ResolutionError.self) {
            try await container.resolve(awaiting: TokenStore.self)
        }
        #expect(error?.reason == .factoryFailed)
    }

    @Test func anAsyncScopedBindingIsOnePerScope() async throws {
        let made = Counter()
        let container = try container(made: made, store: .scoped)
        let scope = Scope()
        let (first, second) = try await scope.run {
            (try await container.resolve(awaiting: TokenStore.self), try await container.resolve(awaiting: TokenStore.self))
        }
        #expect(first === second)
        let other = try await Scope().run { try await container.resolve(awaiting: TokenStore.self) }
        #expect(other !== first)
        let outside = await #expect(throws: ResolutionError.self) {
            try await container.resolve(awaiting: TokenStore.self)
        }
        #expect(outside?.reason == .noActiveScope)
    }

    @Test func overridesReachAwaitedResolutions() async throws {
        let container = try container()
        let fake = await TokenStore(serial: 99)
        try await container.withOverrides({ $0.override(TokenStore.self, with: fake) }) {
            let store = try await container.resolve(awaiting: TokenStore.self)
            let session = try await container.resolve(awaiting: SessionService.self)
            #expect(store === fake)
            #expect(session.store === fake)
        }
    }

    // MARK: Static rules

    /// A synchronous dashboard that needs the async store, and another that needs the main-actor feed.
    private func misplacedCatalog() -> FactoryCatalog {
        var catalog = catalog()
        catalog.register("dashboard", provides: Dashboard.self) { (_: TokenStore) in Dashboard() }
        catalog.register("feed-dashboard", provides: (any Gadget).self) { (_: FeedModel) in Part() }
        catalog.register("lazy-dashboard", provides: (any Sprocket).self) { (_: Lazy<TokenStore>) async in Part() }
        return catalog
    }

    @Test func aFactoryThatCannotAwaitOrRunOnTheMainActorIsRefusedAtActivation() throws {
        let error = #expect(throws: ManifestError.self) {
            try makeContainer(misplacedCatalog(), [
                bind("Widget", to: "part"), bind("FeedModel", to: "feed"), bind("TokenStore", to: "token-store"),
                bind("Dashboard", to: "dashboard"), bind("Gadget", to: "feed-dashboard"),
                bind("Sprocket", to: "lazy-dashboard"),
            ])
        }
        let codes = error.map(errorCodes) ?? []
        #expect(codes.sorted { $0.rawValue < $1.rawValue } == [.needsAwait, .needsAwait, .needsMainActor])
        let messages = error?.diagnostics.map(\.message) ?? []
        #expect(messages.contains { $0.contains("'dashboard'") && $0.contains("'token-store' is async") })
        #expect(messages.contains { $0.contains("'lazy-dashboard'") && $0.contains("as Lazy") })
        #expect(messages.contains { $0.contains("'feed-dashboard'") && $0.contains("runs on the main actor") })
    }

    @Test func aCollectionElementIsMadeWhereItsDependentRuns() throws {
        var catalog = catalog()
        catalog.register("async-plugin", provides: (any Plugin).self) { () async in NamedPlugin("async") }
        catalog.register("main-plugin", provides: (any Plugin).self, on: MainActor.self) { NamedPlugin("main") }
        catalog.register("plain-plugin", provides: (any Plugin).self) { NamedPlugin("plain") }
        catalog.register("host", provides: PluginHost.self) { (plugins: [any Plugin]) in PluginHost(plugins: plugins) }
        catalog.register("async-host", provides: (any Gadget).self) { (plugins: [any Plugin]) async in
            Part(tag: plugins.map(\.name).joined(separator: ","))
        }
        let error = #expect(throws: ManifestError.self) {
            try makeContainer(catalog, [
                Binding(collection: "Plugin", factory: "async-plugin"),
                Binding(collection: "Plugin", factory: "main-plugin"),
                Binding(collection: "Plugin", factory: "plain-plugin"),
                bind("PluginHost", to: "host"), bind("Gadget", to: "async-host"),
            ])
        }
        // The async element is refused where it is bound, once (no follow-on
        // errors at its takers). The main-actor element is refused for both
        // hosts: the synchronous one may run anywhere, and the async one
        // reads a collection synchronously, off the main actor.
        let codes = (error.map(errorCodes) ?? []).map(\.rawValue).sorted()
        #expect(codes == ["needs-await", "needs-main-actor", "needs-main-actor"])
        let messages = error?.diagnostics.map(\.message) ?? []
        #expect(messages.contains { $0.contains("'async-plugin' for an element of [Plugin] is async") }, "\(messages)")
        #expect(messages.contains { $0.contains("needs [Plugin], whose element 'main-plugin' runs on the main actor") })
        // Plain elements are fine for both.
        let container = try makeContainer(catalog, [
            Binding(collection: "Plugin", factory: "plain-plugin"),
            bind("PluginHost", to: "host"), bind("Gadget", to: "async-host"),
        ])
        #expect(try container.resolve(PluginHost.self).plugins.map(\.name) == ["plain"])
    }

    @Test func anAsyncFactoryIsNeverACollectionElement() throws {
        var catalog = catalog()
        catalog.register("async-plugin", provides: (any Plugin).self) { () async in NamedPlugin("async") }
        let error = #expect(throws: ManifestError.self) {
            try makeContainer(catalog, [Binding(collection: "Plugin", factory: "async-plugin")])
        }
        #expect(error.map(errorCodes) == [.needsAwait])
        #expect(error?.diagnostics.first?.message.contains("a collection's elements are made synchronously") == true)
    }

    @Test func anAwaitedCollectionWithAMainActorElementIsMadeOnTheMainActor() async throws {
        _ = mainQueueMarker
        var catalog = catalog()
        catalog.register("main-plugin", provides: (any Plugin).self, on: MainActor.self) {
            NamedPlugin(DispatchQueue.getSpecific(key: mainQueueMarker) == true ? "main" : "elsewhere")
        }
        catalog.register("plain-plugin", provides: (any Plugin).self) { NamedPlugin("plain") }
        let container = try makeContainer(catalog, [
            Binding(collection: "Plugin", factory: "main-plugin"), Binding(collection: "Plugin", factory: "plain-plugin"),
        ])
        let names = try await Task.detached {
            try await container.resolve(awaiting: [any Plugin].self).map(\.name)
        }.value
        #expect(names == ["main", "plain"])
    }

    @Test func anAwaitedWeakBindingInsideOverridesIsTheOverrideBlocksOwn() async throws {
        let made = Counter()
        let container = try container(made: made, store: .weak)
        let outside = try await container.resolve(awaiting: TokenStore.self)
        try await container.withOverrides({ _ in }) {
            let inside = try await container.resolve(awaiting: TokenStore.self)
            #expect(inside !== outside)
        }
        _ = outside
    }

    @Test func theOfflineCheckGivesTheSameVerdictFromTheDescription() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("isolation-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("development.json")
        try Data("""
            {
              "format": 1,
              "bindings": [
                { "protocol": "Widget", "factory": "part" },
                { "protocol": "FeedModel", "factory": "feed" },
                { "protocol": "TokenStore", "factory": "token-store", "lifetime": "singleton" },
                { "protocol": "SessionService", "factory": "session" },
                { "protocol": "Dashboard", "factory": "dashboard" },
                { "protocol": "Gadget", "factory": "feed-dashboard" },
                { "protocol": "Sprocket", "factory": "lazy-dashboard" }
              ]
            }
            """.utf8).write(to: file)
        let catalog = misplacedCatalog()
        let (live, described) = try OneVerdictTests.bothChecks(of: [file], catalog: catalog)
        // Each at its binding's factory, sorted as text.
        let expected = [
            "needs-await 10:42 development.json", "needs-await 8:43 development.json",
            "needs-main-actor 9:40 development.json", "no-entry-points 246:1 IsolationTests.swift",
        ]
        #expect(OneVerdictTests.places(live).filter { !$0.hasPrefix("unused") } == expected)
        #expect(OneVerdictTests.places(described) == OneVerdictTests.places(live))
        // The description records where each closure runs, and reads back the same.
        let description = catalog.describe()
        let runs = Dictionary(uniqueKeysWithValues: description.factories.map { ($0.name, $0.execution) })
        #expect(runs["feed"] == .mainActor)
        #expect(runs["token-store"] == .async)
        #expect(runs["part"] == .some(nil))
        #expect(try CatalogDescription(jsonData: description.jsonData()) == description)
    }

    @Test func explainShowsWhereAFactoryRuns() throws {
        let description = catalog().describe()
        let manifest = Manifest(bindings: [
            bind("Widget", to: "part"), bind("FeedModel", to: "feed"), bind("TokenStore", to: "token-store"),
        ])
        func runsRow(_ type: String) -> String? {
            ManifestExplainer(manifest: manifest, catalog: description).explain(type).text()
                .split(separator: "\n").first { $0.contains("runs") }.map(String.init)
        }
        #expect(runsRow("FeedModel")?.contains("on the main actor") == true)
        #expect(runsRow("TokenStore")?.contains("async: resolve it with try await") == true)
        #expect(runsRow("Widget") == nil)
    }

    /// The `async` form that needs nothing is inlined into the caller: its
    /// definition still says where the caller registered it, and a product
    /// that is a struct (not a class) comes back whole from its box.
    @Test func theInlinedAsyncFormKeepsItsPlaceAndAStructProduct() async throws {
        var catalog = FactoryCatalog()
        let line = #line + 1
        catalog.register("greeting", provides: (any Greeting).self) { () async in TextGreeting(text: "hello, async") }
        #expect(catalog.definitions.first?.registeredAt == CodeLocation(fileID: #fileID, line: line))
        let container = try makeContainer(catalog, [bind("Greeting", to: "greeting")])
        let greeting = try await container.resolve(awaiting: (any Greeting).self)
        #expect(greeting.text == "hello, async")
        #expect(throws: ResolutionError.self) { try container.resolve((any Greeting).self) }
    }
}
