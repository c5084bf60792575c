import Foundation
@testable import Patchbay
import Testing

/// A hostile user's attack on activation on every core (cc0c892): bindings decoded in runs, and
/// parameters checked after the binding loop on several threads. Seeded random manifests of every
/// odd shape must read, and validate, exactly as on one core: the same decoded values, the same
/// diagnostics (codes, messages, positions, order) and the same bindings in effect.
struct EveryCoreAttackTests {
    struct Options: Decodable, Sendable, CustomStringConvertible {
        struct Inner: Decodable, Sendable { var flags: [Bool]; var label: String }
        var tag: String
        var size: Int
        var inner: Inner?
        var description: String { "\(tag)/\(size)/\(inner.map { "\($0.flags)\($0.label)" } ?? "-")" }
    }

    /// Refused by the real type alone: a shape the catalog records cannot say `n` must not be negative.
    struct Ranged: Decodable, Sendable, CustomStringConvertible {
        var n: Int
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            n = try container.decode(Int.self, forKey: .n)
            guard n >= 0 else {
                throw DecodingError.dataCorruptedError(forKey: .n, in: container, debugDescription: "n is negative")
            }
        }
        private enum CodingKeys: String, CodingKey { case n }
        var description: String { "n\(n)" }
    }

    struct Level: Decodable, Sendable { var level: Int }

    static func catalog() -> FactoryCatalog {
        var catalog = FactoryCatalog()
        catalog.register("sized", provides: (any Widget).self, parameters: Options.self) { Part(tag: $0.tag, serial: $0.size) }
        catalog.register("ranged", provides: (any Widget).self, parameters: Ranged.self) { Part(serial: $0.n) }
        catalog.register("plain-widget", provides: (any Widget).self) { Part(tag: "plain") }
        catalog.register("prod-widget", provides: (any Widget).self, environments: .only("production")) { Part(tag: "prod") }
        catalog.register("gadget-sized", provides: (any Gadget).self, parameters: Options.self) { Part(tag: $0.tag) }
        catalog.registerDecorator("wrap", decorates: (any Widget).self) { (inner: any Widget) in inner }
        catalog.registerDecorator("leveled", decorates: (any Widget).self, parameters: Level.self) {
            (inner: any Widget, _: Level) in inner
        }
        catalog.registerDecorator("gadget-wrap", decorates: (any Gadget).self) { (inner: any Gadget) in inner }
        return catalog
    }

    // MARK: - Manifests of every odd shape

    private static func pick<T>(_ choices: [T], _ random: inout SplitMix) -> T { choices[Int(random.next() % UInt64(choices.count))] }

    static let parameters = [
        nil, #"{"tag": "t", "size": 3}"#, #"{"tag": "t", "size": "three"}"#, #"{"size": 1}"#,
        #"{"tag": "t", "size": 2, "sise": 1, "extra": [1, {"x": "]}, {"}]}"#,
        #"{"tag": "}, {\"protocol\": ]", "size": 4, "inner": {"flags": [true, false], "label": "[]{}"}}"#,
        #"{"tag": "t", "size": 5, "inner": {"flags": [1], "label": 2}}"#, #"{"tag": "${ATTACK_UNSET}", "size": 1}"#,
        #"{"tag": "t", "size": "${ATTACK_UNSET:-7}"}"#, #"{"tag": "t", "size": "${ATTACK_UNSET:-x}"}"#, "5", "[]", "null",
        #"{"n": -1}"#, #"{"n": 2}"#, #"{"t\u0061g": "\u00e9\r\n", "size": 9223372036854775808}"#, "{}",
        #"{"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7, "h": 8, "i": 9, "j": 10, "k": 11, "tag": "t", "size": 1}"#,
    ]
    static let decorators = [
        nil, #"["wrap"]"#, #"[{"decorator": "leveled", "parameters": {"level": "x"}}]"#,
        #"[{"decorator": "leveled", "parameters": {"level": 2}}, "wrap"]"#, #"["nope"]"#, #"["gadget-wrap"]"#, "7",
        #"[{"decorator": "leveled"}]"#, #"[{"decorator": "leveled", "parameters": 3}]"#, #"["wrap", "wrap"]"#,
    ]

    /// One binding: an object of random keys and values, or now and then not an object at all.
    static func binding(_ index: Int, _ random: inout SplitMix) -> String {
        switch random.next() % 40 {
        case 0: return pick(["17", "null", "[1, [2], {\"a\": \"]\"}]", #""}, {\"protocol\": \"A\"}, ]""#, "true", "{}"], &random)
        default: break
        }
        var members: [String] = []
        let typeKey = pick(["\"protocol\"", "\"protocol\"", "\"protocol\"", "\"proto\\u0063ol\"", "\"collection\""], &random)
        if random.next() % 30 != 0 {
            members.append(typeKey + ": " + pick(["\"Widget\"", "\"Widget\"", "\"Gadget\"", "\"Widgit\"", "\"Nope\(index)\"", "3", "\"\""], &random))
        }
        // Both keys (a problem of its own), but no key twice: a repeated key keeps the parser from decoding.
        if random.next() % 30 == 0, typeKey != "\"collection\"" { members.append(#""collection": "Widget""#) }
        if random.next() % 25 != 0 {
            let factories = ["\"sized\"", "\"sized\"", "\"ranged\"", "\"plain-widget\"", "\"prod-widget\"", "\"gadget-sized\"",
                             "\"sizd\"", "\"wrap\"", "\"f\\u0061ctory-\\u00e9\"", "4", "\"\""]
            members.append("\"factory\": " + pick(factories, &random))
        }
        if random.next() % 3 == 0 {
            let injectors = ["\"primary\"", "\"secondary\"", "\"i0\"", "\"i1\"", "\"i3\"", "\"i\\u0034\"", "\"\"", "null"]
            members.append("\"injector\": " + pick(injectors, &random))
        }
        if random.next() % 4 == 0 {
            members.append("\"lifetime\": " + pick(["\"weak\"", "\"singleton\"", "\"transient\"", "\"bogus\"", "1", "\"w\\u0065ak\""], &random))
        }
        if let parameters = pick(parameters, &random) { members.append("\"parameters\": " + parameters) }
        if random.next() % 3 == 0, let decorators = pick(decorators, &random) { members.append("\"decorators\": " + decorators) }
        if random.next() % 40 == 0 { members.append("\"facotry\": \"x\"") }
        if random.next() % 50 == 0 { members.append("\"note\": \"" + String(repeating: "\\\"}, {]", count: 300) + "\"") }
        let separator = pick([", ", ",\r\n  ", ",\n", ","], &random)
        return "{" + members.joined(separator: separator) + "}"
    }

    /// A whole manifest of `count` random bindings, its top level shuffled and now and then odd.
    static func manifest(count: Int, seed: UInt64, environment: String? = nil) -> String {
        var random = SplitMix(seed: seed)
        let bindings = (0..<count).map { binding($0, &random) }.joined(separator: pick([",\n", ",\r\n", ", "], &random))
        var top = ["\"format\": 1", pick(["\"bindings\"", "\"bindings\"", "\"bind\\u0069ngs\""], &random) + ": [\n" + bindings + "\n]"]
        let environments = ["\"production\"", "\"staging\"", "\"\\u0070roduction\"", "3", "null", "[\"production\"]"]
        if let environment { top.append("\"environment\": \"\(environment)\"") } else if random.next() % 2 == 0 {
            top.append(pick(["\"environment\"", "\"envir\\u006fnment\""], &random) + ": " + pick(environments, &random))
        }
        if random.next() % 2 == 0 { top.append("\"injectors\": [\"i0\", \"i1\", \"i2\"]") }
        if random.next() % 3 == 0 {
            top.append(#""decorate": [{"protocol": "Widget", "add": [{"decorator": "leveled", "parameters": {"level": "bad"}}, "wrap"]}]"#)
        }
        if random.next() % 4 == 0 { top.append("\"unknown\": {\"bindings\": [1, 2]}") }
        if random.next() % 2 == 0 { top.reverse() }
        return "{" + top.joined(separator: ",\n") + "}\n"
    }

    // MARK: - Decoding in runs

    /// What a document decoded to, field by field (a `BindingDocument` is not `Equatable`).
    static func summary(_ document: ManifestDocument?) -> [String]? {
        guard let document else { return nil }
        return ["\(document.environment ?? "nil")", "\(document.extends ?? "nil")"] + (document.bindings ?? []).map {
            "\($0.isDecoded) \($0.protocolName ?? "nil") \($0.factory ?? "nil") \($0.lifetime ?? "nil") \($0.injector ?? "nil")"
        }
    }

    @Test(arguments: 0..<12)
    func randomManifestsDecodeInRunsAsTheWholeFile(seed: UInt64) throws {
        let data = Data(Self.manifest(count: 520 + Int(seed) * 97, seed: seed).utf8)
        let root = try #require(JSONScanner.scan(data, maxBytes: .max, maxDepth: 64).root)
        let whole = Self.summary(try? JSONDecoder().decode(ManifestDocument.self, from: data))
        #expect(whole != nil)
        for cores in [1, 2, 3, 8] {
            #expect(Self.summary(ManifestDocument.decode(root: root, cores: cores)) == whole, "cores \(cores), seed \(seed)")
        }
    }

    @Test func oddTopLevelsDecodeInRunsAsTheWholeFile() throws {
        let bindings = (0..<600).map { #"{"protocol": "P\#($0)", "factory": "f"}"# }.joined(separator: ",")
        let tops = [
            #"{"environment": 3, "extends": ["a"], "bindings": [\#(bindings)]}"#,
            #"{"\u0065nvironment": "e\u0301", "ext\u0065nds": "p\u00e9.json", "bind\u0069ngs": [\#(bindings)]}"#,
            #"{"environment": null, "extends": {}, "bindings": [\#(bindings)], "format": 1}"#,
            #"{"bindings": {"0": [\#(bindings)]}, "environment": "e"}"#,
            #"{"bindings": "[\#(bindings.replacingOccurrences(of: "\"", with: "\\\""))]"}"#,
            #"{"other": [\#(bindings)], "bindings": []}"#,
            #"{"bindings": [\#(bindings)], "bindings": [1]}"#,  // repeated: both readers keep the first
            "{\r\n\"bindings\"\r\n:\r\n[\r\n" + bindings.replacingOccurrences(of: ",{", with: "\r\n,\r\n{") + "\r\n]\r\n}",
            #"[{"bindings": [\#(bindings)]}]"#,
        ]
        for (offset, top) in tops.enumerated() {
            let data = Data(top.utf8)
            let root = try #require(JSONScanner.scan(data, maxBytes: .max, maxDepth: 64).root)
            let whole = Self.summary(try? JSONDecoder().decode(ManifestDocument.self, from: data))
            for cores in [2, 3, 8] {
                #expect(Self.summary(ManifestDocument.decode(root: root, cores: cores)) == whole, "top level \(offset), cores \(cores)")
            }
        }
    }

    /// The parser end to end: a file read with its bindings decoded (in runs, on this machine's
    /// cores) against the same file with a repeated `$schema` added, which keeps the parser from
    /// decoding it at all, so that every binding is read member by member from its place.
    @Test(arguments: 0..<6)
    func bindingsDecodedInRunsParseAsBindingsReadFromTheirPlaces(seed: UInt64) throws {
        let text = Self.manifest(count: 700, seed: 1_000 + seed)
        let undecoded = String(text.dropLast(2)) + ",\n\"$schema\": \"a\", \"$schema\": \"b\"}\n"
        var decoded = ManifestParser(file: "runs.json", maxBytes: .max, maxDepth: 64)
        var members = ManifestParser(file: "runs.json", maxBytes: .max, maxDepth: 64)
        let left = decoded.parse(Data(text.utf8)), right = members.parse(Data(undecoded.utf8))
        #expect(left != nil && left?.bindings.count == right?.bindings.count)
        #expect(members.diagnostics.filter { $0.code == .duplicateKey }.count == 1)  // the `$schema` alone
        #expect(Self.firstDifference(left?.bindings ?? [], right?.bindings ?? []) == nil)
        #expect(Self.firstDifference(decoded.diagnostics, members.diagnostics.filter { $0.code != .duplicateKey }) == nil)
    }

    /// Where two lists first differ, both sides shown: the whole lists would be thousands of lines.
    static func firstDifference<T: Equatable>(_ left: [T], _ right: [T]) -> String? {
        guard let index = (0..<min(left.count, right.count)).first(where: { left[$0] != right[$0] }) ?? (left.count == right.count ? nil : min(left.count, right.count))
        else { return nil }
        return "at \(index) of \(left.count)/\(right.count): \(index < left.count ? "\(left[index])" : "-") | \(index < right.count ? "\(right[index])" : "-")"
    }

    // MARK: - Parameters checked on every core

    private struct Verdict: Equatable {
        var diagnostics: [Diagnostic]
        var bindings: [String]
    }

    private static func verdict(_ validator: ManifestValidator, cores: Int, _ manifest: Manifest) -> Verdict {
        var validator = validator
        validator.cores = cores
        let result = validator.run(manifest)
        return Verdict(diagnostics: result.diagnostics, bindings: result.bindings.map {
            "\($0.index) \($0.injector.rawValue) \($0.lifetime) \($0.isBroken) \($0.decorators.count) "
                + String(describing: $0.parameters)
        })
    }

    private static func load(_ text: String, in folder: URL, name: String = "attack.json") throws -> (Manifest, [Diagnostic]) {
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        let (manifest, diagnostics) = ManifestLoader(environment: [:]).loadCollecting(contentsOf: url)
        return (try #require(manifest), diagnostics)
    }

    private static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("every-core-attack-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private static let validators: [(String, ManifestValidator)] = {
        let live = catalog()
        let description = try! CatalogDescription(jsonData: live.describe().jsonData())
        return [("live", ManifestValidator(catalog: live)), ("description", ManifestValidator(description: description))]
    }()

    @Test(arguments: 0..<10)
    func randomManifestsValidateOnEveryCoreAsOnOne(seed: UInt64) throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let count = seed % 3 == 0 ? 900 : 70 + Int(seed) * 23
        let (manifest, _) = try Self.load(Self.manifest(count: count, seed: 7_000 + seed), in: folder)
        for (name, validator) in Self.validators {
            let one = Self.verdict(validator, cores: 1, manifest)
            #expect(one.diagnostics.contains { $0.code == .invalidParameters })
            for cores in [2, 3, 8] {
                let many = Self.verdict(validator, cores: cores, manifest)
                #expect(Self.firstDifference(many.diagnostics, one.diagnostics) == nil, "\(name), cores \(cores), seed \(seed)")
                #expect(many.bindings == one.bindings, "\(name), cores \(cores), seed \(seed)")
            }
        }
    }

    /// Every binding has parameters, and most have a problem besides: far over the 4,096
    /// diagnostics where the loop starts reserving room for the rest.
    @Test func thousandsOfProblemsStandWhereOneCorePutsThem() throws {
        let bindings = (0..<3_000).map { index -> String in
            let parameters = index % 5 == 0 ? #"{"tag": "t", "size": \#(index)}"# : #"{"tag": \#(index), "sise": 1}"#
            let lifetime = index % 7 == 0 ? #", "lifetime": "bogus""# : index % 11 == 0 ? #", "lifetime": "weak""# : ""
            let decorators = index % 13 == 0 ? #", "decorators": [{"decorator": "leveled", "parameters": {"level": "x"}}]"# : ""
            return #"{"protocol": "Widget", "factory": "sized", "injector": "i\#(index % 9)""#
                + #", "parameters": \#(parameters)\#(lifetime)\#(decorators)}"#
        }
        let text = "{\"format\": 1, \"environment\": \"staging\", \"injectors\": [\"i0\", \"i1\"], \"bindings\": [\n"
            + bindings.joined(separator: ",\n") + "\n]}"
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (manifest, _) = try Self.load(text, in: folder)
        for (name, validator) in Self.validators {
            let one = Self.verdict(validator, cores: 1, manifest)
            #expect(one.diagnostics.count > 4_096)
            for cores in [2, 3, 8] {
                #expect(Self.verdict(validator, cores: cores, manifest) == one, "\(name), cores \(cores)")
            }
        }
    }

    /// A large child and a large parent: the child's bindings override the parent's, each file's
    /// bindings decoded in runs and their parameters judged after the loop over both.
    @Test func aLargeParentAndALargeChildValidateOnEveryCoreAsOnOne() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let parent = Self.manifest(count: 800, seed: 42, environment: "staging")
        try Data(parent.utf8).write(to: folder.appendingPathComponent("base.json"))
        let child = Self.manifest(count: 700, seed: 43, environment: "production")
            .replacingOccurrences(of: "{\"format\": 1", with: "{\"format\": 1, \"extends\": \"base.json\"")
            .replacingOccurrences(of: "\"format\": 1}", with: "\"format\": 1, \"extends\": \"base.json\"}")
        #expect(child.contains("base.json"))
        let (manifest, _) = try Self.load(child, in: folder, name: "child.json")
        #expect(manifest.bindings.count > 900)
        for (name, validator) in Self.validators {
            let one = Self.verdict(validator, cores: 1, manifest)
            for cores in [2, 3, 8] {
                #expect(Self.verdict(validator, cores: cores, manifest) == one, "\(name), cores \(cores)")
            }
        }
    }

    /// What the live catalog and catalog.json say of parameters' shapes is the same, on every core:
    /// only the real type's own refusals (a negative `n`) are the app's alone.
    @Test func liveAndDescribedCatalogsJudgeShapesAlikeOnEveryCore() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (manifest, _) = try Self.load(Self.manifest(count: 900, seed: 99), in: folder)
        func shapes(_ verdict: Verdict) -> [Diagnostic] {
            verdict.diagnostics.filter { [.invalidParameters, .unknownParameter].contains($0.code) && !$0.message.contains("negative") }
        }
        let (live, description) = (Self.validators[0].1, Self.validators[1].1)
        let reference = shapes(Self.verdict(live, cores: 1, manifest))
        #expect(!reference.isEmpty)
        for cores in [1, 2, 8] {
            #expect(shapes(Self.verdict(description, cores: cores, manifest)) == reference, "cores \(cores)")
        }
    }

    // MARK: - One job, one core

    /// Parameters whose decoding notes the thread it runs on.
    struct ThreadNoting: Decodable, Sendable {
        static let threads = Locked(Set<ObjectIdentifier>())
        var size: Int
        init(from decoder: any Decoder) throws {
            size = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .size)
            Self.threads.withLock { _ = $0.insert(ObjectIdentifier(Thread.current)) }
        }
        private enum CodingKeys: String, CodingKey { case size }
    }

    /// `patchbay check --jobs 1` "keeps a check to one core on a shared machine" (CommandReference):
    /// a large manifest's parameters are then all decoded on the thread that checks, not spread
    /// over every core by the validator as activation spreads them.
    @Test func oneJobChecksParametersOnOneThread() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bindings = (0..<2_000).map { #"{"protocol": "Widget", "factory": "noted", "injector": "i\#($0)", "parameters": {"size": \#($0)}}"# }
        let url = folder.appendingPathComponent("jobs.json")
        try Data(("{\"format\": 1, \"bindings\": [\n" + bindings.joined(separator: ",\n") + "\n]}").utf8).write(to: url)
        var catalog = FactoryCatalog()
        catalog.register("noted", provides: (any Widget).self, parameters: ThreadNoting.self) { Part(serial: $0.size) }
        var checker = ManifestChecker(catalog: catalog, loader: ManifestLoader(environment: [:]))
        checker.jobs = 1
        ThreadNoting.threads.withLock { $0.removeAll() }
        let report = try checker.check([url])
        #expect(!report.failed())
        #expect(ThreadNoting.threads.withLock { $0 } == [ObjectIdentifier(Thread.current)])
    }

    /// `patchbay check` over a folder of large manifests (a base extended by the others): one job
    /// (each file decoded and validated on one core) and every core say the same, live and described.
    @Test func aCheckOnOneJobSaysWhatACheckOnEveryCoreSays() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(Self.manifest(count: 600, seed: 501, environment: "staging").utf8).write(to: folder.appendingPathComponent("base.json"))
        for (offset, name) in ["production", "staging", "development"].enumerated() {
            let text = Self.manifest(count: 550 + offset * 40, seed: 510 + UInt64(offset))
                .replacingOccurrences(of: "{\"format\": 1", with: "{\"format\": 1, \"extends\": \"base.json\"")
                .replacingOccurrences(of: "\"format\": 1}", with: "\"format\": 1, \"extends\": \"base.json\"}")
            try Data(text.utf8).write(to: folder.appendingPathComponent(name + ".json"))
        }
        let live = Self.catalog()
        let description = try CatalogDescription(jsonData: live.describe().jsonData())
        for var checker in [ManifestChecker(catalog: live, loader: ManifestLoader(environment: [:])),
                            ManifestChecker(description: description, loader: ManifestLoader(environment: [:]))] {
            checker.jobs = 1
            let one = try checker.check([folder])
            checker.jobs = 0
            let every = try checker.check([folder])
            #expect(one.diagnostics.contains { $0.code == .invalidParameters })
            #expect(Self.firstDifference(every.diagnostics, one.diagnostics) == nil)
            #expect(every.notes == one.notes && every.manifestCount == one.manifestCount)
        }
    }
}

