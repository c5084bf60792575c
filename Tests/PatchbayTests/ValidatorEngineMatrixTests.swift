// The validator and the engine judged against each other over a generated
// matrix of shapes: a chain holder -> (middle ->) leaf, each level with a
// lifetime, a resolve-time argument or none, and the injectors binding it,
// each edge a need kind (plain, `T?`, `Lazy<T>`, `[T]`, `Provider<T>`), and
// one level's bindings decorated by a chain of 0 to 3 decorators (issue 55):
// the first needs nothing, a level of the shape (its own type is a cycle)
// or an unbound type, one link may be limited by an environments rule
// that allows or refuses it in the manifest's environment, and (among the
// awaited shapes) one link may be `async`. Every shape the
// validator accepts must be served as checked (each instance records the
// decorators that wrapped it, in order, and what the first one's need
// got); every shape it refuses must be refused, at the bindings (and the
// entries of their chains) the JSON pointers name, for the reasons an
// independent model of the shape predicts (`MatrixShape.expectedRefusals`),
// the same by the check with the live catalog, with its description
// (offline) and at activation, each one a reason the engine would hit
// (`matrixRefusalReasons`), and the engine, run on the refused part alone,
// must fail for it (or, for a link refused here, run it).
//
// The model is written here from the documented rules, not read from the
// validator: the serving rule (the requesting injector's own binding, else
// the first in injector order; needs followed from the injector of the
// binding that has them, a decorator's from its binding's), the argument
// rule (a decorator takes none to pass on), captivity by lifetime (a
// decorator's need against the decorated binding's), awaiting (a binding
// whose factory is `async`, or whose chain is around one or has an `async`
// link, is awaited only; a synchronous factory or decorator that needs it
// is needs-await), one problem once (a binding refused on its own is not in
// effect, and its needs are not judged).
//
// The shapes are generated, not listed: dimensions that interact are
// crossed, the others rotate (`MatrixCases.all`, 1,550 shapes without
// decorators; `MatrixCases.decorated`, 555 with a chain); 555 more are
// awaited, resolved through `resolve(awaiting:)` (`MatrixCases.awaiting`,
// 375 with `async` factories; `awaitingDecorated`, 180 with a chain around
// an `async` factory or with an `async` link).
// About eight seconds of CPU in a debug build, spread over the cores. The
// chains (their dimensions, model, shapes and probes) are in
// ValidatorEngineMatrixChains.swift.
import Foundation
import Testing
@testable import Patchbay

// MARK: - The products: one class per level, recording what its factory got

/// What a node's factory was handed for its need, both parameters of it:
/// each factory takes its need twice, so sharing within one resolve shows.
enum Received: Sendable {
    case nothing
    case plain([MatrixNode])
    case optional([MatrixNode?])
    case lazy([@Sendable () throws -> MatrixNode])
    case collection([[MatrixNode]])
    case provider([@Sendable () throws -> MatrixNode])
}

/// One decorator a node went through: its name, and what its need got
/// (nil when it has none, or an optional one nothing binds).
struct MatrixDecoration: @unchecked Sendable {
    let decorator: String
    let need: MatrixNode?
}

/// A product of the matrix: which factory made it, from which injector's
/// binding, with which argument, and which decorators wrapped it, innermost first.
class MatrixNode: @unchecked Sendable {
    let factory: String
    let injector: InjectorName
    /// `"Int 100"`, `"String s0"`; nil when the factory takes no argument.
    let argument: String?
    let received: Received
    let decorations: [MatrixDecoration]
    required init(
        factory: String, injector: InjectorName, argument: String?, received: Received,
        decorations: [MatrixDecoration] = []
    ) {
        (self.factory, self.injector, self.argument, self.received) = (factory, injector, argument, received)
        self.decorations = decorations
    }

    /// What a decorator returns: a new instance of the same class (a wrapper,
    /// not the instance it wraps), recording the factory's product and every
    /// decorator so far, this one last.
    func decorated(by decorator: String, need: MatrixNode?) -> Self {
        Self(factory: factory, injector: injector, argument: argument, received: received,
            decorations: decorations + [MatrixDecoration(decorator: decorator, need: need)])
    }
}

final class MatrixHolder: MatrixNode, @unchecked Sendable {}
final class MatrixMiddle: MatrixNode, @unchecked Sendable {}
final class MatrixLeaf: MatrixNode, @unchecked Sendable {}
/// A type nothing binds: what a decorator's need of an unbound type asks for.
final class MatrixUnbound: MatrixNode, @unchecked Sendable {}

// MARK: - The shape of one case

/// A resolve-time argument type a factory takes, or none.
enum MatrixArgument: String, Sendable, CaseIterable {
    case none, int = "Int", string = "String"

    /// What a factory taking it records for the resolve numbered `round`.
    func recorded(round: Int) -> String? {
        switch self {
        case .none: nil
        case .int: "Int \(100 + round)"
        case .string: "String s\(round)"
        }
    }
}

/// How a factory takes its need.
enum MatrixNeedKind: String, Sendable, CaseIterable {
    case plain, optional, lazy, collection, provider
}

/// The injectors that bind a level.
enum MatrixPlacement: String, Sendable, CaseIterable {
    case primary, secondary, both, nowhere
    /// Both, and only primary's factory takes the level's argument: the
    /// check must judge the binding the engine will serve, not another.
    case bothSecondaryWithout = "both (secondary's without argument)"

    var injectors: [InjectorName] {
        switch self {
        case .primary: [.primary]
        case .secondary: [.secondary]
        case .both, .bothSecondaryWithout: [.primary, .secondary]  // in injector order
        case .nowhere: []
        }
    }
}

/// Whether a level's factory is synchronous or `async` (one that takes no
/// argument: an `async` factory cannot take one).
enum MatrixExecution: String, Sendable, CaseIterable {
    case sync, async
}

/// One level of the chain: its lifetime, argument and placement.
struct MatrixLevel: Sendable, Hashable {
    let lifetime: Lifetime
    let argument: MatrixArgument
    let placement: MatrixPlacement
    var execution = MatrixExecution.sync
}

/// One generated shape: `levels[0]` is the holder the app resolves (from
/// `request`), `kinds[i]` how level `i` takes level `i + 1`; `chain` the
/// decorators of one level's bindings.
struct MatrixShape: Sendable, CustomTestStringConvertible {
    let levels: [MatrixLevel]
    let kinds: [MatrixNeedKind]
    let request: InjectorName
    var chain = MatrixChain.none

    /// The environment every shape's manifest is judged as.
    static let environment = "test"

    var depth: Int { levels.count }
    var typeNames: [String] {
        depth == 2 ? ["MatrixHolder", "MatrixLeaf"] : ["MatrixHolder", "MatrixMiddle", "MatrixLeaf"]
    }

    /// `singleton MatrixHolder(Int) in primary -plain-> graph MatrixLeaf(Int) in both; resolved from primary`.
    var testDescription: String {
        var text = ""
        for (index, level) in levels.enumerated() {
            if index > 0 { text += " -\(kinds[index - 1].rawValue)-> " }
            let argument = level.argument == .none ? "" : "(\(level.argument.rawValue))"
            let execution = level.execution == .async ? "async " : ""
            text += "\(level.lifetime) \(execution)\(typeNames[index])\(argument) in \(level.placement.rawValue)"
        }
        text += "; resolved from \(request.rawValue)"
        guard chain.length > 0 else { return text }
        text += "; \(typeNames[chain.level]) decorated by \(chain.length), the first needing \(chain.need)"
        if let async = chain.async { text += ", decorator \(async) async" }
        return chain.rule == .none ? text : text + ", decorator \(chain.ruled) \(chain.rule.rawValue)"
    }

    /// The argument level `index`'s factory in `injector` takes.
    func argument(_ index: Int, in injector: InjectorName) -> MatrixArgument {
        levels[index].placement == .bothSecondaryWithout && injector == .secondary ? .none : levels[index].argument
    }

    /// Whether level `index` is bound as elements of its collection (its dependent takes `[T]`).
    func isElements(_ index: Int) -> Bool { index > 0 && kinds[index - 1] == .collection }

    /// The factories of level `index` in `injector`: one, or the collection's two elements.
    func factories(_ index: Int, in injector: InjectorName) -> [String] {
        let base = "\(typeNames[index])-\(injector.rawValue)"
        return isElements(index) ? [base + "-0", base + "-1"] : [base]
    }

    /// The injector whose binding (or list) of level `index` serves a request
    /// from `injector`: its own, else the first in injector order; nil when
    /// none binds it. A binding refused on its own (see ``isBroken(_:in:)``) is not in effect.
    func serving(_ index: Int, from injector: InjectorName) -> InjectorName? {
        let placed = levels[index].placement.injectors.filter { !isBroken(index, in: $0) && !chainIsRefused(index) }
        return placed.contains(injector) ? injector : placed.first
    }

    /// Whether a need of level `index` that nothing serves is reported
    /// missing: not when bindings of the type exist but are each refused on
    /// their own (their refusal is the one problem to fix), nor when the
    /// level is bound as a collection's elements, which do not bind the type
    /// itself (a direct need of it is then missing).
    func missingIsReported(_ index: Int) -> Bool {
        isElements(index) || levels[index].placement == .nowhere || !chainIsRefused(index)
    }

    /// Whether level `index`'s bindings in `injector` are refused on their
    /// own: elements whose factory takes an argument, or is `async` (a
    /// collection is made whole, synchronously). Such a binding is not in
    /// effect, so its needs are not followed, and its collection lacks it.
    func isBroken(_ index: Int, in injector: InjectorName) -> Bool {
        isElements(index) && (argument(index, in: injector) != .none || levels[index].execution == .async)
    }
}

// MARK: - What the model predicts

/// Why the engine would fail (or serve wrongly) each shape the validator
/// refuses: a refusal code outside this table is a refusal the engine has no
/// reason for, and fails the matrix.
let matrixRefusalReasons: [DiagnosticCode: String] = [
    .argumentRequired: "the need's factory takes an argument and its dependent has none of that type to pass on: "
        + "the engine would throw argument-missing (no argument) or argument-mismatch (another type)",
    .collectionElementTakesArgument: "a collection is made whole, with no argument: each element's factory would "
        + "throw argument-missing",
    .missingDependency: "no injector searched binds the direct or Lazy need: the engine would throw not-bound "
        + "(at once, or at get())",
    .needsAwait: "the need is awaited only (an async factory, or a chain with an async link or around an async "
        + "factory) and is needed where nothing awaits it (by a synchronous factory or decorator, as a Lazy, or as an "
        + "element): the engine would throw needs-await",
    .captiveDependency: "the engine would keep the dependency inside its longer-lived holder past its own lifetime "
        + "(a singleton keeping one scope's or one graph's instance for every later resolve; a decorator's need "
        + "lives as long as the chain, which lives as long as the decorated binding)",
    .dependencyCycle: "a decorator needs the type it decorates: its binding is on the resolution path while its "
        + "chain is made, so the engine would throw dependency-cycle",
    .environmentNotAllowed: "the engine does not judge environments: it would run, here, a decorator whose "
        + "registration says it must not run here (a recorder of a test environment in production)",
]

/// A refusal the model predicts: its code, the factory of the binding it is
/// reported at, and the entry of the binding's `decorators` it points at (nil: the binding's own).
struct MatrixRefusal: Hashable, Sendable, CustomStringConvertible {
    let code: DiagnosticCode
    let owner: String
    var link: Int? = nil
    var description: String { "\(code) at '\(owner)'" + (link.map { " decorators[\($0)]" } ?? "") }
}

/// Captivity by lifetime, written from the lifetime table: an instance that
/// lives longer may not keep one that lives shorter; anything may keep a transient.
func matrixCaptures(_ holder: Lifetime, _ dependency: Lifetime) -> Bool {
    let rank: [Lifetime: Int] = [.singleton: 4, .weak: 3, .scoped: 2, .graph: 1]
    guard let mine = rank[holder], let theirs = rank[dependency] else { return false }
    return theirs < mine
}

extension MatrixShape {
    /// Every refusal of this shape, from every binding in effect (reachable
    /// from the holder or not), each need followed from its binding's injector.
    var expectedRefusals: Set<MatrixRefusal> {
        var refusals: Set<MatrixRefusal> = []
        for index in levels.indices {
            let level = levels[index]
            for injector in level.placement.injectors {
                let owners = factories(index, in: injector)
                if isBroken(index, in: injector) {
                    let code: DiagnosticCode = level.execution == .async ? .needsAwait : .collectionElementTakesArgument
                    for owner in owners { refusals.insert(MatrixRefusal(code: code, owner: owner)) }
                    continue
                }
                // A chain refused on its own refuses its binding, and nothing
                // else of it is judged: one problem, one diagnostic.
                if let (code, link) = chainRefusal(index) {
                    for owner in owners { refusals.insert(MatrixRefusal(code: code, owner: owner, link: link)) }
                    continue
                }
                for owner in owners {
                    for code in decoratorNeedRefusals(index, in: injector) {
                        // Each at the link that needs, a cycle through it too (the link closes the loop).
                        refusals.insert(MatrixRefusal(code: code, owner: owner, link: 0))
                    }
                }
                guard index + 1 < depth else { continue }
                let kind = kinds[index]
                var codes: [DiagnosticCode] = []
                if let source = serving(index + 1, from: injector) {
                    let taken = argument(index + 1, in: source)
                    if kind != .collection, taken != .none, taken != argument(index, in: injector) {
                        codes.append(.argumentRequired)
                    }
                    // Only an `async` factory awaits, and only a direct or optional need.
                    let awaits = level.execution == .async && (kind == .plain || kind == .optional)
                    if isAwaited(index + 1), !awaits { codes.append(.needsAwait) }
                    if matrixCaptures(level.lifetime, levels[index + 1].lifetime) { codes.append(.captiveDependency) }
                } else if missingIsReported(index + 1) {
                    // An optional need is then nil and a collection empty: neither is refused.
                    if kind == .plain || kind == .lazy || kind == .provider { codes.append(.missingDependency) }
                }
                for code in codes {
                    for owner in owners { refusals.insert(MatrixRefusal(code: code, owner: owner)) }
                }
            }
        }
        return refusals
    }

    /// Whether level `index`'s instance seen in one resolve is the one seen
    /// in a later resolve, though reached through different holders.
    func sharedAcrossResolves(_ index: Int, sameScope: Bool) -> Bool {
        switch levels[index].lifetime {
        case .singleton, .weak: true  // weak: the earlier resolve's instance is still held
        case .scoped: sameScope
        case .graph, .transient: false
        }
    }
}

// MARK: - The generated cases

enum MatrixCases {
    static let argumentPairs: [[MatrixArgument]] = [
        [.none, .none], [.int, .none], [.int, .int], [.none, .int], [.int, .string],
    ]
    static let argumentTriples: [[MatrixArgument]] = [
        [.none, .none, .none], [.int, .none, .none], [.int, .int, .none], [.int, .int, .int],
        [.int, .none, .int], [.int, .int, .string], [.none, .none, .int], [.int, .string, .string],
    ]
    /// The holder's injector and the one the app resolves it from.
    static let holderPlacements: [(MatrixPlacement, InjectorName)] = [
        (.primary, .primary), (.secondary, .secondary), (.secondary, .primary), (.primary, .secondary),
    ]
    static let lifetimes = Lifetime.allCases
    static let lifetimePairs = lifetimes.flatMap { a in lifetimes.map { [a, $0] } }
    static let lifetimeTriples = lifetimes.flatMap { a in lifetimePairs.map { [a] + $0 } }
    static let kindPairs = MatrixNeedKind.allCases.flatMap { a in MatrixNeedKind.allCases.map { [a, $0] } }

    static func shape(
        _ lifetimes: [Lifetime], _ arguments: [MatrixArgument], _ placements: [MatrixPlacement],
        _ kinds: [MatrixNeedKind], from request: InjectorName
    ) -> MatrixShape {
        let levels = lifetimes.indices.map {
            MatrixLevel(lifetime: lifetimes[$0], argument: arguments[$0], placement: placements[$0])
        }
        return MatrixShape(levels: levels, kinds: kinds, request: request)
    }

    /// Every dimension is crossed with those it interacts with; the rest
    /// rotate through their values with strides prime to the set's size,
    /// so each value meets many others without the full product.
    static let all: [MatrixShape] = {
        var shapes: [MatrixShape] = []
        // Depth 2, lifetimes × kind × argument, all in primary.
        for pair in lifetimePairs {
            for kind in MatrixNeedKind.allCases {
                for arguments in argumentPairs {
                    shapes.append(shape(pair, arguments, [.primary, .primary], [kind], from: .primary))
                }
            }
        }
        // Depth 2, kind × argument × injector fallback; lifetimes rotate.
        var n = 0
        for kind in MatrixNeedKind.allCases {
            for arguments in argumentPairs {
                for (holder, request) in holderPlacements {
                    for leaf in MatrixPlacement.allCases {
                        let lifetimes = lifetimePairs[(n * 7) % 25]
                        shapes.append(shape(lifetimes, arguments, [holder, leaf], [kind], from: request))
                        n += 1
                    }
                }
            }
        }
        let primaries: [MatrixPlacement] = [.primary, .primary, .primary]
        let triples = argumentTriples.count
        // Depth 3, every lifetime triple; kinds and arguments rotate.
        for (index, lifetimes) in lifetimeTriples.enumerated() {
            let arguments = argumentTriples[(index / 16) % triples]
            shapes.append(shape(lifetimes, arguments, primaries, kindPairs[index % kindPairs.count], from: .primary))
        }
        // Depth 3, both kinds × arguments; lifetimes rotate.
        n = 0
        for kinds in kindPairs {
            for arguments in argumentTriples {
                shapes.append(shape(lifetimeTriples[(n * 37 + 5) % 125], arguments, primaries, kinds, from: .primary))
                n += 1
            }
        }
        // Depth 3, injector fallback at each level; the rest rotate.
        n = 0
        for (holder, request) in holderPlacements {
            for middle in MatrixPlacement.allCases {
                for leaf in MatrixPlacement.allCases {
                    let lifetimes = lifetimeTriples[(n * 37 + 11) % 125]
                    let (arguments, kinds) = (argumentTriples[(n * 3) % triples], kindPairs[(n * 7) % kindPairs.count])
                    shapes.append(shape(lifetimes, arguments, [holder, middle, leaf], kinds, from: request))
                    n += 1
                }
            }
        }
        return shapes
    }()

    /// Depth 2 with `async` factories (which take no argument): each lifetime
    /// pair × kind × which level is `async`; placements rotate.
    static let awaiting: [MatrixShape] = {
        var shapes: [MatrixShape] = []
        let executions: [[MatrixExecution]] = [[.async, .sync], [.async, .async], [.sync, .async]]
        var n = 0
        for pair in lifetimePairs {
            for kind in MatrixNeedKind.allCases {
                for execution in executions {
                    let (holder, request) = holderPlacements[(n / 3) % 4]
                    let leaf = MatrixPlacement.allCases[(n / 7) % MatrixPlacement.allCases.count]
                    var made = shape(pair, [.none, .none], [holder, leaf], [kind], from: request)
                    let levels = made.levels.indices.map { index in
                        var level = made.levels[index]
                        level.execution = execution[index]
                        return level
                    }
                    made = MatrixShape(levels: levels, kinds: made.kinds, request: made.request)
                    shapes.append(made)
                    n += 1
                }
            }
        }
        return shapes
    }()
}

// MARK: - Building a shape's catalog and manifest

extension FactoryCatalog {
    /// Registers the factory `name` making `Product` (recording `injector`),
    /// taking `argument`, and taking `Needed` twice as `kind` (nothing when nil).
    mutating func registerMatrixNode<Product: MatrixNode, Needed: MatrixNode>(
        _ name: String, _ product: Product.Type, injector: InjectorName, argument: MatrixArgument,
        execution: MatrixExecution = .sync, needs kind: MatrixNeedKind?, _ needed: Needed.Type
    ) {
        let made: @Sendable (String?, Received) -> Product = {
            Product(factory: name, injector: injector, argument: $0, received: $1)
        }
        if execution == .async {
            precondition(argument == .none, "an async factory takes no argument")
            switch kind {
            case nil: register(name, provides: product) { () async in made(nil, .nothing) }
            case .plain?:
                register(name, provides: product) { (a: Needed, b: Needed) async in made(nil, .plain([a, b])) }
            case .optional?:
                register(name, provides: product) { (a: Needed?, b: Needed?) async in made(nil, .optional([a, b])) }
            case .lazy?:
                register(name, provides: product) { (a: Lazy<Needed>, b: Lazy<Needed>) async in
                    made(nil, .lazy([{ try a.get() }, { try b.get() }]))
                }
            case .collection?:
                register(name, provides: product) { (a: [Needed], b: [Needed]) async in made(nil, .collection([a, b])) }
            case .provider?:
                register(name, provides: product) { (a: Provider<Needed>, b: Provider<Needed>) async in
                    made(nil, .provider([{ try a.get() }, { try b.get() }]))
                }
            }
            return
        }
        let int: @Sendable (Int) -> String = { "Int \($0)" }
        let string: @Sendable (String) -> String = { "String \($0)" }
        switch (kind, argument) {
        case (nil, .none): register(name, provides: product) { made(nil, .nothing) }
        case (nil, .int): register(name, provides: product, argument: Int.self) { (x: Int) in made(int(x), .nothing) }
        case (nil, .string):
            register(name, provides: product, argument: String.self) { (x: String) in made(string(x), .nothing) }
        case (.plain, .none): register(name, provides: product) { (a: Needed, b: Needed) in made(nil, .plain([a, b])) }
        case (.plain, .int):
            register(name, provides: product, argument: Int.self) { (x: Int, a: Needed, b: Needed) in
                made(int(x), .plain([a, b]))
            }
        case (.plain, .string):
            register(name, provides: product, argument: String.self) { (x: String, a: Needed, b: Needed) in
                made(string(x), .plain([a, b]))
            }
        case (.optional, .none):
            register(name, provides: product) { (a: Needed?, b: Needed?) in made(nil, .optional([a, b])) }
        case (.optional, .int):
            register(name, provides: product, argument: Int.self) { (x: Int, a: Needed?, b: Needed?) in
                made(int(x), .optional([a, b]))
            }
        case (.optional, .string):
            register(name, provides: product, argument: String.self) { (x: String, a: Needed?, b: Needed?) in
                made(string(x), .optional([a, b]))
            }
        case (.lazy, .none):
            register(name, provides: product) { (a: Lazy<Needed>, b: Lazy<Needed>) in
                made(nil, .lazy([{ try a.get() }, { try b.get() }]))
            }
        case (.lazy, .int):
            register(name, provides: product, argument: Int.self) { (x: Int, a: Lazy<Needed>, b: Lazy<Needed>) in
                made(int(x), .lazy([{ try a.get() }, { try b.get() }]))
            }
        case (.lazy, .string):
            register(name, provides: product, argument: String.self) { (x: String, a: Lazy<Needed>, b: Lazy<Needed>) in
                made(string(x), .lazy([{ try a.get() }, { try b.get() }]))
            }
        case (.collection, .none):
            register(name, provides: product) { (a: [Needed], b: [Needed]) in made(nil, .collection([a, b])) }
        case (.collection, .int):
            register(name, provides: product, argument: Int.self) { (x: Int, a: [Needed], b: [Needed]) in
                made(int(x), .collection([a, b]))
            }
        case (.collection, .string):
            register(name, provides: product, argument: String.self) { (x: String, a: [Needed], b: [Needed]) in
                made(string(x), .collection([a, b]))
            }
        case (.provider, .none):
            register(name, provides: product) { (a: Provider<Needed>, b: Provider<Needed>) in
                made(nil, .provider([{ try a.get() }, { try b.get() }]))
            }
        case (.provider, .int):
            register(name, provides: product, argument: Int.self) { (x: Int, a: Provider<Needed>, b: Provider<Needed>) in
                made(int(x), .provider([{ try a.get() }, { try b.get() }]))
            }
        case (.provider, .string):
            register(name, provides: product, argument: String.self) {
                (x: String, a: Provider<Needed>, b: Provider<Needed>) in
                made(string(x), .provider([{ try a.get() }, { try b.get() }]))
            }
        }
    }
}

/// What ``MatrixShape/wiring()`` makes: the catalog, the manifest (read
/// from JSON, so each diagnostic points at its binding), and the factory
/// each of its bindings names, in order.
private struct MatrixWiring {
    let catalog: FactoryCatalog
    let manifest: Manifest
    let bound: [String]
}

extension MatrixShape {
    /// The catalog (every level's factories, in every injector, whether bound
    /// or not, and the chain's decorators) and the manifest binding each
    /// level where it is placed, with its chain, judged as ``environment``.
    fileprivate func wiring() throws -> MatrixWiring {
        var catalog = FactoryCatalog()
        var entries: [String] = []
        var bound: [String] = []
        for index in levels.indices {
            let level = levels[index]
            let kind = index + 1 < depth ? kinds[index] : nil
            for injector in [InjectorName.primary, .secondary] {
                let (taken, runs) = (argument(index, in: injector), level.execution)
                for name in factories(index, in: injector) {
                    switch (index, depth) {
                    case (0, 2): catalog.registerMatrixNode(
                        name, MatrixHolder.self, injector: injector, argument: taken, execution: runs, needs: kind,
                        MatrixLeaf.self)
                    case (0, _): catalog.registerMatrixNode(
                        name, MatrixHolder.self, injector: injector, argument: taken, execution: runs, needs: kind,
                        MatrixMiddle.self)
                    case (1, 3): catalog.registerMatrixNode(
                        name, MatrixMiddle.self, injector: injector, argument: taken, execution: runs, needs: kind,
                        MatrixLeaf.self)
                    default: catalog.registerMatrixNode(
                        name, MatrixLeaf.self, injector: injector, argument: taken, execution: runs, needs: nil,
                        MatrixLeaf.self)
                    }
                    guard level.placement.injectors.contains(injector) else { continue }
                    let names = decorators(of: index).map { "\"\($0)\"" }
                    let chain = names.isEmpty ? "" : ", \"decorators\": [" + names.joined(separator: ", ") + "]"
                    let key = isElements(index) ? "collection" : "protocol"
                    entries.append("""
                        { "\(key)": "\(typeNames[index])", "factory": "\(name)", "lifetime": "\(level.lifetime)", \
                        "injector": "\(injector)"\(chain) }
                        """)
                    bound.append(name)
                }
            }
        }
        registerChain(in: &catalog)
        let json = """
            { "format": 1, "environment": "\(Self.environment)", "bindings": [
            \(entries.joined(separator: ",\n"))
            ] }
            """
        let manifest = try ManifestLoader(environment: [:]).load(data: Data(json.utf8))
        return MatrixWiring(catalog: catalog, manifest: manifest, bound: bound)
    }
}

// MARK: - Serving an accepted shape

/// One instance reached in a resolve: its level, and the instance holding it (nil for the holder).
private struct Reach {
    let level: Int
    let node: MatrixNode
    let parent: ObjectIdentifier?
}

extension MatrixShape {
    /// Resolves the holder as the app would: from `request`, with the
    /// holder's argument for resolve `round` when it takes one.
    fileprivate func resolveHolder(from container: Container, round: Int) throws -> MatrixHolder {
        switch levels[0].argument {
        case .none: try container.resolve(MatrixHolder.self, from: request)
        case .int: try container.resolve(MatrixHolder.self, from: request, argument: 100 + round)
        case .string: try container.resolve(MatrixHolder.self, from: request, argument: "s\(round)")
        }
    }

    /// Every instance the holder reaches, each need read (a `Lazy` read
    /// after the resolve, twice), each checked against the manifest: the
    /// binding that serves it, its argument, what its need kind gives.
    /// `earlier` are the instances of the earlier resolves, whose argument was checked then.
    fileprivate func walk(_ holder: MatrixHolder, round: Int, earlier: Set<ObjectIdentifier>) throws -> [Reach] {
        let served = try #require(serving(0, from: request))
        #expect(holder.factory == factories(0, in: served)[0], "the holder is served by its binding")
        var reaches = [Reach(level: 0, node: holder, parent: nil)]
        var visited: Set<ObjectIdentifier> = []
        var next = 0
        while next < reaches.count {
            let (node, level) = (reaches[next].node, reaches[next].level)
            next += 1
            guard visited.insert(ObjectIdentifier(node)).inserted else { continue }
            let taken = argument(level, in: node.injector)
            if taken == .none || earlier.contains(ObjectIdentifier(node)) {
                #expect(taken != .none || node.argument == nil)
            } else {
                #expect(node.argument == taken.recorded(round: round), "the argument reaches '\(node.factory)'")
            }
            if let (needed, need) = checkChain(of: node, level: level) {
                reaches.append(Reach(level: needed, node: need, parent: ObjectIdentifier(node)))
            }
            guard level + 1 < depth else {
                #expect({ if case .nothing = node.received { true } else { false } }())
                continue
            }
            // The need is followed from the injector whose binding made this node.
            let source = serving(level + 1, from: node.injector)
            let expected = source.map { factories(level + 1, in: $0) } ?? []
            var children: [MatrixNode] = []
            switch (kinds[level], node.received) {
            case (.plain, .plain(let needs)):
                children = needs
                #expect(needs.map(\.factory) == [expected[0], expected[0]])
            case (.optional, .optional(let needs)):
                children = needs.compactMap { $0 }
                #expect(needs.map { $0?.factory } == [expected.first, expected.first], "nil exactly when unbound")
            case (.lazy, .lazy(let gets)):
                for get in gets {
                    let value = try get()
                    #expect(try get() === value, "a Lazy keeps what it resolved")
                    children.append(value)
                }
                #expect(children.map(\.factory) == [expected[0], expected[0]])
            case (.collection, .collection(let lists)):
                children = lists.flatMap { $0 }
                #expect(lists.map { $0.map(\.factory) } == [expected, expected], "the serving list, in order")
            case (.provider, .provider(let gets)):
                // Each call is a resolution of its own: what it makes is
                // checked here, not walked with this resolve's instances.
                let kept = sharedAcrossResolves(level + 1, sameScope: true)
                for get in gets {
                    let (first, second) = (try get(), try get())
                    #expect([first.factory, second.factory] == [expected[0], expected[0]])
                    #expect((first === second) == kept, "a Provider resolves anew, as the lifetime says")
                    _ = checkChain(of: first, level: level + 1)
                    // An instance kept from an earlier resolve has that resolve's argument.
                    let passed = argument(level + 1, in: first.injector)
                    if passed == .none {
                        #expect(first.argument == nil)
                    } else if !kept, !earlier.contains(ObjectIdentifier(node)) {
                        #expect(first.argument == passed.recorded(round: round), "the argument reaches a Provider's call")
                    }
                }
            default:
                Issue.record("'\(node.factory)' was given \(node.received) for a \(kinds[level]) need")
            }
            reaches += children.map { Reach(level: level + 1, node: $0, parent: ObjectIdentifier(node)) }
        }
        return reaches
    }

    /// Within one resolve: a transient binding makes an instance per need,
    /// every other lifetime one shared by every need of the resolve.
    fileprivate func checkSharingWithin(_ reaches: [Reach]) {
        for (factory, group) in Dictionary(grouping: reaches, by: { $0.node.factory }) {
            let distinct = Set(group.map { ObjectIdentifier($0.node) }).count
            let level = group[0].level
            let lifetime = levels[level].lifetime
            let perNeed = lifetime == .transient || isAwaitedOnItsOwn(level)
            #expect(distinct == (perNeed ? group.count : 1),
                "\(lifetime) '\(factory)': \(distinct) instances for \(group.count) needs in one resolve")
        }
    }

    /// Whether each need of level `index` makes its own `graph` instance:
    /// as `resolve(awaiting:)` documents, an `async` factory's synchronous
    /// need (direct, optional or a collection) is resolved as a resolve of
    /// its own, with a graph of its own; only `async` factories share one.
    func isAwaitedOnItsOwn(_ index: Int) -> Bool {
        index > 0 && levels[index].lifetime == .graph && !isAwaited(index)
            && levels[index - 1].execution == .async && kinds[index - 1] != .lazy
    }

    /// Between an earlier resolve and a later one: an instance is the
    /// earlier one exactly when its lifetime keeps it across resolves, or the
    /// instance holding it is the earlier one's.
    fileprivate func checkSharingAcross(earlier: [Reach], later: [Reach], sameScope: Bool) {
        let before = Set(earlier.map { ObjectIdentifier($0.node) })
        for reach in later {
            let shared = before.contains(ObjectIdentifier(reach.node))
            let heldByShared = reach.parent.map(before.contains) ?? false
            let expected = heldByShared || sharedAcrossResolves(reach.level, sameScope: sameScope)
            #expect(shared == expected, """
                \(levels[reach.level].lifetime) '\(reach.node.factory)' \(shared ? "is" : "is not") the earlier \
                resolve's instance (\(sameScope ? "same" : "another") scope, holder \(heldByShared ? "" : "not ")shared)
                """)
        }
    }

    /// Resolves the holder as an app that awaits would: `resolve(awaiting:)`.
    fileprivate func awaitHolder(from container: Container, in scope: Scope?) async throws -> MatrixHolder {
        guard let scope else { return try await container.resolve(awaiting: MatrixHolder.self, from: request) }
        return try await scope.run { try await container.resolve(awaiting: MatrixHolder.self, from: request) }
    }

    /// Resolves the holder twice (and, with a scoped level, once more in
    /// another scope), checking each resolve and each against the earlier;
    /// through `resolve(awaiting:)` when `awaiting`.
    fileprivate func serve(from container: Container, awaiting: Bool = false) async throws {
        let scoped = levels.contains { $0.lifetime == .scoped }
        let scopes = scoped ? [Scope(), Scope()] : []
        defer { scopes.forEach { $0.close() } }
        // Round, and the scope it runs in.
        let plan: [(round: Int, scope: Int?)] = scoped ? [(0, 0), (1, 0), (2, 1)] : [(0, nil), (1, nil)]
        var rounds: [[Reach]] = []
        for (round, scope) in plan {
            let holder: MatrixHolder
            if awaiting {
                holder = try await awaitHolder(from: container, in: scope.map { scopes[$0] })
            } else {
                let resolve = { try resolveHolder(from: container, round: round) }
                holder = try scope.map { try scopes[$0].run(resolve) } ?? resolve()
            }
            let earlier = Set(rounds.joined().map { ObjectIdentifier($0.node) })
            let reaches = try walk(holder, round: round, earlier: earlier)
            checkSharingWithin(reaches)
            for (index, before) in rounds.enumerated() {
                checkSharingAcross(earlier: before, later: reaches, sameScope: plan[index].scope == scope)
            }
            rounds.append(reaches)
        }
        if levels[0].lifetime == .scoped {
            let error = await #expect(throws: ResolutionError.self) {
                if awaiting { _ = try await awaitHolder(from: container, in: nil) }
                else { _ = try resolveHolder(from: container, round: 9) }
            }
            #expect(error?.reason == .noActiveScope, "a scoped holder outside any scope")
        }
    }
}

// MARK: - A refused shape: the engine's own reason

extension MatrixShape {
    /// The refusal a validator diagnostic stands for: its code, and where
    /// it points (`/bindings/3/decorators/1`): the factory of that binding
    /// (`bound`, the manifest's in order) and the entry of its chain.
    func refusal(_ diagnostic: Diagnostic, bound: [String]) -> MatrixRefusal {
        let parts = diagnostic.path.split(separator: "/").map(String.init)
        guard parts.count >= 2, parts[0] == "bindings", let index = Int(parts[1]), bound.indices.contains(index) else {
            return MatrixRefusal(code: diagnostic.code, owner: "no binding: \(diagnostic.path)")
        }
        let link = parts.count >= 4 && parts[2] == "decorators" ? Int(parts[3]) : nil
        return MatrixRefusal(code: diagnostic.code, owner: bound[index], link: link)
    }

    /// The level a factory of this shape makes, and the injector it is bound in.
    func place(of factory: String) -> (level: Int, injector: InjectorName)? {
        for index in levels.indices {
            for injector in [InjectorName.primary, .secondary] where factories(index, in: injector).contains(factory) {
                return (index, injector)
            }
        }
        return nil
    }

    /// Runs the engine where it can run on the refused part: the need's
    /// factory alone, resolved with what its dependent could pass (its own
    /// argument, or none), or a type nothing binds. It must fail for the
    /// table's reason.
    func checkTheEngineHits(_ refusals: Set<MatrixRefusal>) throws {
        for refusal in refusals {
            let (owner, injector) = try #require(place(of: refusal.owner))
            let fromChain = refusal.link != nil
            if fromChain, [.dependencyCycle, .environmentNotAllowed].contains(refusal.code) {
                try checkTheEngineRunsTheChain(refusal)
                continue
            }
            let (passed, taken): (MatrixArgument, MatrixArgument)
            switch refusal.code {
            case .argumentRequired where fromChain:
                // A decorator takes no resolve-time argument: it has none to pass on.
                guard case .level(let needed) = chain.need else { throw MatrixProbeError(refusal: refusal) }
                let source = try #require(serving(needed, from: injector))
                (passed, taken) = (.none, argument(needed, in: source))
            case .argumentRequired:
                let source = try #require(serving(owner + 1, from: injector))
                (passed, taken) = (argument(owner, in: injector), argument(owner + 1, in: source))
            case .collectionElementTakesArgument: (passed, taken) = (.none, argument(owner, in: injector))
            case .missingDependency, .needsAwait: (passed, taken) = (.none, .none)
            // captive-dependency: nothing fails, the instance lives too long;
            // decorator-not-supported: there is no chain to run (see the table).
            default: continue
            }
            var catalog = FactoryCatalog()
            // needs-await: what is not awaited is made synchronously, which an async factory cannot be, nor a
            // chain with an async link (the one that makes an awaited chain around a synchronous factory).
            // (An element's needs-await is its own: it is the awaited one.)
            let needed: Int? =
                fromChain ? { if case .level(let needed) = chain.need { needed } else { nil } }()
                : isElements(owner) || owner + 1 == depth ? owner : owner + 1
            let byLink = refusal.code == .needsAwait && needed.map { levels[$0].execution == .sync } == true
            let execution: MatrixExecution = refusal.code == .needsAwait && !byLink ? .async : .sync
            catalog.registerMatrixNode(
                "probe", MatrixLeaf.self, injector: .primary, argument: taken, execution: execution, needs: nil,
                MatrixLeaf.self)
            var probe = bind("MatrixLeaf", to: "probe")
            if byLink {
                catalog.registerDecorator("probe+d", decorates: MatrixLeaf.self) { (inner: MatrixLeaf) async in
                    inner.decorated(by: "probe+d", need: nil)
                }
                probe.decorators = [Binding.Decorator("probe+d")]
            }
            let bound = refusal.code == .missingDependency ? [] : [probe]
            let container = try makeContainer(catalog, bound)
            let error = #expect(throws: ResolutionError.self) {
                switch passed {
                case .none: _ = try container.resolve(MatrixLeaf.self)
                case .int: _ = try container.resolve(MatrixLeaf.self, argument: 100)
                case .string: _ = try container.resolve(MatrixLeaf.self, argument: "s0")
                }
            }
            let reason: ResolutionError.Reason =
                switch refusal.code {
                case .missingDependency: .notBound
                case .needsAwait: .needsAwait
                default: passed == .none ? .argumentMissing : .argumentMismatch
                }
            #expect(error?.reason == reason, "\(refusal): the engine's reason")
        }
    }
}

// MARK: - The matrix

@Suite struct ValidatorEngineMatrixTests {
    @Test(arguments: MatrixCases.all)
    func theValidatorsVerdictIsTheEnginesService(_ shape: MatrixShape) async throws {
        try await judge(shape, awaiting: false)
    }

    /// The same over `async` factories, each shape resolved through `resolve(awaiting:)`.
    @Test(arguments: MatrixCases.awaiting)
    func theValidatorsVerdictIsTheAwaitingEnginesService(_ shape: MatrixShape) async throws {
        try await judge(shape, awaiting: true)
    }

    /// The same with a chain of decorators on one level: the validator
    /// joined with the engine over the decorators' own dimensions.
    @Test(arguments: MatrixCases.decorated)
    func theValidatorsVerdictOnAChainIsTheEnginesService(_ shape: MatrixShape) async throws {
        try await judge(shape, awaiting: false)
    }

    /// The same with `async` factories, each shape resolved through `resolve(awaiting:)`.
    @Test(arguments: MatrixCases.awaitingDecorated)
    func theValidatorsVerdictOnAnAwaitedChainIsTheAwaitingEnginesService(_ shape: MatrixShape) async throws {
        try await judge(shape, awaiting: true)
    }

    func judge(_ shape: MatrixShape, awaiting: Bool) async throws {
        let wiring = try shape.wiring()
        let (catalog, manifest) = (wiring.catalog, wiring.manifest)
        let refusal = { shape.refusal($0, bound: wiring.bound) }
        let expected = shape.expectedRefusals
        // What `patchbay check` says, with the live catalog and with its
        // description, which activation must say too.
        let diagnostics = ManifestValidator(catalog: catalog).validate(manifest).errors
        let checked = Set(diagnostics.map(refusal))
        let offline = ManifestValidator(description: catalog.describe()).validate(manifest).errors
        #expect(Set(offline.map(refusal)) == checked, "the check offline and live disagree")
        // A refusal at a link names its decorator, not only the binding whose chain it is.
        for diagnostic in diagnostics {
            guard let link = refusal(diagnostic).link else { continue }
            let decorator = shape.decorators(of: shape.chain.level)[link]
            #expect(diagnostic.message.contains("'\(decorator)'"), "\(diagnostic.code) names '\(decorator)'")
        }
        let container: Container
        do {
            container = try Container(catalog: catalog, manifest: manifest)
        } catch {
            let found = Set(error.diagnostics.errors.map(refusal))
            #expect(found == checked, "activation and the check disagree")
            #expect(found == expected, "refused for other reasons than the model's:\n\(error)")
            for code in Set(found.map(\.code)) {
                #expect(matrixRefusalReasons[code] != nil, "refused with \(code), which the engine has no reason for")
            }
            try shape.checkTheEngineHits(expected)
            return
        }
        #expect(checked.isEmpty, "activation accepts what the check refuses: \(checked)")
        try #require(expected.isEmpty, "accepted, though the engine would fail: \(expected)")
        try await shape.serve(from: container, awaiting: awaiting)
    }

    /// The generated list covers every value of every dimension, each at
    /// every place it can take, accepted and refused.
    @Test func theMatrixCoversEveryDimension() {
        let shapes = MatrixCases.all
        for depth in [2, 3] {
            let atDepth = shapes.filter { $0.depth == depth }
            for index in 0..<depth {
                let lifetimes = Set(atDepth.map { $0.levels[index].lifetime })
                #expect(lifetimes == Set(Lifetime.allCases), "lifetimes at \(index)")
                let arguments = Set(atDepth.map { $0.levels[index].argument })
                #expect(arguments.count >= (index == 0 ? 2 : 3), "arguments at \(index)")
                #expect(Set(atDepth.map { $0.levels[index].placement }) == Set(index == 0
                    ? [.primary, .secondary] : MatrixPlacement.allCases), "placements at \(index)")
            }
            for edge in 0..<(depth - 1) {
                #expect(Set(atDepth.map { $0.kinds[edge] }) == Set(MatrixNeedKind.allCases), "kinds at edge \(edge)")
            }
            #expect(Set(atDepth.map(\.request)) == [.primary, .secondary])
            let accepted = atDepth.filter { $0.expectedRefusals.isEmpty }
            #expect(accepted.count > atDepth.count / 5, "accepted: \(accepted.count) of \(atDepth.count)")
            for kind in MatrixNeedKind.allCases {
                // An argument passed on across an edge of this kind (a collection's elements take none).
                let passedOn = accepted.contains { shape in
                    shape.kinds.indices.contains { edge in
                        shape.kinds[edge] == kind && shape.levels[edge].argument != .none
                            && (kind == .collection || shape.levels[edge + 1].argument != .none)
                    }
                }
                #expect(passedOn, "an accepted \(kind) need whose holder takes an argument at depth \(depth)")
                for lifetime in Lifetime.allCases {
                    #expect(accepted.contains { $0.kinds.contains(kind) && $0.levels.last?.lifetime == lifetime },
                        "an accepted \(kind) need of a \(lifetime) leaf at depth \(depth)")
                }
            }
            let codes = Set(atDepth.flatMap { $0.expectedRefusals.map(\.code) })
            // Only a chain needs its own type or has a link refused here (see theMatrixCoversEveryChain).
            let synchronous = Set(matrixRefusalReasons.keys).subtracting([.needsAwait])
                .subtracting(MatrixCases.chainCodes)
            #expect(codes == synchronous, "every refusal but needs-await and a chain's own at depth \(depth)")
        }
        let awaiting = MatrixCases.awaiting
        #expect(Set(awaiting.flatMap { $0.expectedRefusals.map(\.code) }).contains(.needsAwait))
        let accepted = awaiting.filter { $0.expectedRefusals.isEmpty && $0.levels[1].placement != .nowhere }
        let awaited = accepted.filter { $0.levels[1].execution == .async }
        #expect(Set(awaited.map(\.kinds[0])) == [.plain, .optional], "an async need is accepted direct or optional")
        #expect(Set(awaited.map(\.levels[1].lifetime)) == Set(Lifetime.allCases))
        for kind in MatrixNeedKind.allCases {
            #expect(accepted.contains { $0.levels.map(\.execution) == [.async, .sync] && $0.kinds == [kind]
                && $0.levels[1].lifetime == .graph }, "an async factory's \(kind) need of a graph binding")
        }
        #expect(shapes.count < 1_700, "the matrix stays small: \(shapes.count) shapes")
    }
}
