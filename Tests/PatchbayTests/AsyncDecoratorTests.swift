// Async decorators and chains around async factories (issue 55): a chain
// with an `async` link, or around an `async` factory, makes its binding
// awaited only, checked as an `async` factory's binding is, live and offline;
// `resolve(awaiting:)` makes it in order, each link where it runs, a
// singleton's once; errors name the decorator; lifecycle sees every link;
// catalog.json records where each decorator runs (format 4) and still reads format 3.
import Foundation
import Testing
@testable import Patchbay

@Suite struct AsyncDecoratorTests {
    /// ``DecoratorTests/catalog(counting:)``'s, with `async` and main-actor
    /// factories and decorators, and a factory of each kind that needs `TaggedStore`.
    static func catalog(counting made: Counter = Counter()) -> FactoryCatalog {
        var catalog = DecoratorTests.catalog()
        catalog.register("async-store", provides: (any TaggedStore).self) { () async throws in BaseStore() }
        catalog.register("main-store", provides: (any TaggedStore).self, on: MainActor.self) { BaseStore() }
        catalog.register("async-clock", provides: (any TagClock).self) { () async throws in SomeClock() }
        catalog.registerDecorator("warm", decorates: (any TaggedStore).self) { (inner: any TaggedStore) async throws in
            await Task.yield()
            return Layer(inner, "warm")
        }
        catalog.registerDecorator("warm-counted", decorates: (any TaggedStore).self) {
            (inner: any TaggedStore) async throws in
            made.increment()
            try await Task.sleep(nanoseconds: 20_000_000)  // so that concurrent awaiters find the making under way
            return Layer(inner, "warm-counted")
        }
        catalog.registerDecorator("warm-timed", decorates: (any TaggedStore).self) {
            (inner: any TaggedStore, _: any TagClock) async throws in Layer(inner, "warm-timed")
        }
        catalog.registerDecorator("warm-tagging", decorates: (any TaggedStore).self, parameters: TagOptions.self) {
            (inner: any TaggedStore, options: TagOptions) async throws in Layer(inner, options.tag)
        }
        catalog.registerDecorator("warm-failing", decorates: (any TaggedStore).self) {
            (_: any TaggedStore) async throws -> any TaggedStore in throw DecoratorFailure()
        }
        catalog.registerDecorator("on-main", decorates: (any TaggedStore).self, on: MainActor.self) {
            (inner: any TaggedStore) in
            MainActor.assertIsolated()
            return Layer(inner, "on-main")
        }
        catalog.register("store-clock", provides: (any TagClock).self) { (_: any TaggedStore) in SomeClock() }
        catalog.register("main-clock", provides: (any TagClock).self, on: MainActor.self) { (_: any TaggedStore) in
            SomeClock()
        }
        catalog.register("awaiting-clock", provides: (any TagClock).self) { (_: any TaggedStore) async throws in
            SomeClock()
        }
        return catalog
    }

    /// A manifest binding `TaggedStore` to `factory` with `decorators` (JSON), and `more` bindings after it.
    static func manifest(
        _ factory: String, _ decorators: String, lifetime: String = "transient", more: String = ""
    ) -> String {
        """
        {
          "format": 1,
          "environment": "production",
          "bindings": [
            { "protocol": "TaggedStore", "factory": "\(factory)", "lifetime": "\(lifetime)",
              "decorators": \(decorators) }\(more)
          ]
        }
        """
    }

    static func container(_ json: String, catalog: FactoryCatalog = catalog()) throws -> Container {
        try DecoratorTests.container(json, catalog: catalog)
    }

    /// The live catalog's validator, and one of its description read back from catalog.json's bytes.
    static func validators(_ catalog: FactoryCatalog = catalog()) throws -> [ManifestValidator] {
        [ManifestValidator(catalog: catalog),
         ManifestValidator(description: try CatalogDescription(jsonData: catalog.describe().jsonData()))]
    }

    static func identity(_ value: Any) -> ObjectIdentifier { ObjectIdentifier(value as AnyObject) }

    // MARK: - Registration

    /// A synchronous closure still picks a synchronous form, an `async` one
    /// (written so, or awaiting in its body) an `async` form: what each
    /// registers, and what the catalog description says of it.
    @Test func eachClosureRegistersTheFormOfItsType() throws {
        var catalog = FactoryCatalog()
        catalog.registerDecorator("plain", decorates: (any TaggedStore).self) { (inner: any TaggedStore) in
            Layer(inner, "plain")
        }
        catalog.registerDecorator("throwing", decorates: (any TaggedStore).self) { (inner: any TaggedStore) throws in
            Layer(inner, "throwing")
        }
        catalog.registerDecorator("plain-tagging", decorates: (any TaggedStore).self, parameters: TagOptions.self) {
            (inner: any TaggedStore, options: TagOptions) in Layer(inner, options.tag)
        }
        // Closures as apps write them without annotations: still synchronous.
        catalog.registerDecorator("bare", decorates: (any TaggedStore).self) { inner in Layer(inner, "bare") }
        catalog.registerDecorator("same", decorates: (any TaggedStore).self) { $0 }
        catalog.registerDecorator("bare-needs", decorates: (any TaggedStore).self) { (inner, _: any TagClock) in inner }
        catalog.registerDecorator("marked", decorates: (any TaggedStore).self) { (inner: any TaggedStore) async in
            Layer(inner, "marked")
        }
        catalog.registerDecorator("inferred", decorates: (any TaggedStore).self) { (inner: any TaggedStore) in
            await Task.yield()
            return Layer(inner, "inferred")
        }
        catalog.registerDecorator("awaiting-tagging", decorates: (any TaggedStore).self, parameters: TagOptions.self) {
            (inner: any TaggedStore, options: TagOptions) async throws in Layer(inner, options.tag)
        }
        let runs = Dictionary(uniqueKeysWithValues: catalog.decorators.map { ($0.definition.name, $0.definition.execution) })
        #expect(runs == [
            "plain": .synchronous, "throwing": .synchronous, "plain-tagging": .synchronous,
            "bare": .synchronous, "same": .synchronous, "bare-needs": .synchronous,
            "marked": .async, "inferred": .async, "awaiting-tagging": .async,
        ])
        #expect(catalog.decorators.filter { $0.wrapAwaiting != nil }.map(\.definition.name)
            == ["marked", "inferred", "awaiting-tagging"])
        let described = Dictionary(uniqueKeysWithValues: (catalog.describe().decorators ?? []).map { ($0.name, $0.execution) })
        #expect(described["plain"] == .some(nil) && described["marked"] == .async && described["awaiting-tagging"] == .async)
    }

    // MARK: - The engine

    /// Around each kind of factory, with `async`, synchronous, main-actor and
    /// parameterized links mixed: made in the order written, each where it runs.
    @Test(arguments: ["async-store", "base-store", "main-store"], [
        (#"["warm"]"#, ["warm"]),
        (#"["first", "warm", "second"]"#, ["first", "warm", "second"]),
        (#"[{ "decorator": "warm-tagging", "parameters": { "tag": "p" } }, "on-main", "first"]"#, ["p", "on-main", "first"]),
        (#"["on-main", "warm-timed", "timed"]"#, ["on-main", "warm-timed", "timed"]),
        (#"["first", "second"]"#, ["first", "second"]),
    ])
    func anAwaitedChainWrapsInTheOrderWritten(factory: String, chain: (json: String, tags: [String])) async throws {
        let container = try Self.container(Self.manifest(
            factory, chain.json, more: #",{ "protocol": "TagClock", "factory": "some-clock" }"#))
        #expect(try await container.resolve(awaiting: (any TaggedStore).self).tags == ["base"] + chain.tags)
        #expect(container.binding(for: (any TaggedStore).self)?.factory == factory)
    }

    /// A synchronous resolve of an awaited chain throws what it throws for
    /// an `async` factory's binding, naming what must be awaited; once a
    /// singleton's chain is made, it returns it, as for an `async` factory's.
    @Test func aSynchronousResolveIsRefusedAsForAnAsyncFactory() async throws {
        let bare = try Self.container(Self.manifest("async-store", "[]"))
        let expected = try #require(throws: ResolutionError.self) { try bare.resolve((any TaggedStore).self) }
        #expect(expected.reason == .needsAwait)
        let aroundAsync = try Self.container(Self.manifest("async-store", #"["first", "second"]"#))
        let refused = try #require(throws: ResolutionError.self) { try aroundAsync.resolve((any TaggedStore).self) }
        #expect(refused.reason == expected.reason && refused.factory == expected.factory)
        #expect(refused.dependencyPath == expected.dependencyPath && refused.description == expected.description)
        // A synchronous factory with an `async` link: the decorator is what must be awaited.
        let withLink = try Self.container(Self.manifest("base-store", #"["first", "warm"]"#, lifetime: "singleton"))
        let linkRefused = try #require(throws: ResolutionError.self) { try withLink.resolve((any TaggedStore).self) }
        #expect(linkRefused.reason == .needsAwait)
        #expect(linkRefused.description.contains("decorator 'warm' in the chain of TaggedStore is async. Resolve it with "
            + "`try await container.resolve(awaiting:)`"), "\(linkRefused)")
        // `makeSingletons()` leaves it, as it leaves an `async` singleton.
        try withLink.makeSingletons()
        #expect(withLink.madeSingletons(as: (any TaggedStore).self).isEmpty)
        let made = try await withLink.resolve(awaiting: (any TaggedStore).self)
        #expect(Self.identity(try withLink.resolve((any TaggedStore).self)) == Self.identity(made))
    }

    /// A factory that takes a resolve-time argument, in an awaited chain: an
    /// awaited resolve passes none, so it is refused as a synchronous resolve
    /// without one is, and a synchronous one must await.
    @Test func anAwaitedChainAroundAnArgumentFactoryIsRefusedNotMadeWithout() async throws {
        var catalog = Self.catalog()
        catalog.register("labelled-store", provides: (any TaggedStore).self, argument: String.self) { (label: String) in
            Layer(BaseStore(), label)
        }
        let container = try Self.container(Self.manifest("labelled-store", #"["warm"]"#), catalog: catalog)
        await #expect {
            _ = try await container.resolve(awaiting: (any TaggedStore).self)
        } throws: { error in
            let error = error as! ResolutionError
            return error.reason == .argumentMissing && error.factory == "labelled-store"
        }
        let synchronous = try #require(throws: ResolutionError.self) {
            try container.resolve((any TaggedStore).self, argument: "x")
        }
        #expect(synchronous.reason == .needsAwait)
    }

    @Test(arguments: ["async-store", "base-store"])
    func aSingletonChainIsMadeOnceForConcurrentAwaiters(factory: String) async throws {
        let made = Counter()
        let container = try Self.container(
            Self.manifest(factory, #"["first", "warm-counted", "second"]"#, lifetime: "singleton"),
            catalog: Self.catalog(counting: made))
        let identities = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<32 {
                group.addTask { Self.identity(try await container.resolve(awaiting: (any TaggedStore).self)) }
            }
            return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        #expect(identities.count == 1)
        #expect(made.value == 1)
        #expect(try await container.resolve(awaiting: (any TaggedStore).self).tags == ["base", "first", "warm-counted", "second"])
    }

    /// Every lifetime keeps an awaited chain as it keeps a synchronous one:
    /// made as often as the lifetime makes the product (twice per two
    /// awaited requests for transient and graph, each a resolution of its
    /// own; once for the others), in the order written. A weak binding holds
    /// what the last link makes, a class here, while it is held.
    @Test(arguments: Lifetime.allCases, ["async-store", "base-store"])
    func everyLifetimeKeepsAnAwaitedChain(_ lifetime: Lifetime, factory: String) async throws {
        let made = Counter()
        let catalog = Self.catalog(counting: made)
        let json = Self.manifest(factory, #"["first", "warm-counted"]"#, lifetime: lifetime.rawValue)
        for validator in try Self.validators(catalog) { #expect(DecoratorTests.errors(json, by: validator).isEmpty) }
        let container = try Self.container(json, catalog: catalog)
        let (first, second) = try await Scope().run {
            (try await container.resolve(awaiting: (any TaggedStore).self),
             try await container.resolve(awaiting: (any TaggedStore).self))
        }
        #expect(first.tags == ["base", "first", "warm-counted"] && second.tags == first.tags)
        #expect(made.value == ([.transient, .graph].contains(lifetime) ? 2 : 1))
        #expect((Self.identity(first) == Self.identity(second)) == ![.transient, .graph].contains(lifetime))
    }

    /// An `async` link that needs the type it decorates is a loop, as a synchronous one is, live and offline.
    @Test func anAsyncLinkThatNeedsItsTypeIsACycle() throws {
        var catalog = Self.catalog()
        catalog.registerDecorator("warm-looping", decorates: (any TaggedStore).self) {
            (inner: any TaggedStore, _: any TaggedStore) async throws in inner
        }
        for validator in try Self.validators(catalog) {
            let errors = DecoratorTests.errors(Self.manifest("async-store", #"["warm-looping"]"#), by: validator)
            #expect(errors.map(\.code) == [.dependencyCycle], "\(errors)")
        }
    }

    @Test func aTransientChainIsMadeAtEachAwaitedRequest() async throws {
        let made = Counter()
        let container = try Self.container(
            Self.manifest("async-store", #"["warm-counted"]"#), catalog: Self.catalog(counting: made))
        let first = try await container.resolve(awaiting: (any TaggedStore).self)
        let second = try await container.resolve(awaiting: (any TaggedStore).self)
        #expect(made.value == 2)
        #expect(Self.identity(first) != Self.identity(second))
    }

    /// An `async` link's failure, and a synchronous link's in an awaited
    /// chain, name the decorator as the synchronous chain does, with the
    /// path it gives, going on from an awaiting dependant's.
    @Test func anAwaitedChainsFailureNamesTheDecorator() async throws {
        let synchronous = try Self.container(Self.manifest("base-store", #"["first", "failing"]"#))
        let expected = try #require(throws: ResolutionError.self) { try synchronous.resolve((any TaggedStore).self) }
        for (chain, failing) in [(#"["warm", "warm-failing"]"#, "warm-failing"), (#"["warm", "failing"]"#, "failing")] {
            for factory in ["async-store", "base-store"] {
                let container = try Self.container(Self.manifest(
                    factory, chain, more: #",{ "protocol": "TagClock", "factory": "awaiting-clock" }"#))
                await #expect {
                    _ = try await container.resolve(awaiting: (any TaggedStore).self)
                } throws: { error in
                    let error = error as! ResolutionError
                    return error.reason == .factoryFailed && error.factory == failing && error.underlying is DecoratorFailure
                        && error.description.contains("decorator '\(failing)' in the chain of TaggedStore threw")
                        && !error.description.contains("factory '\(failing)'")
                        && error.dependencyPath == expected.dependencyPath
                }
                await #expect {
                    _ = try await container.resolve(awaiting: (any TagClock).self)
                } throws: { error in
                    (error as! ResolutionError).dependencyPath == ["TagClock"] + expected.dependencyPath
                }
            }
        }
    }

    /// A chain's product and each link of a singleton's chain, made awaited,
    /// are listed innermost first and shut down outermost first, whichever
    /// link is `async`.
    @Test func lifecycleSeesEveryLinkOfAnAwaitedChain() async throws {
        let log = ShutdownLog()
        var catalog = DecoratorFindingsTests.catalog(log: log)
        catalog.register("async-both", provides: (any FindingStore).self) { () async throws in FindingBase(log) }
        catalog.registerDecorator("closing-async", decorates: (any FindingStore).self) {
            (inner: any FindingStore) async throws in ClosingLayer(inner, "c", log)
        }
        let container = try DecoratorFindingsTests.container(#"""
            { "protocol": "FindingStore", "factory": "async-both", "lifetime": "singleton",
              "decorators": ["closing-a", "closing-async", "value", "closing-b"] }
            """#, catalog: catalog)
        _ = try await container.resolve(awaiting: (any FindingStore).self)
        let listed = container.madeSingletons(as: (any AsyncShutdown).self).map { String(describing: type(of: $0.instance)) }
        #expect(listed == ["FindingBase", "ClosingLayer", "ClosingLayer", "ClosingLayer"])
        #expect(container.madeSingletons(as: (any FindingStore).self).map(\.instance.tags) == [
            ["base"], ["base", "a"], ["base", "a", "c"], ["base", "a", "c", "value"], ["base", "a", "c", "value", "b"],
        ])
        try await container.shutdown()
        #expect(log.recorded == ["b", "c", "a", "base"])
    }

    // MARK: - The check

    /// What a dependant of each kind may need, by where the chain of what it
    /// needs runs: the live and the offline check give one verdict, the one
    /// the rule of ``FactoryExecution`` gives; what they accept resolves,
    /// and what they refuse fails at resolve for the reason they give.
    @Test(arguments: ["base-store", "main-store", "async-store"], ["[]", #"["first"]"#, #"["on-main"]"#, #"["warm"]"#, #"["on-main", "warm"]"#])
    func everyDependantIsCheckedByWhereTheChainRuns(factory: String, chain: String) async throws {
        let runs: FactoryExecution = factory == "async-store" || chain.contains("warm") ? .async
            : factory == "main-store" || chain.contains("on-main") ? .mainActor : .synchronous
        for (dependant, dependantRuns) in [("store-clock", FactoryExecution.synchronous), ("main-clock", .mainActor),
                                           ("awaiting-clock", .async)] {
            let json = Self.manifest(factory, chain, more: #",{ "protocol": "TagClock", "factory": "\#(dependant)" }"#)
            let verdicts = try Self.validators().map { DecoratorTests.errors(json, by: $0).map(\.code) }
            let expected: [DiagnosticCode] = dependantRuns.canUse(runs, as: .direct) ? []
                : [runs == .async ? .needsAwait : .needsMainActor]
            #expect(verdicts == [expected, expected], "\(dependant) needing \(factory) with \(chain)")
            if expected.isEmpty {
                #expect(try await Self.container(json).resolve(awaiting: (any TagClock).self) is SomeClock)
            } else {
                // What the engine hits: the chain cannot be made where the dependant runs.
                let alone = try Self.container(Self.manifest(factory, chain))
                let reason = await Task.detached { () -> ResolutionError.Reason? in
                    do {
                        _ = try alone.resolve((any TaggedStore).self)
                        return nil
                    } catch {
                        return (error as? ResolutionError)?.reason
                    }
                }.value
                #expect(reason?.rawValue == expected.first?.rawValue, "\(dependant) needing \(factory) with \(chain)")
            }
        }
    }

    /// The message of a synchronous dependant names the `async` link, and
    /// its fixes; a chain around an `async` factory is no longer refused.
    @Test func aSynchronousDependantOfAnAsyncLinkIsToldWhy() throws {
        let json = Self.manifest("base-store", #"["first", "warm"]"#, more: #",{ "protocol": "TagClock", "factory": "store-clock" }"#)
        for validator in try Self.validators() {
            let errors = DecoratorTests.errors(json, by: validator)
            #expect(errors.map(\.code) == [.needsAwait])
            #expect(errors.first?.message == "factory 'store-clock' for TagClock needs TaggedStore, but its decorator "
                + "'warm' is async and 'store-clock' cannot await it; register 'store-clock' with an async closure "
                + "(taking TaggedStore directly or as an optional), or take decorator 'warm' out of the chain of TaggedStore")
            #expect(DecoratorTests.errors(Self.manifest("async-store", #"["first", "warm"]"#), by: validator).isEmpty)
        }
    }

    /// A decorator's needs are judged by its own kind: a synchronous one
    /// cannot await an `async` binding, and is told it could be `async`;
    /// an `async` one awaits it.
    @Test func aDecoratorsNeedIsJudgedByItsOwnKind() async throws {
        let clock = #",{ "protocol": "TagClock", "factory": "async-clock" }"#
        for validator in try Self.validators() {
            let errors = DecoratorTests.errors(Self.manifest("base-store", #"["timed"]"#, more: clock), by: validator)
            #expect(errors.map(\.code) == [.needsAwait])
            #expect(errors.first?.message == "decorator 'timed' for TaggedStore needs TagClock, but its factory "
                + "'async-clock' is async and 'timed' cannot await it; register 'timed' with an async closure (taking "
                + "TagClock directly or as an optional), or bind TagClock to a synchronous factory")
            #expect(DecoratorTests.errors(Self.manifest("base-store", #"["warm-timed"]"#, more: clock), by: validator).isEmpty)
        }
        let container = try Self.container(Self.manifest("base-store", #"["warm-timed"]"#, more: clock))
        #expect(try await container.resolve(awaiting: (any TaggedStore).self).tags == ["base", "warm-timed"])
    }

    /// A collection's element is still refused a chain, whatever its links.
    @Test func aCollectionsElementIsStillNotDecorated() throws {
        let json = """
            { "format": 1, "environment": "production", "bindings": [
              { "collection": "TaggedStore", "factory": "base-store", "decorators": ["warm"] } ] }
            """
        for validator in try Self.validators() {
            #expect(DecoratorTests.errors(json, by: validator).map(\.code) == [.decoratorNotSupported])
        }
    }

    // MARK: - catalog.json

    /// Format 4 records where each decorator runs, and reads back as written.
    @Test func aDescriptionOfAsyncDecoratorsRoundTrips() throws {
        let described = Self.catalog().describe()
        #expect(described.version == 4)
        let decorators = Dictionary(uniqueKeysWithValues: (described.decorators ?? []).map { ($0.name, $0.execution) })
        #expect(decorators["warm"] == .async && decorators["on-main"] == .mainActor && decorators["first"] == .some(nil))
        let data = try described.jsonData()
        #expect(String(decoding: data, as: UTF8.self).contains(#""version" : 4"#))
        #expect(try CatalogDescription(jsonData: data) == described)
    }

    /// Format 3, written before `async` decorators, is still read, and
    /// judges as the live catalog does; an `async` decorator in it is a
    /// shape no build that wrote format 3 could write (`wrong-type`), and a
    /// later format is refused whole, as an older build refuses format 4.
    @Test func formatThreeIsStillRead() throws {
        var catalog = DecoratorTests.catalog()
        catalog.register("store-clock", provides: (any TagClock).self) { (_: any TaggedStore) in SomeClock() }
        var old = catalog.describe()
        old.version = 3
        let read = try CatalogDescription(jsonData: old.jsonData())
        #expect(read.version == 3 && read.decorators == old.decorators)
        let json = DecoratorTests.manifest(#"["first", { "decorator": "tagging", "parameters": { "tag": 3 } }]"#)
        let offline = DecoratorTests.errors(json, by: ManifestValidator(description: read))
        #expect(offline.map(\.code) == [.invalidParameters])
        #expect(offline.map(\.code) == DecoratorTests.errors(json, by: ManifestValidator(catalog: catalog)).map(\.code))
        #expect(DecoratorTests.errors(DecoratorTests.manifest(#"["first", "second"]"#), by: ManifestValidator(description: read))
            .isEmpty)

        var withAsync = Self.catalog().describe()
        withAsync.version = 3
        let refused = try #require(throws: ManifestError.self) { try CatalogDescription(jsonData: withAsync.jsonData()) }
        #expect(refused.diagnostics.map(\.code) == [.wrongType, .wrongType, .wrongType, .wrongType, .wrongType])
        #expect(refused.diagnostics.allSatisfy { $0.message.contains("an async decorator is written in format 4") })
        withAsync.version = 5
        let newer = try #require(throws: ManifestError.self) { try CatalogDescription(jsonData: withAsync.jsonData()) }
        #expect(newer.diagnostics.map(\.message) == ["catalog description format 5; this build reads formats 3 and 4 (a "
            + "newer Patchbay wrote it: update this one, or regenerate the description from the app's catalog with "
            + "this build)"])
    }
}
