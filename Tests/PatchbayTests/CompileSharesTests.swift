// Compiling a large manifest in shares of whole factories, on several
// threads (`Activation+Shares.swift`), then filing the bindings type by type:
// whatever the number of cores, the activation must be the one a single core
// makes, binding for binding, storage for storage, element for element. Each
// test compares what one core makes with what 2, 3 and 8 make, or checks a
// share boundary, a kept storage, a chain or an element order directly.
import Foundation
import Testing
@testable import Patchbay

/// What the decorators of these tests make: a widget around another, so a
/// resolve shows which product its chain wrapped.
final class SharesWrappedWidget: Widget {
    let inner: any Widget
    let tag: String
    var serial: Int { inner.serial }
    init(_ inner: any Widget, _ tag: String) { (self.inner, self.tag) = (inner, tag) }
}

struct CompileSharesTests {
    struct TagOptions: Decodable, Sendable {
        var tag: String
        var size: Int
    }

    static let widgetFactories = 6, gadgetFactories = 3, loneFactories = 4, elementFactories = 5

    /// `combo` (a `Part` as Widget, Gadget and Sprocket), `tagged` (Widget and Gadget, with
    /// parameters), one-type factories for each, `lone-k` factories each bound once, the
    /// elements' factories, and two decorators of Widget.
    static func catalog() throws -> FactoryCatalog {
        var catalog = FactoryCatalog()
        catalog.register("combo", product: Part.self, provides: (any Widget).self, (any Gadget).self, (any Sprocket).self) {
            Part(tag: "combo")
        }
        // The public registrations cannot make a factory of several types that takes parameters
        // (see LifetimeTests): built from the catalog's internals, to reach ShareKey's parameters.
        let location = CodeLocation(fileID: "PatchbayTests/CompileSharesTests.swift", line: #line)
        let provided = try FactoryCatalog.providedTypes(
            of: Part.self, (any Widget).self, (any Gadget).self, factory: "tagged", at: location)
        try catalog.add(FactoryDefinition(
            name: "tagged", product: Part.self, provides: provided.types, dependencies: [], defaultLifetime: nil,
            parameters: .of(TagOptions.self), registeredAt: location,
            buildInto: FactoryDefinition.alwaysBoxed, buildsInto: false
        ) { call in
            let options = call.parameters(as: TagOptions.self)
            return Instance(Part(tag: "\(options.tag)-\(options.size)"))
        })
        for k in 0..<widgetFactories {
            catalog.register("widget-\(k)", product: Part.self, provides: (any Widget).self) { Part(tag: "w\(k)") }
        }
        for k in 0..<gadgetFactories {
            catalog.register("gadget-\(k)", product: Part.self, provides: (any Gadget).self) { Part(tag: "g\(k)") }
        }
        for k in 0..<loneFactories {
            catalog.register("lone-\(k)", product: Part.self, provides: (any Sprocket).self) { Part(tag: "l\(k)") }
        }
        for k in 0..<elementFactories {
            catalog.register("element-\(k)", product: Part.self, provides: (any Widget).self) { Part(tag: "e\(k)") }
        }
        catalog.registerDecorator("wrap-a", decorates: (any Widget).self) { (inner: any Widget) in
            SharesWrappedWidget(inner, "a") as any Widget
        }
        catalog.registerDecorator("wrap-b", decorates: (any Widget).self) { (inner: any Widget) in
            SharesWrappedWidget(inner, "b") as any Widget
        }
        return catalog
    }

    // MARK: - Manifests

    /// The injector names of a generated manifest: the two defaults, then `iN`.
    static func injectors(_ count: Int) -> [InjectorName] {
        (0..<count).map { $0 == 0 ? .primary : $0 == 1 ? .secondary : InjectorName("i\($0)") }
    }

    /// Equal parameters written four ways (key order, spacing, a `.0`-free number written
    /// with an exponent is left out: JSON numbers are compared as decoded), and a second value.
    static let tagTexts = [
        #"{"tag": "a", "size": 1}"#, #"{"size":1,"tag":"a"}"#, #"{ "tag" : "a" , "size" : 1 }"#,
        #"{"size": 1, "tag": "a"}"#, #"{"tag": "b", "size": 1}"#, #"{"tag": "a", "size": 2}"#,
    ]

    /// A seeded manifest of Widget, Gadget and Sprocket bound in each of `injectorCount`
    /// injectors, by factories shared across types or not, with every lifetime, chains of
    /// decorators, parameters equal but written apart, and collection elements of Widget from
    /// many factories; `lone-k` is bound once, at injector `loneAt[k]`.
    static func generated(injectorCount: Int, seed: UInt64, loneAt: [Int] = []) -> Data {
        var random = SplitMix(seed: seed)
        let names = injectors(injectorCount)
        let lifetimes = ["singleton", "singleton", "weak", "transient", "graph", "scoped"]
        let elementLifetimes = ["singleton", "weak", "transient", "graph"]
        var lines: [String] = []
        func entry(_ key: String, _ type: String, _ factory: String, _ lifetime: String, _ injector: InjectorName,
                   parameters: String? = nil, decorators: [String] = []) -> String {
            var text = #"{"\#(key)": "\#(type)", "factory": "\#(factory)", "lifetime": "\#(lifetime)", "injector": "\#(injector.rawValue)""#
            if let parameters { text += #", "parameters": \#(parameters)"# }
            if !decorators.isEmpty { text += #", "decorators": [\#(decorators.map { "\"\($0)\"" }.joined(separator: ", "))]"# }
            return text + "}"
        }
        for (offset, injector) in names.enumerated() {
            // Most injectors bind Widget and Gadget to one factory with one lifetime, so the two share.
            let shared = lifetimes[Int(random.next() % UInt64(lifetimes.count))]
            let pick = random.next() % 10
            let widgetFactory = pick < 4 ? "combo" : pick < 7 ? "tagged" : "widget-\(random.next() % UInt64(widgetFactories))"
            let gadgetPick = random.next() % 10
            let gadgetFactory = gadgetPick < 5 ? "combo" : gadgetPick < 8 ? "tagged" : "gadget-\(random.next() % UInt64(gadgetFactories))"
            let gadgetLifetime = random.next() % 4 == 0 ? lifetimes[Int(random.next() % UInt64(lifetimes.count))] : shared
            let decorators: [String] = switch random.next() % 8 {
            case 0: ["wrap-a"]
            case 1: ["wrap-b", "wrap-a"]
            default: []
            }
            let text = { tagTexts[Int(random.next() % UInt64(tagTexts.count))] }
            let widgetParameters = widgetFactory == "tagged" ? text() : nil
            let gadgetParameters = gadgetFactory == "tagged" ? text() : nil
            let widget = entry("protocol", "Widget", widgetFactory, shared, injector, parameters: widgetParameters, decorators: decorators)
            let gadget = entry("protocol", "Gadget", gadgetFactory, gadgetLifetime, injector, parameters: gadgetParameters)
            // Half the time Gadget comes first: manifest order within an injector is not factory order.
            lines += random.next() % 2 == 0 ? [widget, gadget] : [gadget, widget]
            if let lone = loneAt.firstIndex(of: offset) {
                lines.append(entry("protocol", "Sprocket", "lone-\(lone)", "singleton", injector))
            } else if random.next() % 3 != 0 {
                lines.append(entry("protocol", "Sprocket", "combo", random.next() % 2 == 0 ? shared : "singleton", injector))
            }
            for _ in 0..<Int(random.next() % 4) {
                let factory = random.next() % 4 == 0 ? "combo" : "element-\(random.next() % UInt64(elementFactories))"
                lines.append(entry("collection", "Widget", factory, elementLifetimes[Int(random.next() % 4)], injector))
            }
        }
        return Data(("{\"format\": 1, \"bindings\": [\n" + lines.joined(separator: ",\n") + "\n]}").utf8)
    }

    /// A manifest of JSON text, loaded as a file is.
    static func load(_ data: Data) throws -> Manifest {
        try ManifestLoader(environment: [:]).load(data: data, file: "shares.json")
    }

    /// The bindings, one per line, of `entries` (type, factory, injector), all singletons.
    static func plain(_ entries: [(String, String, InjectorName)]) -> Data {
        let lines = entries.map { type, factory, injector in
            #"{"protocol": "\#(type)", "factory": "\#(factory)", "lifetime": "singleton", "injector": "\#(injector.rawValue)"}"#
        }
        return Data(("{\"format\": 1, \"bindings\": [\n" + lines.joined(separator: ",\n") + "\n]}").utf8)
    }

    // MARK: - What an activation is, independent of its objects

    /// Everything an activation decides, written with manifest places instead of objects:
    /// two activations that agree on this serve every request alike.
    struct Shape: Equatable {
        /// Per type (Widget, Gadget, Sprocket, [Widget]) and injector: the serving binding's
        /// manifest index (-1 for the collection's own binding, nil when none serves).
        var serving: [[Int?]] = []
        /// Per injector: the manifest indexes of the elements `[Widget]` is served with.
        var elements: [[Int]?] = []
        /// The storages, each as the sorted labels of the bindings that keep in it, with its kind.
        var storages: [[String]] = []
        /// Per label: the kept storage it shares (by the label it was kept under), or "new".
        var kept: [String: String] = [:]
        var chains: [Int] = []
        var chainLinks: [Int] = []
        var hasGraphBindings = false
        var injectorOrder: [InjectorName] = []
    }

    static let types: [ObjectIdentifier] = [
        ObjectIdentifier((any Widget).self), ObjectIdentifier((any Gadget).self),
        ObjectIdentifier((any Sprocket).self), ObjectIdentifier([any Widget].self),
    ]

    /// Every storage-keeping binding of `activation`, labelled by its manifest place and role.
    static func labelled(_ activation: Activation) -> [(label: String, binding: CompiledBinding)] {
        var all: [(String, CompiledBinding)] = []
        for binding in activation.compiledBindings {
            if let described = binding.described {
                all.append(("b\(described.index)", binding))
            } else {
                all.append(("[\(binding.key.name)]@\(binding.injector.rawValue)", binding))
            }
        }
        for chain in activation.chains {
            all.append(("p\(chain.index)", chain.product))
            for (offset, link) in chain.links.enumerated() { all.append(("l\(chain.index).\(offset)", link)) }
        }
        return all
    }

    /// The shape of `activation`; `kept` names the storages it was compiled keeping, by label.
    static func shape(_ activation: Activation, kept: [ObjectIdentifier: String] = [:]) -> Shape {
        var shape = Shape()
        shape.injectorOrder = activation.injectorOrder
        for type in types {
            shape.serving.append(activation.injectorOrder.map { injector in
                activation.binding(serving: type, from: injector).map { $0.described?.index ?? -1 }
            })
        }
        shape.elements = activation.injectorOrder.map { injector in
            activation.binding(serving: types[3], from: injector).map { $0.elements.map { $0.described!.index } }
        }
        var groups: [ObjectIdentifier: [String]] = [:]
        var kinds: [ObjectIdentifier: String] = [:]
        for (label, binding) in labelled(activation) {
            let id = ObjectIdentifier(binding.storage)
            groups[id, default: []].append(label)
            kinds[id] = "\(type(of: binding.storage))"
            shape.kept[label] = kept[id] ?? "new"
        }
        shape.storages = groups.map { id, labels in [kinds[id]!] + labels.sorted() }.sorted { $0.lexicographicallyPrecedes($1) }
        shape.chains = activation.chains.map(\.index)
        shape.chainLinks = activation.chains.map(\.links.count)
        shape.hasGraphBindings = activation.hasGraphBindings
        return shape
    }

    /// Validates `manifest` and compiles it on one core and on each of `cores`, expecting every
    /// shape to be one core's; returns the validation and one core's activation.
    @discardableResult
    static func expectEveryCoreAgrees(
        _ manifest: Manifest, catalog: FactoryCatalog, cores: [Int] = [2, 3, 8],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (ValidationResult, Activation) {
        let result = try Activation.validate(manifest, catalog: catalog)
        let one = Activation.compile(result, of: manifest, catalog: catalog, cores: 1)
        let expected = shape(one)
        for count in cores {
            let many = Activation.compile(result, of: manifest, catalog: catalog, cores: count)
            let got = shape(many)
            #expect(got.serving == expected.serving, "serving, \(count) cores", sourceLocation: sourceLocation)
            #expect(got.elements == expected.elements, "elements, \(count) cores", sourceLocation: sourceLocation)
            #expect(got.storages == expected.storages, "storages, \(count) cores", sourceLocation: sourceLocation)
            #expect(got.chains == expected.chains && got.chainLinks == expected.chainLinks,
                    "chains, \(count) cores", sourceLocation: sourceLocation)
            #expect(got == expected, "\(count) cores", sourceLocation: sourceLocation)
        }
        return (result, one)
    }

    // MARK: - One core and many agree

    @Test func aLargeMixedManifestCompilesAlikeOnAnyNumberOfCores() throws {
        let catalog = try Self.catalog()
        let manifest = try Self.load(Self.generated(injectorCount: 3_000, seed: 71, loneAt: [0, 1_499, 1_500, 2_999]))
        #expect(manifest.bindings.count >= 10_000)
        #expect(manifest.bindings.count >= 2 * ParallelMap.itemsPerShare * 1)
        let (result, one) = try Self.expectEveryCoreAgrees(manifest, catalog: catalog)
        let shape = Self.shape(one)
        // The manifest reaches what the tests mean to cover: every lifetime, chains, shared storages.
        #expect(shape.hasGraphBindings)
        #expect(shape.chains.count > 300)
        #expect(shape.storages.contains { $0.count >= 4 })  // a storage kept by three bindings or more
        #expect(Set(result.bindings.map(\.lifetime)) == [.singleton, .weak, .transient, .graph, .scoped])
    }

    @Test func severalSeedsAndSizesAgree() throws {
        let catalog = try Self.catalog()
        // A size that splits into shares unevenly, on five threads.
        for (injectors, seed) in [(2_731, 3 as UInt64)] {
            let manifest = try Self.load(Self.generated(injectorCount: injectors, seed: seed, loneAt: [injectors / 2]))
            try Self.expectEveryCoreAgrees(manifest, catalog: catalog, cores: [5])
        }
    }

    // MARK: - What the table says

    /// Each injector's own binding serves it; elements come in manifest order, whichever
    /// factories (and shares) made them; chains are listed in manifest order.
    @Test func servingElementsAndChainsFollowTheManifestOnEightCores() throws {
        let catalog = try Self.catalog()
        let manifest = try Self.load(Self.generated(injectorCount: 2_100, seed: 9))
        #expect(manifest.bindings.count >= 2 * ParallelMap.itemsPerShare)  // two shares at least
        let result = try Activation.validate(manifest, catalog: catalog)
        let activation = Activation.compile(result, of: manifest, catalog: catalog, cores: 8)
        var own: [String: Int] = [:]
        var elements: [InjectorName: [Int]] = [:]
        var decorated: [Int] = []
        for (index, binding) in manifest.bindings.enumerated() {
            if binding.isCollectionElement {
                elements[binding.injector, default: []].append(index)
            } else {
                own["\(binding.protocolName)@\(binding.injector.rawValue)"] = index
            }
            if !binding.decorators.isEmpty { decorated.append(index) }
        }
        let names = ["Widget", "Gadget", "Sprocket"]
        for injector in activation.injectorOrder {
            for (offset, name) in names.enumerated() {
                let served = activation.binding(serving: Self.types[offset], from: injector)?.described?.index
                if let index = own["\(name)@\(injector.rawValue)"] { #expect(served == index) }
            }
            if let written = elements[injector] {
                let served = activation.binding(serving: Self.types[3], from: injector)
                #expect(served?.injector == injector)
                #expect(served?.elements.map { $0.described!.index } == written)
            }
        }
        #expect(activation.chains.map(\.index) == decorated)
        #expect(activation.chains.allSatisfy { $0.links.count == manifest.bindings[$0.index].decorators.count })
    }

    /// Bindings of one factory, lifetime and injector share one storage when their parameters are
    /// equal, however written; other parameters, injectors or lifetimes never share.
    @Test func sharingFollowsTheKeyOnEveryCore() throws {
        let catalog = try Self.catalog()
        let manifest = try Self.load(Self.generated(injectorCount: 2_100, seed: 17))
        let result = try Activation.validate(manifest, catalog: catalog)
        var keys: [Int: String] = [:], lifetimes: [Int: Lifetime] = [:]
        for described in result.bindings {
            let options = (described.parameters as? TagOptions).map { "\($0.tag)-\($0.size)" } ?? "none"
            keys[described.index] = "\(described.factoryPlace)|\(described.lifetime)|\(described.injector.rawValue)|\(options)"
            lifetimes[described.index] = described.lifetime
        }
        for cores in [1, 8] {
            let activation = Activation.compile(result, of: manifest, catalog: catalog, cores: cores)
            var byStorage: [ObjectIdentifier: [Int]] = [:]
            for binding in activation.compiledBindings {
                guard let described = binding.described, described.decorators.isEmpty else { continue }
                byStorage[ObjectIdentifier(binding.storage), default: []].append(described.index)
            }
            for chain in activation.chains { byStorage[ObjectIdentifier(chain.product.storage), default: []].append(chain.index) }
            // What ShareKey says, read from the validation: factory, lifetime, injector, parameters by value.
            func key(_ index: Int) -> String { keys[index]! }
            var storageOfKey: [String: ObjectIdentifier] = [:]
            var sharedPairs = 0
            for (storage, indexes) in byStorage {
                let first = key(indexes[0])
                #expect(indexes.allSatisfy { key($0) == first }, "one storage, one key: \(indexes)")
                if indexes.count > 1 {
                    sharedPairs += 1
                    let shares = lifetimes[indexes[0]]!.storage.sharesInstances
                    #expect(shares)
                }
                // A key that shares has one storage.
                if let known = storageOfKey[first] {
                    let shares = lifetimes[indexes[0]]!.storage.sharesInstances
                    #expect(!shares || known == storage, "key \(first) in two storages")
                }
                storageOfKey[first] = storage
            }
            #expect(sharedPairs > 500)
        }
    }

    // MARK: - Resolving

    /// The identities a container hands out, numbered in the order first seen: what two
    /// containers agree on when they share and separate instances alike.
    static func identities(of container: Container, injectors: [InjectorName]) -> [Int] {
        let scope = Scope(container: container)
        var seen: [ObjectIdentifier: Int] = [:]
        var held: [AnyObject] = []  // weak instances stay alive while compared
        var pattern: [Int] = []
        func note(_ object: AnyObject?) {
            guard let object else { return pattern.append(-1) }
            held.append(object)
            let id = ObjectIdentifier(object)
            if seen[id] == nil { seen[id] = seen.count }
            pattern.append(seen[id]!)
            // A chain's wrappers: what each wrapped.
            if let wrapped = object as? SharesWrappedWidget { note(wrapped.inner) }
        }
        for injector in injectors {
            note(try? scope.resolve((any Widget).self, injector: injector))
            note(try? scope.resolve((any Gadget).self, injector: injector))
            note(try? scope.resolve((any Sprocket).self, injector: injector))
            let elements = (try? scope.resolve([any Widget].self, injector: injector)) ?? []
            pattern.append(elements.count)
            for element in elements { note(element) }
            // Asked again: what is kept is the same object.
            note(try? scope.resolve((any Gadget).self, injector: injector))
            note(try? scope.resolve((any Widget).self, injector: injector))
        }
        withExtendedLifetime(held) {}
        return pattern
    }

    @Test func containersCompiledOnOneCoreAndOnEightResolveAlike() throws {
        let catalog = try Self.catalog()
        let manifest = try Self.load(Self.generated(injectorCount: 3_000, seed: 23, loneAt: [0, 2_999]))
        let result = try Activation.validate(manifest, catalog: catalog)
        let injectors = Self.injectors(3_000)
        // Every seventh injector, and those near where shares of two or three end.
        let sample = injectors.indices.filter { $0 % 7 == 0 || (1_400..<1_600).contains($0) || (950..<1_050).contains($0) }
            .map { injectors[$0] }
        var patterns: [[Int]] = []
        for cores in [1, 2, 8] {
            let container = Container(catalog: catalog, activation: Activation.compile(result, of: manifest, catalog: catalog, cores: cores))
            patterns.append(Self.identities(of: container, injectors: sample))
        }
        #expect(patterns[1] == patterns[0])
        #expect(patterns[2] == patterns[0])
    }

    /// Widget and Gadget bound to one factory with one lifetime and equal parameters, however
    /// written, resolve to one object; another injector, lifetime or value does not.
    @Test func oneObjectServesTheTypesOfOneGroupInALargeManifest() throws {
        let catalog = try Self.catalog()
        var entries: [String] = []
        let injectors = Self.injectors(4_200)
        for (offset, injector) in injectors.enumerated() {
            let (widgetText, gadgetText) = (Self.tagTexts[offset % 4], Self.tagTexts[(offset + 1) % 4])
            entries.append(#"{"protocol": "Widget", "factory": "tagged", "lifetime": "singleton", "injector": "\#(injector.rawValue)", "parameters": \#(widgetText)}"#)
            // Every fifth injector: Gadget's value differs; every seventh, its lifetime.
            let gadget = offset % 5 == 0 ? Self.tagTexts[4] : gadgetText
            let lifetime = offset % 7 == 0 ? "weak" : "singleton"
            entries.append(#"{"protocol": "Gadget", "factory": "tagged", "lifetime": "\#(lifetime)", "injector": "\#(injector.rawValue)", "parameters": \#(gadget)}"#)
        }
        let manifest = try Self.load(Data(("{\"format\": 1, \"bindings\": [\n" + entries.joined(separator: ",\n") + "\n]}").utf8))
        let result = try Activation.validate(manifest, catalog: catalog)
        // One factory holds every binding: no share may split it, so one share does all.
        #expect(Activation.compileShares(result, of: manifest, catalog: catalog, keeping: [:], cores: 8).count == 1)
        let container = Container(catalog: catalog, activation: Activation.compile(result, of: manifest, catalog: catalog, cores: 8))
        var objects: [AnyObject] = []
        for (offset, injector) in injectors.enumerated() where offset % 3 == 0 || offset > 4_150 {
            let widget = try container.resolve((any Widget).self, from: injector)
            let gadget = try container.resolve((any Gadget).self, from: injector)
            objects += [widget, gadget]
            let same = widget === gadget
            #expect(same == (offset % 5 != 0 && offset % 7 != 0), "injector \(offset)")
            #expect(widget.tag == "a-1")
        }
        withExtendedLifetime(objects) {}
    }

    // MARK: - Share boundaries

    /// The places of each share, and the factory of each place.
    static func shares(_ result: ValidationResult, _ manifest: Manifest, _ catalog: FactoryCatalog, cores: Int) -> [[Int]] {
        Activation.compileShares(result, of: manifest, catalog: catalog, keeping: [:], cores: cores).map { $0.bindings.map(\.place) }
    }

    /// Every place once, in no more shares than cores, no factory in two shares.
    static func expectWholeFactories(
        _ shares: [[Int]], of result: ValidationResult, cores: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(shares.flatMap { $0 }.sorted() == Array(result.bindings.indices), sourceLocation: sourceLocation)
        #expect(shares.count <= max(1, cores), sourceLocation: sourceLocation)
        #expect(!shares.contains { $0.isEmpty }, sourceLocation: sourceLocation)
        var owner: [Int: Int] = [:]
        for (share, places) in shares.enumerated() {
            for place in places {
                let factory = result.bindings[place].factoryPlace
                #expect(owner[factory, default: share] == share, "factory \(factory) split", sourceLocation: sourceLocation)
                owner[factory] = share
            }
            // Within a share, factory by factory, each factory's bindings in manifest order.
            let factories = places.map { result.bindings[$0].factoryPlace }
            #expect(factories == factories.sorted(), sourceLocation: sourceLocation)
            var byFactory: [Int: [Int]] = [:]
            for place in places { byFactory[result.bindings[place].factoryPlace, default: []].append(place) }
            #expect(byFactory.values.allSatisfy { $0 == $0.sorted() }, sourceLocation: sourceLocation)
        }
    }

    /// The share sizes the rule gives: `shares` even parts, each ending at the first factory end
    /// (in factory order) at or after its part and the share before it; empty shares dropped.
    static func expectedSizes(_ result: ValidationResult, cores: Int) -> [Int] {
        let count = result.bindings.count
        var perFactory: [Int: Int] = [:]
        for binding in result.bindings { perFactory[binding.factoryPlace, default: 0] += 1 }
        var factoryEnds: [Int] = []
        var total = 0
        for factory in perFactory.keys.sorted() {
            total += perFactory[factory]!
            factoryEnds.append(total)
        }
        let shares = max(1, min(cores, count / ParallelMap.itemsPerShare))
        var ends: [Int] = [], last = 0
        for share in 1...shares {
            let end = factoryEnds.first { $0 >= max(last, share * count / shares) } ?? count
            ends.append(end)
            last = end
        }
        return zip([0] + ends, ends).map { $1 - $0 }.filter { $0 > 0 }
    }

    @Test func aBoundaryAtAFactoryChangeStaysThere() throws {
        let catalog = try Self.catalog()
        // 4,096 bindings of widget-0, then 4,096 of widget-1: the even split falls where the factory changes.
        let injectors = Self.injectors(2 * ParallelMap.itemsPerShare)
        let manifest = try Self.load(Self.plain(injectors.enumerated().map { offset, injector in
            ("Widget", offset < ParallelMap.itemsPerShare ? "widget-0" : "widget-1", injector)
        }))
        let result = try Activation.validate(manifest, catalog: catalog)
        let two = Self.shares(result, manifest, catalog, cores: 2)
        Self.expectWholeFactories(two, of: result, cores: 2)
        #expect(two.map(\.count) == [ParallelMap.itemsPerShare, ParallelMap.itemsPerShare])
        for cores in [1, 3, 8] { Self.expectWholeFactories(Self.shares(result, manifest, catalog, cores: cores), of: result, cores: cores) }
        try Self.expectEveryCoreAgrees(manifest, catalog: catalog)
    }

    /// Factories of sizes around 4,096 (a factory of one binding right at a split, a split one
    /// binding into a factory, one binding short of two shares), each bound in manifest order
    /// unlike factory order: every share is whole factories, ending where the rule says.
    @Test func sharesEndAtTheFirstFactoryEndAfterTheirPart() throws {
        let catalog = try Self.catalog()
        let share = ParallelMap.itemsPerShare
        let layouts: [[Int]] = [
            [share - 1, 1, share],  // widget-1, one binding, ends exactly at the split
            [share, 1, share - 1],
            [share + 1, share - 1],  // the split moves one binding on
            [1, share - 1, 1, share - 1, 2],
            [2 * share - 1],  // one short of two shares: one share
            [3 * share + 7, 1, 1, 1],  // one factory holds most
        ]
        for sizes in layouts {
            // Widget factories by size, their bindings dealt round-robin so each factory is spread out.
            var queues = sizes.enumerated().map { Array(repeating: "widget-\($0.offset)", count: $0.element) }
            var factories: [String] = []
            while queues.contains(where: { !$0.isEmpty }) {
                for index in queues.indices where !queues[index].isEmpty { factories.append(queues[index].removeLast()) }
            }
            let injectors = Self.injectors(factories.count)
            let manifest = try Self.load(Self.plain(zip(factories, injectors).map { ("Widget", $0, $1) }))
            let result = try Activation.validate(manifest, catalog: catalog)
            for cores in [1, 2, 3, 8] {
                let shares = Self.shares(result, manifest, catalog, cores: cores)
                Self.expectWholeFactories(shares, of: result, cores: cores)
                #expect(shares.map(\.count) == Self.expectedSizes(result, cores: cores), "\(sizes), \(cores) cores")
            }
            if sizes.count == 5 { try Self.expectEveryCoreAgrees(manifest, catalog: catalog, cores: [3]) }
        }
    }

    @Test func aBoundaryInsideAFactoryMovesToItsEnd() throws {
        let catalog = try Self.catalog()
        // Factory sizes around the even split of 3 shares, with one-binding factories (lone-k)
        // right where a split falls, and manifest order unlike factory order.
        let count = 3 * ParallelMap.itemsPerShare + 5
        let injectors = Self.injectors(count)
        var entries: [(String, String, InjectorName)] = []
        for (offset, injector) in injectors.enumerated() {
            switch offset {
            case count / 3 - 1, count / 3, 2 * count / 3: entries.append(("Sprocket", "lone-\(offset % 3)", injector))
            case 2 * count / 3 + 1: entries.append(("Sprocket", "lone-3", injector))
            default:
                // Interleaved: widget-0 takes most, widget-1 every third, widget-2 every 97th.
                let factory = offset % 97 == 0 ? "widget-2" : offset % 3 == 0 ? "widget-1" : "widget-0"
                entries.append(("Widget", factory, injector))
            }
        }
        let manifest = try Self.load(Self.plain(entries))
        let result = try Activation.validate(manifest, catalog: catalog)
        for cores in [2, 3, 4, 8, 64] {
            Self.expectWholeFactories(Self.shares(result, manifest, catalog, cores: cores), of: result, cores: cores)
        }
        // widget-0, the first factory, holds more than half: the first of two shares is all of it.
        let widget0 = entries.filter { $0.1 == "widget-0" }.count
        #expect(Self.shares(result, manifest, catalog, cores: 2).map(\.count) == [widget0, count - widget0])
        for cores in [2, 3, 8] {
            #expect(Self.shares(result, manifest, catalog, cores: cores).map(\.count) == Self.expectedSizes(result, cores: cores))
        }
        try Self.expectEveryCoreAgrees(manifest, catalog: catalog, cores: [2, 3, 8])
    }

    @Test func manyOneBindingFactoriesSplitEvenly() throws {
        // Factories of one binding each: every split falls between two factories.
        var catalog = FactoryCatalog()
        let count = 2 * ParallelMap.itemsPerShare + 2
        for k in 0..<count { catalog.register("solo-\(k)", product: Part.self, provides: (any Widget).self) { Part(tag: "s\(k)") } }
        let injectors = Self.injectors(count)
        // Bound in reverse registration order: factory order is the manifest's backwards.
        let manifest = try Self.load(Self.plain(injectors.enumerated().map { ("Widget", "solo-\(count - 1 - $0.offset)", $0.element) }))
        let result = try Activation.validate(manifest, catalog: catalog)
        let two = Self.shares(result, manifest, catalog, cores: 2)
        Self.expectWholeFactories(two, of: result, cores: 2)
        #expect(two.map(\.count) == [count / 2, count / 2])
        Self.expectWholeFactories(Self.shares(result, manifest, catalog, cores: 8), of: result, cores: 8)
        try Self.expectEveryCoreAgrees(manifest, catalog: catalog, cores: [8])
    }

    @Test func smallManifestsAndOddCoreCountsTakeOneShare() throws {
        let catalog = try Self.catalog()
        let small = try Self.load(Self.generated(injectorCount: 50, seed: 5))
        let result = try Activation.validate(small, catalog: catalog)
        for cores in [-3, 0, 1, 2, 8, .max] {
            let shares = Self.shares(result, small, catalog, cores: cores)
            #expect(shares.count == 1)
            Self.expectWholeFactories(shares, of: result, cores: 1)
        }
        // An empty manifest: no share, an empty table.
        let empty = Manifest(bindings: [])
        let none = try Activation.validate(empty, catalog: catalog)
        #expect(Activation.compileShares(none, of: empty, catalog: catalog, keeping: [:], cores: 8).isEmpty)
        #expect(Activation.compile(none, of: empty, catalog: catalog, cores: 8).compiledBindings.isEmpty)
        // Any core count compiles a large one as one core does, even more cores than shares or none.
        let large = try Self.load(Self.generated(injectorCount: 2_100, seed: 6))
        try Self.expectEveryCoreAgrees(large, catalog: catalog, cores: [.max])
    }

    // MARK: - Kept storages

    /// Every storage an activation keeps, by the key `compile(keeping:)` reads, as a reset keeps them.
    static func keptStorages(of activation: Activation, where keep: (Int) -> Bool) -> [Activation.StorageKey: any LifetimeStorage] {
        var kept: [Activation.StorageKey: any LifetimeStorage] = [:]
        for binding in activation.compiledBindings {
            if let described = binding.described, keep(described.index) { kept[Activation.StorageKey(described.index, .binding)] = binding.storage }
        }
        for chain in activation.chains where keep(chain.index) {
            for (key, binding) in chain.storages { kept[key] = binding.storage }
        }
        return kept
    }

    @Test func keptStoragesLandWhereOneCoreLandsThem() throws {
        let catalog = try Self.catalog()
        let manifest = try Self.load(Self.generated(injectorCount: 2_100, seed: 31, loneAt: [0, 1_050, 2_099]))
        #expect(manifest.bindings.count >= 2 * ParallelMap.itemsPerShare)  // two shares at least
        let result = try Activation.validate(manifest, catalog: catalog)
        let base = Activation.compile(result, of: manifest, catalog: catalog, cores: 1)
        // Everything kept, then two thirds (so a group's first binding may have none kept while a later one has).
        for keep in [{ (_: Int) in true }, { (index: Int) in index % 3 != 1 }] {
            let kept = Self.keptStorages(of: base, where: keep)
            // Each kept storage named by the first label it was kept under.
            var names: [ObjectIdentifier: String] = [:]
            for (label, binding) in Self.labelled(base) where names[ObjectIdentifier(binding.storage)] == nil {
                names[ObjectIdentifier(binding.storage)] = label
            }
            let one = Self.shape(Activation.compile(result, of: manifest, catalog: catalog, keeping: kept, cores: 1), kept: names)
            for cores in [3, 8] {
                let many = Self.shape(Activation.compile(result, of: manifest, catalog: catalog, keeping: kept, cores: cores), kept: names)
                #expect(many.kept == one.kept, "\(cores) cores")
                #expect(many == one, "\(cores) cores")
            }
            // Kept whole, the storages fall as they did, and each singleton's is the one it was.
            if kept.count == Self.keptStorages(of: base, where: { _ in true }).count {
                #expect(one.storages == Self.shape(base).storages)
                for binding in base.compiledBindings where binding.described?.lifetime == .singleton {
                    let label = "b\(binding.described!.index)"
                    #expect(one.kept[label] != "new", "\(label) kept")
                }
            }
        }
    }

    /// Widget, Gadget or Sprocket (0, 1, 2) from `injector`.
    static func resolve(_ type: Int, from injector: InjectorName, in container: Container) throws -> AnyObject {
        switch type {
        case 0: try container.resolve((any Widget).self, from: injector)
        case 1: try container.resolve((any Gadget).self, from: injector)
        default: try container.resolve((any Sprocket).self, from: injector)
        }
    }

    /// A reset of one type, through the container (on this machine's cores): every singleton
    /// that shares no storage with a Gadget binding keeps its instance, every Gadget singleton is made anew.
    @Test func resettingOneTypeKeepsEveryOtherSingletonInALargeManifest() throws {
        let catalog = try Self.catalog()
        let manifest = try Self.load(Self.generated(injectorCount: 2_100, seed: 41))
        let container = try Container(catalog: catalog, manifest: manifest)
        let base = container.currentActivation()
        let gadgetStorages = Set(base.keepingBindings.filter { $0.key.id == Self.types[1] }.map { ObjectIdentifier($0.storage) })
        let chained = Set(base.chains.flatMap { $0.storages.map { ObjectIdentifier($0.binding.storage) } })
        let injectors = Self.injectors(2_100).enumerated().filter { $0.offset % 5 == 0 }.map(\.element)
        var before: [(CompiledBinding, AnyObject)] = []
        for injector in injectors {
            for type in 0..<3 {
                guard let binding = base.binding(serving: Self.types[type], from: injector), binding.injector == injector,
                    binding.described?.lifetime == .singleton
                else { continue }
                before.append((binding, try Self.resolve(type, from: injector, in: container)))
            }
        }
        container.reset((any Gadget).self)
        var kept = 0, renewed = 0
        for (binding, object) in before {
            // A chain is renewed whole when any of its storages is (the decorated binding's own too).
            let storage = ObjectIdentifier(binding.storage)
            guard !chained.contains(storage), binding.described?.decorators.isEmpty == true else { continue }
            let again = try Self.resolve(Self.types.firstIndex(of: binding.key.id)!, from: binding.injector, in: container)
            let same = again === object
            if gadgetStorages.contains(storage) {
                #expect(!same, "\(binding.key.name) in \(binding.injector.rawValue) shares with a Gadget")
                renewed += 1
            } else {
                #expect(same, "\(binding.key.name) in \(binding.injector.rawValue) kept")
                kept += 1
            }
        }
        #expect(kept > 50 && renewed > 50)
    }

    /// A re-activation that changes one injector's Widget keeps every other injector's singletons.
    @Test func reactivatingALargeManifestKeepsWhatDidNotChange() throws {
        let catalog = try Self.catalog()
        let data = Self.generated(injectorCount: 2_100, seed: 43)
        let manifest = try Self.load(data)
        let container = try Container(catalog: catalog, manifest: manifest)
        let base = container.currentActivation()
        let changed = try #require(manifest.bindings.firstIndex {
            $0.protocolName == "Widget" && !$0.isCollectionElement && $0.injector.rawValue == "i1500" })
        var edited = manifest
        edited.bindings[changed].factory = "widget-5"
        edited.bindings[changed].parameters = nil
        edited.bindings[changed].decorators = []
        var before: [(InjectorName, AnyObject)] = []
        for injector in Self.injectors(2_100).enumerated().filter({ $0.offset % 7 == 0 || $0.offset == 1_500 }).map(\.element) {
            guard let binding = base.binding(serving: Self.types[1], from: injector), binding.injector == injector,
                binding.described?.lifetime == .singleton
            else { continue }
            before.append((injector, try container.resolve((any Gadget).self, from: injector)))
        }
        try container.activate(edited)
        #expect(before.count > 50)
        for (injector, object) in before {
            // A Gadget's need is nothing: each unchanged Gadget binding keeps its storage, shared or not.
            let same = try container.resolve((any Gadget).self, from: injector) === object
            #expect(same, "Gadget in \(injector.rawValue)")
        }
        #expect(container.currentActivation().binding(serving: Self.types[0], from: "i1500")?.definition.name == "widget-5")
    }

    // MARK: - Threads

    /// Compiles on eight threads each, several at once, from a task group: each what one core makes.
    @Test func concurrentCompilesOnEveryCoreAgree() async throws {
        let catalog = try Self.catalog()
        let manifest = try Self.load(Self.generated(injectorCount: 2_100, seed: 53))
        #expect(manifest.bindings.count >= 2 * ParallelMap.itemsPerShare)  // two shares at least
        let result = try Activation.validate(manifest, catalog: catalog)
        let expected = Self.shape(Activation.compile(result, of: manifest, catalog: catalog, cores: 1))
        let shapes = await withTaskGroup(of: Shape.self) { group in
            for round in 0..<4 {
                group.addTask { Self.shape(Activation.compile(result, of: manifest, catalog: catalog, cores: round % 2 == 0 ? 8 : 3)) }
            }
            var shapes: [Shape] = []
            for await shape in group { shapes.append(shape) }
            return shapes
        }
        #expect(shapes.count == 4)
        for shape in shapes { #expect(shape == expected) }
    }

    // MARK: - GroupedOrder and validation

    @Test func groupedOrderIsAStableCountingSortWithStraysLast() {
        let keys = [3, -1, 0, 3, 7, 1, 0, 2, 99, 1, 3, Int.min, Int.max]
        let order = GroupedOrder(count: keys.count, keyCount: 4) { keys[$0] }
        #expect(order.places == [2, 6, 5, 9, 7, 0, 3, 10, 1, 4, 8, 11, 12])
        // Each group's size, strays counted in the last: what a type's record is made with room for.
        #expect((0..<4).map(order.size(of:)) == [2, 2, 1, 3])
        #expect(order.size(of: -1) == 5 && order.size(of: 4) == 5 && order.size(of: Int.max) == 5)
        #expect(GroupedOrder(count: 0, keyCount: 4) { _ in 0 }.places.isEmpty)
        #expect(GroupedOrder(count: 3, keyCount: 0) { $0 }.places == [0, 1, 2])
        #expect(GroupedOrder(count: 3, keyCount: -2) { $0 - 1 }.places == [0, 1, 2])
        // Random keys: a permutation, sorted by key (strays as keyCount), stable, with each group's size.
        var random = SplitMix(seed: 7)
        let many = (0..<5_000).map { _ in Int(random.next() % 40) - 3 }
        let grouped = GroupedOrder(count: many.count, keyCount: 30) { many[$0] }
        let effective = many.map { $0 >= 0 && $0 < 30 ? $0 : 30 }
        #expect(grouped.places == many.indices.sorted { (effective[$0], $0) < (effective[$1], $1) })
        for key in 0...30 { #expect(grouped.size(of: key) == effective.filter { $0 == key }.count) }
    }

    /// Validation fills its serving table type by type: duplicates of several types, interleaved
    /// across a large manifest, are each found, and the first of each stays in effect.
    @Test func duplicatesOfSeveralTypesAreFoundWhateverTheOrder() throws {
        let catalog = try Self.catalog()
        let count = 4_200
        let injectors = Self.injectors(count)
        var entries: [(String, String, InjectorName)] = []
        for injector in injectors {
            entries += [("Widget", "widget-0", injector), ("Gadget", "gadget-0", injector)]
        }
        // Repeats, Gadget's before Widget's in the manifest, Widget's of a type numbered first.
        entries += [("Gadget", "gadget-1", injectors[2_000]), ("Widget", "widget-1", injectors[10]),
                    ("Gadget", "gadget-2", injectors[10]), ("Widget", "widget-2", injectors[count - 1])]
        let manifest = try Self.load(Self.plain(entries))
        let result = ManifestValidator(catalog: catalog).run(manifest)
        let duplicates = result.diagnostics.filter { $0.code == .duplicateBinding }
        #expect(duplicates.count == 8)
        // Binding N stands on line N + 2 of the file.
        let written = [2 * 2_000 + 1, 2 * 10, 2 * 10 + 1, 2 * (count - 1)] + (0..<4).map { 2 * count + $0 }
        #expect(Set(duplicates.map(\.line)) == Set(written.map { $0 + 2 }))
        // Without those, the manifest compiles with Widget and Gadget served by their first binding everywhere.
        let clean = try Self.load(Self.plain(Array(entries.prefix(2 * count))))
        let (_, activation) = try Self.expectEveryCoreAgrees(clean, catalog: catalog, cores: [2])
        #expect(activation.binding(serving: Self.types[1], from: injectors[2_000])?.definition.name == "gadget-0")
    }
}
