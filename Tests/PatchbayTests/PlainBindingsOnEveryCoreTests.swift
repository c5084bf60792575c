// A hostile review of making a large manifest's plain bindings on every core
// (`ManifestParser.plainBindings`): whatever the file, a parse on 2, 3 or 8
// threads must give what a one-thread parse gives — the manifest, every
// binding's origin as a diagnostic would place it, and every diagnostic in order —
// and `patchbay check` must say the same with `--jobs 1` as with its default.
import Foundation
@testable import Patchbay
import Testing

struct PlainBindingsOnEveryCoreTests {
    // MARK: - Helpers

    /// Enough bindings for the runs: two of `ParallelMap.itemsPerShare`.
    static let least = 2 * ParallelMap.itemsPerShare

    static func parse(_ data: Data, threads: Int) -> (Manifest?, [Diagnostic]) {
        var parser = ManifestParser(file: "plain.json", maxBytes: .max, maxDepth: 64)
        parser.threads = threads
        let manifest = parser.parse(data)
        return (manifest, parser.diagnostics)
    }

    /// Each binding's origin as diagnostics report it: `==` on an origin compares only its file,
    /// pointer and depth, so the line and column of the binding and of each member are listed too.
    /// The fields are a plain binding's: where another is absent, its place is the binding's (`nil`).
    static func origins(_ manifest: Manifest?, fields: [String?] = [nil, "protocol", "factory", "lifetime", "injector"])
        -> [String] {
        (manifest?.bindings ?? []).map { binding in
            let places = fields.map { field -> String in
                let diagnostic = binding.diagnostic(.wrongType, "m", field: field, fallbackFile: "-")
                return "\(diagnostic.file):\(diagnostic.line):\(diagnostic.column) \(diagnostic.path)"
            }
            let origin = binding.origin.map { "\($0.file) \($0.pointer) \($0.depth)" } ?? "none"
            return origin + " | " + places.joined(separator: " ") + " broken \(binding.isBroken)"
        }
    }

    /// How many of the file's bindings the runs make (nil: the runs are not taken), on `threads`.
    static func madeInRuns(_ data: Data, threads: Int) -> [Bool]? {
        let document = JSONScanner.scan(data)
        guard let root = document.root, let list = root.child(named: "bindings"), list.kind == .array else { return nil }
        let decoded = document.duplicateKeys.isEmpty ? ManifestDocument.decode(root: root, cores: threads) : nil
        let source = SourceOrigin.File(name: "plain.json", depth: 0, layout: root.layout)
        guard let plain = ManifestParser.plainBindings(
            list.children, decoded: decoded?.bindings, prefix: "/bindings/", in: source, threads: threads)
        else { return nil }
        return plain.runs.flatMap { $0.map { $0 != nil } }
    }

    /// Parses `data` on one thread and on each of `threads`: each must be the one-thread parse in every
    /// respect. Below 3 × 4,096 bindings 3 threads make the runs 2 do, so a test may leave 3 out.
    static func expectAgreement(_ data: Data, _ label: String, threads: [Int] = [2, 3, 8], fields: [String?]? = nil) {
        let one = parse(data, threads: 1)
        let oneOrigins = fields.map { origins(one.0, fields: $0) } ?? origins(one.0)
        for count in threads {
            let many = parse(data, threads: count)
            #expect(many.0 == one.0, "\(label), threads \(count)")
            let manyOrigins = fields.map { origins(many.0, fields: $0) } ?? origins(many.0)
            #expect(EveryCoreAttackTests.firstDifference(manyOrigins, oneOrigins) == nil, "\(label), threads \(count)")
            #expect(EveryCoreAttackTests.firstDifference(many.1, one.1) == nil, "\(label), threads \(count)")
        }
    }

    static func plain(_ index: Int) -> String {
        switch index % 6 {
        case 0: #"{"protocol": "P\#(index)", "factory": "f\#(index)"}"#
        case 1: #"{"factory": "f\#(index)", "protocol": "P\#(index)", "lifetime": "singleton"}"#
        case 2: #"{"protocol": "P\#(index)", "factory": "f\#(index)", "lifetime": "transient", "injector": "i\#(index % 3)"}"#
        case 3: #"{"injector": "secondary",   "protocol":"P\#(index)","factory":"f\#(index)"}"#
        case 4: #"{"protocol": "P\u00e9\#(index)", "f\u0061ctory": "f\#(index)", "lifetime": "weak"}"#
        default: "{\n  \"protocol\": \"P\(index)\",\n  \"factory\": \"f\(index)\"\n}"
        }
    }

    /// Bindings that are not plain, each read member by member (and most reported).
    static let notPlain = [
        "42", "null", #""P""#, "[]", "{}", "true",
        #"{"protocol": "Q", "factory": "g", "lifetme": "singleton"}"#,
        #"{"protocol": "Q", "factory": 3}"#, #"{"protocol": 3, "factory": "g"}"#,
        #"{"protocol": "Q", "factory": "g", "lifetime": null}"#, #"{"protocol": "Q", "factory": null}"#,
        #"{"protocol": "Q", "factory": "g", "injector": ""}"#, #"{"protocol": "Q", "factory": "g", "injector": null}"#,
        #"{"protocol": "Q", "factory": "g", "lifetime": "forever"}"#, #"{"protocol": "Q", "factory": "g", "lifetime": "Singleton"}"#,
        #"{"collection": "Q", "factory": "g"}"#, #"{"protocol": "Q", "collection": "Q", "factory": "g"}"#,
        #"{"protocol": "Q", "factory": "g", "parameters": {"port": "${PORT:-5432}", "n": 1}}"#,
        #"{"protocol": "Q", "factory": "g", "parameters": 3}"#,
        #"{"protocol": "Q", "factory": "g", "decorators": ["wrap"]}"#, #"{"protocol": "Q", "factory": "g", "decorators": 7}"#,
        #"{"protocol": "", "factory": "g"}"#, #"{"protocol": "Q", "factory": ""}"#, #"{"protocol": "Q"}"#, #"{"factory": "g"}"#,
        #"{"protocol": "Q", "factory": "g", "lifetime": "singleton", "injector": "i", "x": 1}"#,
        #"{"protocol": "Q", "factory": "g", "lifetime": 1}"#, #"{"protocol": "Q", "factory": "g", "injector": ["i"]}"#,
        #"{"pr\u006ftocol": "Q", "factory": "g", "f\u0061ctori": "h"}"#,
    ]

    static func manifest(_ bindings: [String], top: String = "", separator: String = ",\n") -> Data {
        Data(("{\"format\": 1,\(top) \"bindings\": [\n" + bindings.joined(separator: separator) + "\n]}\n").utf8)
    }

    /// `count` bindings, every `every`-th not plain (cycling through ``notPlain``), and those at `offsets` too.
    static func mix(_ count: Int, every: Int?, offsets: Set<Int> = []) -> [String] {
        var odd = 0
        return (0..<count).map { index in
            guard offsets.contains(index) || every.map({ index % $0 == $0 - 1 }) == true else { return plain(index) }
            defer { odd += 1 }
            return notPlain[odd % notPlain.count]
        }
    }

    /// The offsets around each boundary of the runs, for every thread count tried.
    static func boundaries(_ count: Int) -> Set<Int> {
        var offsets: Set<Int> = [0, 1, count - 2, count - 1]
        for threads in [2, 3, 8] {
            let shares = min(threads, count / ParallelMap.itemsPerShare)
            let run = (count + shares - 1) / shares
            for share in 1..<shares { offsets.formUnion([share * run - 1, share * run, share * run + 1]) }
        }
        return offsets
    }

    // MARK: - Files

    @Test func allPlainBindingsAreMadeInRunsAsOneThreadMakesThem() throws {
        let data = Self.manifest(Self.mix(Self.least, every: nil))
        for threads in [2, 3, 8] {
            let made = try #require(Self.madeInRuns(data, threads: threads))
            #expect(made.count == Self.least && made.allSatisfy { $0 }, "threads \(threads)")
        }
        let one = Self.parse(data, threads: 1)
        #expect(one.1.isEmpty && one.0?.bindings.count == Self.least)
        Self.expectAgreement(data, "all plain")
    }

    @Test(arguments: [1, 7, 64])
    func everyKthBindingNotPlainIsReportedInOrder(every: Int) throws {
        let count = Self.least + 1_001
        let data = Self.manifest(Self.mix(count, every: every))
        let made = try #require(Self.madeInRuns(data, threads: 2))
        #expect(made.count == count)
        // Each odd element is read in the loop; each plain one is made in its run.
        #expect(made.indices.allSatisfy { made[$0] == ($0 % every != every - 1) })
        let one = Self.parse(data, threads: 1)
        #expect(!one.1.isEmpty)
        Self.expectAgreement(data, "every \(every)", threads: [2, 8])
    }

    /// Two runs on any thread count; three on 3 or 8 threads; four on 8.
    @Test(arguments: [(ParallelMap.itemsPerShare * 2, [2]), (ParallelMap.itemsPerShare * 3 + 1, [2, 3]),
                      (ParallelMap.itemsPerShare * 4 + 7, [2, 3, 8])])
    func bindingsThatAreNotPlainAtTheRunsBoundariesStandWhereOneThreadPutsThem(count: Int, threads: [Int]) throws {
        let offsets = Self.boundaries(count)
        let data = Self.manifest(Self.mix(count, every: nil, offsets: offsets))
        for threads in threads {
            let made = try #require(Self.madeInRuns(data, threads: threads))
            #expect(made.count == count)
            #expect(made.indices.allSatisfy { made[$0] != offsets.contains($0) }, "threads \(threads)")
        }
        Self.expectAgreement(data, "boundaries of \(count)", threads: threads)
    }

    /// Just under the size for runs, and at it: the smaller one is read on one thread.
    @Test func aManifestJustTooSmallForRunsIsReadAsBefore() throws {
        let small = Self.manifest(Self.mix(Self.least - 1, every: 100))
        #expect(Self.madeInRuns(small, threads: 8) == nil)
        Self.expectAgreement(small, "just too small", threads: [8])
        let enough = Self.manifest(Self.mix(Self.least, every: 100))
        #expect(Self.madeInRuns(enough, threads: 8) != nil)
        #expect(Self.madeInRuns(enough, threads: 1) == nil)
        Self.expectAgreement(enough, "just enough", threads: [2])
    }

    @Test func crlfLineEndingsPlaceEveryBindingAsOneThreadDoes() throws {
        let data = Self.manifest(Self.mix(Self.least + 333, every: 97), separator: ",\r\n")
        let text = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\n", with: "\r\n")
        let crlf = Data(text.utf8)
        #expect(Self.madeInRuns(crlf, threads: 3) != nil)
        Self.expectAgreement(crlf, "CRLF", threads: [2, 3])
    }

    /// A slice of a larger `Data` (its indices do not start at 0) reads as a copy of its bytes does.
    @Test func aSliceOfDataReadsAsItsBytesDo() throws {
        let data = Self.manifest(Self.mix(Self.least + 5, every: 50))
        let padded = Data(repeating: 0x20, count: 13) + data + Data("   ".utf8)
        let slice = padded[13..<(13 + data.count)]
        #expect(slice.startIndex == 13)
        Self.expectAgreement(slice, "slice", threads: [2])
        let copy = Self.parse(data, threads: 1)
        for threads in [1, 2] {
            let sliced = Self.parse(slice, threads: threads)
            #expect(sliced.0 == copy.0 && sliced.1 == copy.1, "threads \(threads)")
            #expect(Self.origins(sliced.0) == Self.origins(copy.0), "threads \(threads)")
        }
    }

    /// A repeated key keeps the file from being decoded: every binding is read from its place, on any thread count.
    @Test(arguments: [
        #""bindings": [], "#, #""bind\u0069ngs": [{"protocol": "X", "factory": "y"}], "#,
    ])
    func aRepeatedTopLevelKeyTakesTheOneThreadPath(extra: String) throws {
        let data = Self.manifest(Self.mix(Self.least + 10, every: 40), top: " " + extra)
        #expect(Self.madeInRuns(data, threads: 2) == nil)
        let one = Self.parse(data, threads: 1)
        #expect(one.1.contains { $0.code == .duplicateKey })
        Self.expectAgreement(data, "repeated bindings: \(extra)", threads: [2])
    }

    @Test func aRepeatedKeyInOneBindingTakesTheOneThreadPath() throws {
        var bindings = Self.mix(Self.least + 10, every: 40)
        bindings[5_000] = #"{"protocol": "A", "protocol": "B", "factory": "f"}"#
        let data = Self.manifest(bindings)
        #expect(Self.madeInRuns(data, threads: 2) == nil)
        Self.expectAgreement(data, "repeated key in a binding", threads: [2])
    }

    /// Decoded bindings that are not the elements' count are never paired with them.
    @Test func decodedBindingsOfAnotherCountAreNotTaken() throws {
        let data = Self.manifest(Self.mix(Self.least, every: nil))
        let document = JSONScanner.scan(data)
        let root = try #require(document.root)
        let list = try #require(root.child(named: "bindings"))
        let decoded = try #require(ManifestDocument.decode(root: root, cores: 2)?.bindings)
        let source = SourceOrigin.File(name: "plain.json", depth: 0, layout: root.layout)
        for wrong in [Array(decoded.dropLast()), decoded + [decoded[0]], []] {
            #expect(ManifestParser.plainBindings(list.children, decoded: wrong, prefix: "/bindings/", in: source, threads: 2) == nil)
        }
        #expect(ManifestParser.plainBindings(list.children, decoded: nil, prefix: "/bindings/", in: source, threads: 8) == nil)
        #expect(ManifestParser.plainBindings(list.children, decoded: decoded, prefix: "/bindings/", in: source, threads: 1) == nil)
        #expect(ManifestParser.plainBindings(list.children, decoded: decoded, prefix: "/bindings/", in: source, threads: 0) == nil)
        #expect(ManifestParser.plainBindings(list.children, decoded: decoded, prefix: "/bindings/", in: source, threads: .max) != nil)
    }

    /// A fault in one value (a number no decoder represents) leaves the file undecoded: read from the places.
    @Test func aFileTheDecoderCannotReadTakesTheOneThreadPath() throws {
        var bindings = Self.mix(Self.least + 10, every: 40)
        bindings[7_000] = #"{"protocol": "A", "factory": "f", "parameters": {"n": 1e999}}"#
        let data = Self.manifest(bindings)
        Self.expectAgreement(data, "undecodable", threads: [2])
    }

    /// Once at a size an app's manifest reaches; the places of the binding and its factory only, to stay fast.
    @Test func aHundredThousandBindingsAgree() throws {
        let data = Self.manifest(Self.mix(100_003, every: 1_009))
        Self.expectAgreement(data, "100,003", threads: [3], fields: [nil, "factory"])
    }

    // MARK: - Loader

    private static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("plain-cores-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private static func load(_ url: URL, threads: Int, environment: [String: String]) -> (Manifest?, [Diagnostic]) {
        var loader = ManifestLoader(environment: environment)
        loader.threads = threads
        return loader.loadCollecting(contentsOf: url)
    }

    /// A large parent and a large child, with `${...}` in parameters: the chain merged on every
    /// core is the one merged on one, each binding at its place in its own file and depth.
    @Test func aLargeParentAndChildWithInterpolationLoadAsOnOneThread() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var parent = Self.mix(Self.least + 100, every: 31)
        parent[4_096] = #"{"protocol": "P4096", "factory": "f", "parameters": {"url": "${HOST}:${PORT:-5432}", "x": "${MISSING}"}}"#
        try Self.manifest(parent, top: #" "environment": "staging","#).write(to: folder.appendingPathComponent("base.json"))
        var child = (0..<(Self.least + 50)).map { Self.plain($0 * 2) }  // half override the parent's
        child[8_000] = #"{"protocol": "P16000", "factory": "g", "parameters": {"p": "${PORT}"}}"#
        child[3] = #"{"protocol": "P6", "factory": "g", "lifetime": "nope"}"#
        try Self.manifest(child, top: #" "extends": "base.json","#).write(to: folder.appendingPathComponent("child.json"))
        let url = folder.appendingPathComponent("child.json")
        let environment = ["HOST": "db", "PORT": "6543"]
        let one = Self.load(url, threads: 1, environment: environment)
        #expect(one.0 != nil && one.0!.bindings.contains { $0.origin?.depth == 1 })
        for threads in [2, 8] {
            let many = Self.load(url, threads: threads, environment: environment)
            #expect(many.0 == one.0, "threads \(threads)")
            #expect(EveryCoreAttackTests.firstDifference(Self.origins(many.0), Self.origins(one.0)) == nil, "threads \(threads)")
            #expect(EveryCoreAttackTests.firstDifference(many.1, one.1) == nil, "threads \(threads)")
        }
    }

    // MARK: - Concurrency

    @Test func manyParsesAtOnceFromATaskGroupAgree() async throws {
        let files = [Self.manifest(Self.mix(Self.least, every: nil)), Self.manifest(Self.mix(Self.least + 77, every: 13)),
                     Self.manifest(Self.mix(Self.least + 4_100, every: 500))]
        let expected = files.map { Self.parse($0, threads: 1) }
        let agreed = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<12 {
                group.addTask {
                    let (manifest, diagnostics) = Self.parse(files[index % files.count], threads: 2 + index % 7)
                    return manifest == expected[index % files.count].0 && diagnostics == expected[index % files.count].1
                }
            }
            var all = true
            for await ok in group { all = all && ok }
            return all
        }
        #expect(agreed)
    }

    // MARK: - The command

    /// `patchbay check` says the same of a large file with `--jobs 1` as on every core.
    @Test func theCheckCommandSaysTheSameOnOneJobAsOnEvery() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = folder.appendingPathComponent("broken.json")
        try Self.manifest(Self.mix(Self.least + 21, every: 997, offsets: Self.boundaries(Self.least + 21))).write(to: broken)
        let clean = folder.appendingPathComponent("clean.json")
        try Self.manifest(Self.mix(Self.least, every: nil)).write(to: clean)
        for file in [broken, clean] {
            let one = try runProduct("patchbay", ["check", "--jobs", "1", file.lastPathComponent], in: folder)
            #expect(file == clean || one.status != 0)
            for jobs in [[], ["--jobs", "3"]] {
                let many = try runProduct("patchbay", ["check"] + jobs + [file.lastPathComponent], in: folder)
                #expect(many.status == one.status, "\(file.lastPathComponent) \(jobs)")
                #expect(many.stdout == one.stdout, "\(file.lastPathComponent) \(jobs)")
                #expect(many.stderr == one.stderr, "\(file.lastPathComponent) \(jobs)")
            }
        }
    }
}
