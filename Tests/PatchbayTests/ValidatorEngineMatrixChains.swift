// The decorators of the validator/engine matrix (issue 55): the chain one
// level's bindings name, its dimensions (length 1 to 3, what the first
// link needs, the environments rule of one link, which link is `async`,
// making the binding awaited), what the model predicts
// of it, the shapes that carry it, how each is registered and served, and
// the engine run on a refused chain alone. The matrix itself, and how a
// shape is judged, is ValidatorEngineMatrixTests.swift; a shape with no
// chain is one of its shapes as before.
import Foundation
import Testing
@testable import Patchbay

// MARK: - The chain of a shape

/// What the first decorator of a chain needs (the others need nothing).
enum MatrixDecoratorNeed: Sendable, Hashable, CustomStringConvertible {
    case nothing
    /// Level `index` of the shape, taken directly: a level below the
    /// decorated one, or the decorated level itself (a cycle).
    case level(Int)
    /// A type nothing binds, taken directly, or as an optional (`T?`).
    case unbound, unboundOptional

    var description: String {
        switch self {
        case .nothing: "nothing"
        case .level(let index): "level \(index)"
        case .unbound: "an unbound type"
        case .unboundOptional: "an unbound type?"
        }
    }
}

/// The environments rule of one link of a chain, for a manifest of
/// environment `test` (``MatrixShape/environment``).
enum MatrixLinkRule: String, Sendable, CaseIterable {
    case none
    case allowed = "only test", allowedExcept = "except production"
    case refused = "only production", refusedExcept = "except test"

    var environments: FactoryEnvironments? {
        switch self {
        case .none: nil
        case .allowed: .only("test")
        case .allowedExcept: .except("production")
        case .refused: .only("production")
        case .refusedExcept: .except("test")
        }
    }

    /// Whether it refuses the link in environment `test`: written from the rule's two forms.
    var refusesHere: Bool { self == .refused || self == .refusedExcept }
}

/// The chain of decorators on every binding of one level (in every
/// injector): `length` links; the first needs `need`; link `ruled` has
/// `rule`; link `async`, if any, is registered with an `async` closure.
struct MatrixChain: Sendable, Hashable {
    var level = 0
    var length = 0
    var need = MatrixDecoratorNeed.nothing
    var rule = MatrixLinkRule.none
    var ruled = 0
    var async: Int? = nil

    /// No decorators: the shapes of the matrix before decorators.
    static let none = MatrixChain()
}

extension MatrixShape {
    /// The decorators level `index`'s bindings name, in order: `MatrixHolder+d0`, ...
    func decorators(of index: Int) -> [String] {
        guard chain.length > 0, chain.level == index else { return [] }
        return (0..<chain.length).map { "\(typeNames[index])+d\($0)" }
    }

    /// The refusal of level `index`'s chain on its own, which refuses each
    /// of its bindings: a link its environments rule refuses here (at that
    /// link); nil when none. (A chain around an `async` factory, or with an
    /// `async` link, is made: its binding is awaited, see ``isAwaited(_:)``.)
    func chainRefusal(_ index: Int) -> (code: DiagnosticCode, link: Int?)? {
        guard chain.length > 0, chain.level == index else { return nil }
        return chain.rule.refusesHere ? (.environmentNotAllowed, chain.ruled) : nil
    }

    func chainIsRefused(_ index: Int) -> Bool { chainRefusal(index) != nil }

    /// Whether level `index`'s binding is awaited only, written from the
    /// documented rule: its factory is `async`, or its chain has an `async`
    /// link (a chain around an `async` factory stays awaited whatever its links).
    func isAwaited(_ index: Int) -> Bool {
        levels[index].execution == .async || (chain.level == index && chain.length > 0 && chain.async != nil)
    }
}

// MARK: - What the model predicts of a chain

extension MatrixShape {
    /// The refusals of the needs of the chain of level `index`'s binding in
    /// `injector`, from the documented rules: a decorator's needs are
    /// resolved from the binding's injector (with fallback) and checked as a
    /// factory's, against the decorated binding's lifetime; a decorator takes
    /// no resolve-time argument, so it has none to pass on; its needs are
    /// judged by how it runs, so only an `async` one may need an awaited
    /// binding (whatever runs its binding's factory); needing the type it
    /// decorates is a cycle.
    func decoratorNeedRefusals(_ index: Int, in injector: InjectorName) -> [DiagnosticCode] {
        guard chain.length > 0, chain.level == index else { return [] }
        switch chain.need {
        case .nothing, .unboundOptional: return []
        case .unbound: return [.missingDependency]
        case .level(let needed):
            // A collection's elements do not bind their type: a direct need of it finds nothing.
            guard !isElements(needed), let source = serving(needed, from: injector) else {
                return missingIsReported(needed) ? [.missingDependency] : []
            }
            var codes: [DiagnosticCode] = []
            if argument(needed, in: source) != .none { codes.append(.argumentRequired) }
            if isAwaited(needed), chain.async != 0 { codes.append(.needsAwait) }
            if matrixCaptures(levels[index].lifetime, levels[needed].lifetime) { codes.append(.captiveDependency) }
            if needed == index { codes.append(.dependencyCycle) }
            return codes
        }
    }
}

// MARK: - The shapes with a chain

extension MatrixCases {
    /// The refusals only a chain has in this matrix: a decorator that needs
    /// the type it decorates, a link not allowed in the manifest's environment.
    static let chainCodes: Set<DiagnosticCode> = [.dependencyCycle, .environmentNotAllowed]

    /// The needs a decorator of level `level` of a shape of `depth` may have:
    /// nothing, each level below, its own type (a cycle), an unbound type,
    /// directly and as an optional.
    static func decoratorNeeds(level: Int, depth: Int) -> [MatrixDecoratorNeed] {
        [.nothing] + (level..<depth).reversed().map { .level($0) } + [.unbound, .unboundOptional]
    }

    /// `shape` with `chain`; a decorated level is never a collection's
    /// element (decorator-not-supported, out of this matrix), so an edge
    /// that would make it one takes it directly instead.
    static func decorate(_ shape: MatrixShape, _ chain: MatrixChain) -> MatrixShape {
        var kinds = shape.kinds
        if chain.level > 0, kinds[chain.level - 1] == .collection { kinds[chain.level - 1] = .plain }
        return MatrixShape(levels: shape.levels, kinds: kinds, request: shape.request, chain: chain)
    }

    /// The shapes with decorators: the matrix's shapes (chains of length 0)
    /// joined with a chain of 1 to 3 decorators on one level, whose first
    /// link needs nothing, a level of the shape or an unbound type, and one
    /// of whose links may be limited by an environments rule.
    static let decorated: [MatrixShape] = {
        var shapes: [MatrixShape] = []
        let rules = MatrixLinkRule.allCases
        // Depth 2, the holder decorated: lifetimes × the first link's need, all in primary; length rotates.
        var n = 0
        for pair in lifetimePairs {
            for need in decoratorNeeds(level: 0, depth: 2) {
                let base = shape(pair, argumentPairs[(n * 3) % 5], [.primary, .primary],
                    [MatrixNeedKind.allCases[(n / 3) % 5]], from: .primary)
                shapes.append(decorate(base, MatrixChain(level: 0, length: 1 + n % 3, need: need)))
                n += 1
            }
        }
        // The environments rule × the link it is on × length × need, at
        // depth 2 and 3 in turn, each level decorated; the rest rotate.
        n = 0
        for rule in rules {
            for length in 1...3 {
                for ruled in 0..<length {
                    for index in 0..<5 {
                        let depth = 2 + n % 2
                        let level = (n / 2) % depth
                        let needs = decoratorNeeds(level: level, depth: depth)
                        let base = depth == 2
                            ? shape(lifetimePairs[(n * 7) % 25], argumentPairs[n % 5], [.primary, .both],
                                [MatrixNeedKind.allCases[(n / 3) % 5]], from: .primary)
                            : shape(lifetimeTriples[(n * 37 + 3) % 125], argumentTriples[n % 8],
                                [.primary, .both, .primary], kindPairs[(n * 7) % 25], from: .primary)
                        shapes.append(decorate(base, MatrixChain(
                            level: level, length: length, need: needs[index % needs.count], rule: rule, ruled: ruled)))
                        n += 1
                    }
                }
            }
        }
        // Depth 3, each level decorated × each need of it × 12 turns of
        // lifetimes, arguments, kinds, placements and length.
        n = 0
        for level in 0..<3 {
            for need in decoratorNeeds(level: level, depth: 3) {
                for _ in 0..<12 {
                    let (holder, request) = holderPlacements[n % 4]
                    let placements = [holder, MatrixPlacement.allCases[(n / 4) % 5], MatrixPlacement.allCases[(n / 3) % 5]]
                    let base = shape(lifetimeTriples[(n * 37 + 11) % 125], argumentTriples[(n * 3) % 8], placements,
                        kindPairs[(n * 11) % 25], from: request)
                    let rule = n % 4 == 3 ? rules[(n / 4) % rules.count] : .none
                    shapes.append(decorate(base, MatrixChain(
                        level: level, length: 1 + n % 3, need: need, rule: rule, ruled: n % (1 + n % 3))))
                    n += 1
                }
            }
        }
        // Depth 2, the holder's first decorator needs the leaf: injector
        // fallback × arguments, the need followed from each binding's injector.
        n = 0
        for (holder, request) in holderPlacements {
            for leaf in MatrixPlacement.allCases {
                for arguments in argumentPairs {
                    let base = shape(lifetimePairs[(n * 7 + 2) % 25], arguments, [holder, leaf],
                        [MatrixNeedKind.allCases[n % 5]], from: request)
                    shapes.append(decorate(base, MatrixChain(level: 0, length: 1 + n % 3, need: .level(1))))
                    n += 1
                }
            }
        }
        return shapes
    }()

    /// Depth 2 with awaited bindings, one level decorated: which levels'
    /// factories are `async` (or neither, an `async` link then making the
    /// chain awaited) × the decorated level × its first decorator's need
    /// (an awaited one, which only an `async` link may need) × the holder's
    /// need kind; lifetimes, placements, length and which link (if any, with
    /// an `async` factory) is `async` rotate.
    static let awaitingDecorated: [MatrixShape] = {
        var shapes: [MatrixShape] = []
        let executions: [[MatrixExecution]] = [[.async, .sync], [.async, .async], [.sync, .async], [.sync, .sync]]
        var n = 0
        for execution in executions {
            for level in 0..<2 {
                for need in decoratorNeeds(level: level, depth: 2) {
                    for kind in MatrixNeedKind.allCases {
                        let (holder, request) = holderPlacements[n % 4]
                        let leaf = [MatrixPlacement.primary, .secondary, .both][n % 3]
                        let base = shape(lifetimePairs[(n * 7 + 1) % 25], [.none, .none], [holder, leaf], [kind],
                            from: request)
                        let levels = base.levels.indices.map { index in
                            var level = base.levels[index]
                            level.execution = execution[index]
                            return level
                        }
                        let made = MatrixShape(levels: levels, kinds: base.kinds, request: request)
                        let length = 1 + n % 3
                        // Around synchronous factories a link is always `async` (else nothing would await).
                        let async: Int? = execution == [.sync, .sync] || (n / 3) % 2 == 1 ? (n / 2) % length : nil
                        shapes.append(decorate(made, MatrixChain(level: level, length: length, need: need, async: async)))
                        n += 1
                    }
                }
            }
        }
        return shapes
    }()
}

// MARK: - Registering a chain, and serving it

extension FactoryCatalog {
    /// Registers the decorator `name` of `Product` under `environments`,
    /// needing `Needed` directly (`optional` false), as `Needed?` (true), or
    /// nothing (nil), with an `async` closure when `async`.
    fileprivate mutating func registerMatrixDecorator<Product: MatrixNode, Needed: MatrixNode>(
        _ name: String, _ product: Product.Type, environments: FactoryEnvironments?, async: Bool, needs optional: Bool?,
        _ needed: Needed.Type
    ) {
        switch (async, optional) {
        case (true, nil):
            registerDecorator(name, decorates: product, environments: environments) { (inner: Product) async in
                await Task.yield()
                return inner.decorated(by: name, need: nil)
            }
        case (true, false?):
            registerDecorator(name, decorates: product, environments: environments) {
                (inner: Product, need: Needed) async in
                await Task.yield()
                return inner.decorated(by: name, need: need)
            }
        case (true, true?):
            registerDecorator(name, decorates: product, environments: environments) {
                (inner: Product, need: Needed?) async in
                await Task.yield()
                return inner.decorated(by: name, need: need)
            }
        case (false, _): registerSynchronousMatrixDecorator(name, product, environments: environments,
            needs: optional, needed)
        }
    }

    /// The synchronous form of ``registerMatrixDecorator(_:_:environments:async:needs:_:)``.
    private mutating func registerSynchronousMatrixDecorator<Product: MatrixNode, Needed: MatrixNode>(
        _ name: String, _ product: Product.Type, environments: FactoryEnvironments?, needs optional: Bool?,
        _ needed: Needed.Type
    ) {
        switch optional {
        case nil:
            registerDecorator(name, decorates: product, environments: environments) { (inner: Product) in
                inner.decorated(by: name, need: nil)
            }
        case false?:
            registerDecorator(name, decorates: product, environments: environments) { (inner: Product, need: Needed) in
                inner.decorated(by: name, need: need)
            }
        case true?:
            registerDecorator(name, decorates: product, environments: environments) { (inner: Product, need: Needed?) in
                inner.decorated(by: name, need: need)
            }
        }
    }
}

extension MatrixShape {
    /// Registers the chain's decorators: the first with its need, the one `ruled` with its environments rule.
    func registerChain(in catalog: inout FactoryCatalog) {
        let needed: String? =
            switch chain.need {
            case .nothing: nil
            case .level(let index): typeNames[index]
            case .unbound, .unboundOptional: "MatrixUnbound"
            }
        for (offset, name) in decorators(of: chain.level).enumerated() {
            let environments = offset == chain.ruled ? chain.rule.environments : nil
            let optional: Bool? = offset > 0 || needed == nil ? nil : chain.need == .unboundOptional
            let async = offset == chain.async
            func register<Product: MatrixNode>(_ product: Product.Type) {
                switch needed {
                case "MatrixHolder"?:
                    catalog.registerMatrixDecorator(name, product, environments: environments, async: async,
                        needs: optional, MatrixHolder.self)
                case "MatrixMiddle"?:
                    catalog.registerMatrixDecorator(name, product, environments: environments, async: async,
                        needs: optional, MatrixMiddle.self)
                case "MatrixLeaf"?:
                    catalog.registerMatrixDecorator(name, product, environments: environments, async: async,
                        needs: optional, MatrixLeaf.self)
                default:
                    catalog.registerMatrixDecorator(name, product, environments: environments, async: async,
                        needs: optional, MatrixUnbound.self)
                }
            }
            switch typeNames[chain.level] {
            case "MatrixHolder": register(MatrixHolder.self)
            case "MatrixMiddle": register(MatrixMiddle.self)
            default: register(MatrixLeaf.self)
            }
        }
    }

    /// Checks the decorators `node` went through: its level's chain, in the
    /// order written, the first link's need served by the binding the
    /// serving rule predicts from the injector of the binding that made
    /// `node` (the decorated binding's). Returns that need's instance and
    /// its level, to walk with the rest.
    func checkChain(of node: MatrixNode, level: Int) -> (Int, MatrixNode)? {
        let names = decorators(of: level)
        #expect(node.decorations.map(\.decorator) == names, "'\(node.factory)' wrapped in the order written")
        #expect(node.decorations.dropFirst().allSatisfy { $0.need == nil }, "only the first link needs anything")
        guard let first = node.decorations.first, !names.isEmpty else { return nil }
        switch chain.need {
        case .nothing, .unboundOptional:
            #expect(first.need == nil, "'\(first.decorator)' needs nothing, or an optional nothing binds")
        case .unbound:
            Issue.record("'\(first.decorator)' was served a type nothing binds")
        case .level(let needed):
            let expected = serving(needed, from: node.injector).map { factories(needed, in: $0)[0] }
            #expect(first.need?.factory == expected, "'\(first.decorator)' of '\(node.factory)': its need's binding")
            if let need = first.need { return (needed, need) }
        }
        return nil
    }
}

// MARK: - A refused chain: what the engine does with it alone

/// A refusal the model predicts where the probe finds nothing to run.
struct MatrixProbeError: Error {
    let refusal: MatrixRefusal
}

extension MatrixShape {
    /// The engine on a refused chain's part alone: a probe leaf decorated
    /// by one decorator. For `dependency-cycle`, the decorator asks for the
    /// type it decorates while its chain is made (through a `Lazy` read at
    /// once, which the check does not follow): the engine must fail with a
    /// cycle. For `environment-not-allowed`, the decorator has the refused
    /// rule, in a manifest that names no environment (which is not judged):
    /// the engine runs it, so nothing but the check keeps it out of this environment.
    func checkTheEngineRunsTheChain(_ refusal: MatrixRefusal) throws {
        var catalog = FactoryCatalog()
        catalog.registerMatrixNode(
            "probe", MatrixLeaf.self, injector: .primary, argument: .none, needs: nil, MatrixLeaf.self)
        var binding = bind("MatrixLeaf", to: "probe")
        binding.decorators = [Binding.Decorator("probe+d")]
        if refusal.code == .dependencyCycle {
            catalog.registerDecorator("probe+d", decorates: MatrixLeaf.self) { (inner: MatrixLeaf, me: Lazy<MatrixLeaf>) in
                inner.decorated(by: "probe+d", need: try me.get())
            }
            let container = try makeContainer(catalog, [binding])
            let error = #expect(throws: ResolutionError.self) { _ = try container.resolve(MatrixLeaf.self) }
            #expect(error?.reason == .dependencyCycle, "\(refusal): the engine's reason")
        } else {
            let rule = try #require(chain.rule.environments)
            catalog.registerDecorator("probe+d", decorates: MatrixLeaf.self, environments: rule) { (inner: MatrixLeaf) in
                inner.decorated(by: "probe+d", need: nil)
            }
            let container = try makeContainer(catalog, [binding])
            let made = try container.resolve(MatrixLeaf.self)
            #expect(made.decorations.map(\.decorator) == ["probe+d"], "\(refusal): the engine runs the refused link")
        }
    }
}

// MARK: - The chain's dimensions covered

extension ValidatorEngineMatrixTests {
    /// The decorated shapes cover every value of the chain's dimensions,
    /// each refusal at a link, and chains accepted in every lifetime.
    @Test func theMatrixCoversEveryChain() {
        let shapes = MatrixCases.decorated
        let accepted = shapes.filter { $0.expectedRefusals.isEmpty }
        for depth in [2, 3] {
            let atDepth = shapes.filter { $0.depth == depth }
            #expect(Set(atDepth.map(\.chain.level)) == Set(0..<depth), "each level decorated at depth \(depth)")
            for level in 0..<depth {
                let needs = Set(atDepth.filter { $0.chain.level == level }.map(\.chain.need))
                #expect(needs == Set(MatrixCases.decoratorNeeds(level: level, depth: depth)),
                    "every need of level \(level)'s first decorator at depth \(depth)")
            }
        }
        for length in 1...3 {
            for lifetime in Lifetime.allCases {
                #expect(accepted.contains { $0.chain.length == length && $0.levels[$0.chain.level].lifetime == lifetime
                    && $0.levels[$0.chain.level].placement != .nowhere },
                    "an accepted chain of \(length) on a \(lifetime) binding")
            }
            for rule in MatrixLinkRule.allCases {
                for ruled in 0..<length {
                    #expect(shapes.contains { $0.chain.length == length && $0.chain.rule == rule && $0.chain.ruled == ruled },
                        "a chain of \(length) whose decorator \(ruled) is \(rule.rawValue)")
                }
            }
        }
        #expect(Set(accepted.map(\.chain.rule)) == Set(MatrixLinkRule.allCases.filter { !$0.refusesHere }))
        // Captivity of a decorator's need: every pair of the decorated binding's and the need's lifetimes.
        let pairs = Set(shapes.compactMap { shape -> [Lifetime]? in
            guard case .level(let needed) = shape.chain.need, needed != shape.chain.level else { return nil }
            return [shape.levels[shape.chain.level].lifetime, shape.levels[needed].lifetime]
        })
        #expect(pairs == Set(MatrixCases.lifetimePairs), "every lifetime pair of a decorated binding and its decorator's need")
        // A need followed from the decorated binding's injector, served by the other one's binding.
        #expect(accepted.contains { shape in
            guard case .level(let needed) = shape.chain.need else { return false }
            return shape.levels[shape.chain.level].placement.injectors.contains { injector in
                shape.serving(needed, from: injector).map { $0 != injector } ?? false
            }
        }, "an accepted decorator's need served by fallback")
        // Each refusal a chain can have, at its link (a cycle through it too), and a refused chain's
        // refusal of a level that needs it hidden (its own refusal is the one).
        let atLinks = shapes.flatMap { $0.expectedRefusals.filter { $0.link != nil } }
        // (decorator-not-supported needs an async factory: the awaited chains below have it.)
        #expect(Set(atLinks.map(\.code)) == MatrixCases.chainCodes.subtracting([.decoratorNotSupported])
            .union([.missingDependency, .argumentRequired, .captiveDependency]))
        #expect(Set(atLinks.compactMap(\.link)) == [0, 1, 2])
        #expect(shapes.count < 600, "the chains stay few: \(shapes.count) shapes")
        // Awaited: a chain around an async factory, an async need of a decorator, and chains served
        // where an async factory needs the decorated binding.
        let awaited = MatrixCases.awaitingDecorated
        let awaitedCodes = Set(awaited.flatMap { $0.expectedRefusals.filter { $0.link != nil }.map(\.code) })
        #expect(awaitedCodes.isSuperset(of: [.needsAwait, .captiveDependency, .missingDependency]), "\(awaitedCodes)")
        // Accepted and served awaited: a chain around an async factory, with synchronous links and with an
        // async one, and an async link around a synchronous factory; an async link's need of an async binding.
        let acceptedAwaited = awaited.filter { $0.expectedRefusals.isEmpty && $0.levels[$0.chain.level].placement != .nowhere }
        for level in 0..<2 {
            for (execution, async) in [(MatrixExecution.async, false), (.async, true), (.sync, true)] {
                #expect(acceptedAwaited.contains { $0.chain.level == level && $0.levels[level].execution == execution
                    && ($0.chain.async != nil) == async }, "an accepted awaited chain at \(level): \(execution), async link \(async)")
            }
        }
        #expect(acceptedAwaited.contains { shape in
            guard case .level(let needed) = shape.chain.need, needed != shape.chain.level else { return false }
            return shape.chain.async == 0 && shape.isAwaited(needed)
        }, "an async link's accepted need of an awaited binding")
        // A synchronous link's need of an awaited binding, and a synchronous dependant of an awaited chain.
        #expect(awaited.contains { shape in
            guard case .level(let needed) = shape.chain.need, needed != shape.chain.level else { return false }
            return shape.chain.async != 0 && shape.isAwaited(needed)
                && shape.expectedRefusals.contains { $0.code == .needsAwait && $0.link == 0 }
        }, "a synchronous link's need of an awaited binding is needs-await")
        #expect(awaited.contains { $0.chain.level == 1 && $0.levels.allSatisfy { $0.execution == .sync }
            && $0.expectedRefusals.contains { $0.code == .needsAwait && $0.link == nil } },
            "a synchronous factory needing a chain made awaited by its async link is needs-await")
        // (Not as a collection: a collection's element cannot be decorated.)
        for kind in MatrixNeedKind.allCases where kind != .collection {
            #expect(awaited.contains { $0.expectedRefusals.isEmpty && $0.levels.map(\.execution) == [.async, .sync]
                && $0.chain.level == 1 && $0.kinds == [kind] && $0.levels[1].placement != .nowhere },
                "an async factory's \(kind) need of a decorated binding, accepted")
        }
    }
}
