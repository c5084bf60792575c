// Shared test fixtures: small protocols and classes to register, a lock-protected
// counter to count factory calls, and helpers that build manifests in code.
import Foundation
@testable import Patchbay

// MARK: - Counting

/// Counts events (usually factory calls) from any thread.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    /// Adds one and returns the new count, which doubles as a serial number.
    @discardableResult
    func increment() -> Int {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return count
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}

/// A lock-protected list, for collecting what many threads or tasks saw.
final class Collected<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var elements: [Element] = []

    func append(_ element: Element) {
        lock.lock()
        defer { lock.unlock() }
        elements.append(element)
    }

    var all: [Element] {
        lock.lock()
        defer { lock.unlock() }
        return elements
    }
}

/// A settable reference, for factories that need something made after the catalog.
final class Box<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value?

    var value: Value? {
        get {
            lock.lock()
            defer { lock.unlock() }
            return stored
        }
        set {
            lock.lock()
            defer { lock.unlock() }
            stored = newValue
        }
    }
}

/// What fixture factories throw when they are meant to fail.
struct FixtureError: Error, Equatable, CustomStringConvertible {
    let message: String
    var description: String { "FixtureError(\(message))" }
}

// MARK: - Tagged parts

/// Class-bound protocols, so identity and weak references can be checked.
protocol Widget: AnyObject, Sendable {
    var tag: String { get }
    var serial: Int { get }
}

protocol Gadget: AnyObject, Sendable {
    var tag: String { get }
    var serial: Int { get }
}

protocol Sprocket: AnyObject, Sendable {
    var tag: String { get }
    var serial: Int { get }
}

/// One product that can serve as any of the part protocols.
final class Part: Widget, Gadget, Sprocket {
    let tag: String
    let serial: Int
    init(tag: String = "", serial: Int = 0) {
        self.tag = tag
        self.serial = serial
    }
}

/// A type no fixture conforms to, for conformance checks.
protocol Unrelated {}

/// A value-type protocol and product.
protocol Greeting: Sendable {
    var text: String { get }
}

struct TextGreeting: Greeting {
    let text: String
}

// MARK: - A small app: SignupService -> UserRepository -> Database

protocol Database: AnyObject, Sendable {
    var label: String { get }
}

final class FakeDatabase: Database {
    let label: String
    let serial: Int
    init(label: String, serial: Int = 0) {
        self.label = label
        self.serial = serial
    }
}

protocol UserRepository: AnyObject, Sendable {
    var label: String { get }
    var database: (any Database)? { get }
}

final class FakeUserRepository: UserRepository {
    let label: String
    let database: (any Database)?
    init(label: String, database: (any Database)?) {
        self.label = label
        self.database = database
    }
}

final class SignupService: Sendable {
    let users: any UserRepository
    init(users: any UserRepository) { self.users = users }
}

// MARK: - A graph: GraphRoot needs GraphLeft and GraphRight, both need GraphLeaf

final class GraphLeaf: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

final class GraphLeft: Sendable {
    let leaf: GraphLeaf
    init(leaf: GraphLeaf) { self.leaf = leaf }
}

final class GraphRight: Sendable {
    let leaf: GraphLeaf
    init(leaf: GraphLeaf) { self.leaf = leaf }
}

final class GraphRoot: Sendable {
    let left: GraphLeft
    let right: GraphRight
    init(left: GraphLeft, right: GraphRight) {
        self.left = left
        self.right = right
    }
}

extension FactoryCatalog {
    /// Registers the graph's four factories ("leaf", "left", "right", "root");
    /// each leaf made counts on `counter`.
    mutating func registerGraph(counting counter: Counter) {
        register("leaf", provides: GraphLeaf.self) { GraphLeaf(serial: counter.increment()) }
        register("left", provides: GraphLeft.self) { (leaf: GraphLeaf) in GraphLeft(leaf: leaf) }
        register("right", provides: GraphRight.self) { (leaf: GraphLeaf) in GraphRight(leaf: leaf) }
        register("root", provides: GraphRoot.self) { (left: GraphLeft, right: GraphRight) in
            GraphRoot(left: left, right: right)
        }
    }
}

// MARK: - A cycle: Chicken <-> Egg

protocol Chicken: AnyObject, Sendable {
    func layEgg() throws -> any Egg
}

protocol Egg: AnyObject, Sendable {
    var chicken: any Chicken { get }
}

/// Takes its egg lazily, which breaks the cycle.
final class LazyHen: Chicken {
    let egg: Lazy<any Egg>
    init(egg: Lazy<any Egg>) { self.egg = egg }
    func layEgg() throws -> any Egg { try egg.get() }
}

/// Takes its egg directly: a static cycle.
final class EagerHen: Chicken {
    let egg: any Egg
    init(egg: any Egg) { self.egg = egg }
    func layEgg() throws -> any Egg { egg }
}

final class ChickenEgg: Egg {
    let chicken: any Chicken
    init(chicken: any Chicken) { self.chicken = chicken }
}

// MARK: - Manifests in code

/// A binding, shorter to write: `bind("Widget", to: "widget", .singleton)`.
func bind(
    _ protocolName: String, to factory: String, _ lifetime: Lifetime? = nil, in injector: InjectorName = .primary,
    parameters: JSONValue? = nil
) -> Binding {
    Binding(protocol: protocolName, factory: factory, lifetime: lifetime, injector: injector, parameters: parameters)
}

/// A manifest built in code (it has no file positions).
func manifest(injectors: [InjectorName]? = nil, _ bindings: [Binding]) -> Manifest {
    Manifest(injectors: injectors, bindings: bindings)
}

/// A container serving a manifest built in code.
func makeContainer(_ catalog: FactoryCatalog, injectors: [InjectorName]? = nil, _ bindings: [Binding]) throws -> Container {
    try Container(catalog: catalog, manifest: manifest(injectors: injectors, bindings))
}

/// The error codes of a ManifestError, errors only.
func errorCodes(_ error: ManifestError) -> [DiagnosticCode] {
    error.diagnostics.errors.map(\.code)
}

// MARK: - Threads

/// Runs `body` on `count` new threads at once (released together), and waits for all of them.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let start = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for index in 0..<count {
        done.enter()
        let thread = Thread {
            start.wait()
            body(index)
            done.leave()
        }
        thread.start()
    }
    for _ in 0..<count { start.signal() }
    done.wait()
}

/// Sleeps a few milliseconds, to widen a race window.
func briefly(milliseconds: UInt32 = 2) {
    usleep(milliseconds * 1000)
}

/// A seeded random-number generator, so that a failure can be replayed.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
