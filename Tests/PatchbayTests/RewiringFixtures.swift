// The catalog of the rewiring tests (issue 56): a small server's parts,
// each made instance numbered and journaled, so a test can tell a kept
// instance from one made anew and see what was shut down, and when.
import Foundation
import Testing
@testable import Patchbay

enum Rewire {
    protocol Pool: Sendable { var serial: Int { get } }
    protocol Store: Sendable { var serial: Int { get } }
    protocol Log: Sendable { var serial: Int { get } }
    protocol IDs: Sendable { var serial: Int { get } }
    protocol Clock: Sendable { var serial: Int { get } }
    protocol Cache: Sendable { var serial: Int { get } }
    protocol Plugin: Sendable { var serial: Int { get } }
    protocol Registry: Sendable { var serial: Int { get } }
    protocol Ping: Sendable { var serial: Int { get } }
    protocol Pong: Sendable { var serial: Int { get } }
    protocol Feed: Sendable { var serial: Int { get } }

    /// What happened to the parts, in order: "made pool#3", "shutdown pool#3".
    final class Journal: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [String] = []
        private var serial = 0
        /// Parts shut down, by serial; a part used after its shutdown is a failure.
        private var stopped: Set<Int> = []
        private(set) var usedAfterShutdown = 0

        func next(_ name: String) -> Int {
            lock.withLock {
                serial += 1
                entries.append("made \(name)#\(serial)")
                return serial
            }
        }
        func shutDown(_ name: String, _ serial: Int) {
            lock.withLock {
                entries.append("shutdown \(name)#\(serial)")
                stopped.insert(serial)
            }
        }
        func use(_ serial: Int) { lock.withLock { if stopped.contains(serial) { usedAfterShutdown += 1 } } }
        var all: [String] { lock.withLock { entries } }
        var shutdowns: [String] { all.filter { $0.hasPrefix("shutdown") } }
        func shutdowns(of name: String) -> Int { shutdowns.filter { $0.hasPrefix("shutdown \(name)#") }.count }
    }

    struct Refused: Error, CustomStringConvertible { var description: String { "the pool refused to close" } }

    final class Part: Pool, Store, Log, IDs, Clock, Cache, Plugin, Registry, Ping, Pong, Feed, AsyncShutdown {
        let name: String, serial: Int, journal: Journal, fails: Bool
        /// What the part was made with, for tests that look through it.
        let parts: [any Sendable]
        init(_ name: String, _ journal: Journal, fails: Bool = false, _ parts: [any Sendable] = []) {
            (self.name, self.journal, self.fails, self.parts) = (name, journal, fails, parts)
            serial = journal.next(name)
        }
        func shutdown() async throws {
            journal.shutDown(name, serial)
            if fails { throw Refused() }
        }
    }

    struct Size: Decodable, Sendable { var size: Int }
    struct Tag: Decodable, Sendable { var tag: String }

    /// `pool` (parameters `size`, needs a `Log`), `failing-pool`, `store` (needs a `Pool`),
    /// `console-log`, `json-log`, `ids` (`size`), `clock`, `cache` (needs `Clock?`),
    /// `provided-cache` (needs `Provider<Log>`), `plugin-a`, `plugin-b`, `registry`
    /// (needs `[Plugin]`), `ping`/`pong` (each needs the other through `Lazy`),
    /// `feed` (needs `Lazy<Log>`), and the decorator `tagged` of `Store` (`tag`, needs a `Log`).
    static func catalog(_ journal: Journal) -> FactoryCatalog {
        var catalog = FactoryCatalog()
        catalog.register("pool", provides: (any Pool).self, parameters: Size.self, lifetime: .singleton) {
            (_: Size, log: any Log) -> any Pool in Part("pool", journal, [log])
        }
        catalog.register("failing-pool", provides: (any Pool).self, lifetime: .singleton) {
            Part("failing-pool", journal, fails: true) as any Pool
        }
        catalog.register("store", provides: (any Store).self, lifetime: .singleton) {
            (pool: any Pool) -> any Store in Part("store", journal, [pool])
        }
        catalog.register("console-log", provides: (any Log).self, lifetime: .singleton) { Part("console-log", journal) as any Log }
        catalog.register("json-log", provides: (any Log).self, lifetime: .singleton) { Part("json-log", journal) as any Log }
        catalog.register("ids", provides: (any IDs).self, parameters: Size.self, lifetime: .singleton) {
            (_: Size) -> any IDs in Part("ids", journal)
        }
        catalog.register("clock", provides: (any Clock).self, lifetime: .singleton) { Part("clock", journal) as any Clock }
        catalog.register("cache", provides: (any Cache).self, lifetime: .singleton) {
            (clock: (any Clock)?) -> any Cache in Part("cache", journal, [clock])
        }
        catalog.register("provided-cache", provides: (any Cache).self, lifetime: .singleton) {
            (log: Provider<any Log>) -> any Cache in Part("provided-cache", journal, [log])
        }
        catalog.register("plugin-a", provides: (any Plugin).self, lifetime: .singleton) { Part("plugin-a", journal) as any Plugin }
        catalog.register("plugin-b", provides: (any Plugin).self, lifetime: .singleton) { Part("plugin-b", journal) as any Plugin }
        catalog.register("registry", provides: (any Registry).self, lifetime: .singleton) {
            (plugins: [any Plugin]) -> any Registry in Part("registry", journal, plugins)
        }
        catalog.register("ping", provides: (any Ping).self, lifetime: .singleton) {
            (pong: Lazy<any Pong>) -> any Ping in Part("ping", journal, [pong])
        }
        catalog.register("pong", provides: (any Pong).self, lifetime: .singleton) {
            (ping: Lazy<any Ping>) -> any Pong in Part("pong", journal, [ping])
        }
        catalog.register("feed", provides: (any Feed).self, lifetime: .singleton) {
            (log: Lazy<any Log>) -> any Feed in Part("feed", journal, [log])
        }
        catalog.registerDecorator("tagged", decorates: (any Store).self, parameters: Tag.self) {
            (inner: any Store, _: Tag, log: any Log) -> any Store in Part("tagged", journal, [inner, log])
        }
        return catalog
    }

    static func manifest(_ text: String, environment: [String: String] = [:]) throws -> Manifest {
        try ManifestLoader(environment: environment).load(data: Data(text.utf8), file: "app.json")
    }

    /// A manifest of `bindings`, each a JSON object's text.
    static func manifest(_ bindings: [String], environment: [String: String] = [:]) throws -> Manifest {
        try manifest(#"{ "format": 1, "bindings": ["# + bindings.joined(separator: ",\n") + "] }", environment: environment)
    }

    static let pool = #"{ "protocol": "Pool", "factory": "pool", "parameters": { "size": 4 } }"#
    static let store = #"{ "protocol": "Store", "factory": "store" }"#
    static let log = #"{ "protocol": "Log", "factory": "console-log" }"#
    static let ids = #"{ "protocol": "IDs", "factory": "ids", "parameters": { "size": 8 } }"#

    /// The serial of the instance `container` serves for `type`.
    static func serial<T>(_ container: Container, _ type: T.Type) throws -> Int {
        let made = try container.resolve(T.self)
        return (made as! Part).serial
    }

    /// A request holding a lease on `container`'s generation in force until `end()`, as a server's
    /// request does across its awaits: started and holding the lease when this returns.
    struct HeldLease {
        private let release: AsyncStream<Void>.Continuation
        private let request: Task<Void, Never>

        init(on container: Container) async {
            let (entered, release) = (AsyncStream<Void>.makeStream(), AsyncStream<Void>.makeStream())
            request = Task {
                await container.withLease {
                    entered.continuation.yield()
                    for await _ in release.stream { break }
                }
            }
            self.release = release.continuation
            for await _ in entered.stream { break }
        }

        /// Ends the request, and with it the lease.
        func end() async {
            release.yield()
            await request.value
        }
    }
}
