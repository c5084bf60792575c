import Dispatch
import Foundation
@testable import Patchbay
import Testing

/// A hostile user's attack on decoding the bindings while the scanner reads the file
/// (`BindingRunQueue`): for any input the scan must map what a scan alone maps, and the parser must
/// say what a one-thread parse says (manifest, diagnostics, verdict), without a hang or a thread
/// left waiting; the runs must be taken for a well-formed file, and never for another array.
struct ScanDecodingAttackTests {
    // MARK: - Helpers

    /// Everything a scan found, node by node (a node is not `Equatable`).
    static func summary(_ document: JSONDocument) -> [String] {
        var lines = ["syntax \(String(describing: document.syntaxError))", "depth \(String(describing: document.depthExceeded))",
                     "size \(String(describing: document.sizeExceeded))", "odd \(String(describing: document.unrepresentable))"]
        lines += document.duplicateKeys.map { "duplicate \($0)" }
        if let root = document.root {
            lines += root.layout.nodes.map {
                "\($0.kind) \($0.bytes) \($0.end) \($0.count) \($0.position) \($0.key) \($0.keyNeedsDecoding) \(String(describing: $0.keyPosition))"
            }
        }
        return lines
    }

    /// A parse's outcome: the manifest (or nil) and every diagnostic, in order.
    static func parse(_ data: Data, threads: Int, maxBytes: Int = .max, maxDepth: Int = 64) -> (Manifest?, [Diagnostic]) {
        var parser = ManifestParser(file: "attack.json", maxBytes: maxBytes, maxDepth: maxDepth)
        parser.threads = threads
        let manifest = parser.parse(data)
        return (manifest, parser.diagnostics)
    }

    /// Scans with the queue on 2, 3 and 8 threads and parses on them: each must be the scan alone and
    /// the one-thread parse. Returns the runs of the 2-thread scan.
    @discardableResult
    static func expectAgreement(_ data: Data, _ label: String, maxBytes: Int = .max, maxDepth: Int = 64)
        -> [BindingRunQueue.Run] {
        let alone = summary(JSONScanner.scan(data, maxBytes: maxBytes, maxDepth: maxDepth))
        let one = parse(data, threads: 1, maxBytes: maxBytes, maxDepth: maxDepth)
        var first: [BindingRunQueue.Run] = []
        for threads in [2, 3, 8] {
            let (document, runs) = BindingRunQueue.scanDecoding(data, maxBytes: maxBytes, maxDepth: maxDepth, threads: threads)
            if threads == 2 { first = runs }
            #expect(EveryCoreAttackTests.firstDifference(summary(document), alone) == nil, "\(label), threads \(threads)")
            let many = parse(data, threads: threads, maxBytes: maxBytes, maxDepth: maxDepth)
            #expect(many.0 == one.0, "\(label), threads \(threads)")
            #expect(EveryCoreAttackTests.firstDifference(many.1, one.1) == nil, "\(label), threads \(threads)")
        }
        return first
    }

    /// Whether the parser takes the runs as they are: the top-level `bindings` elements of the map.
    static func runsAreTaken(_ data: Data, _ runs: [BindingRunQueue.Run]) -> Bool {
        guard let root = JSONScanner.scan(data).root, let list = root.child(named: "bindings"), list.kind == .array else { return false }
        let elements = Array(root.layout.children(of: list.node))
        return ManifestDocument.bindings(of: elements, in: root.layout, from: runs) != nil
    }

    static func bindings(_ count: Int, from start: Int = 0) -> String {
        (start..<start + count).map { #"{"protocol": "P\#($0)", "factory": "f\#($0)", "lifetime": "transient"}"# }
            .joined(separator: ",\n")
    }

    /// A string member large enough that the file is worth the helpers whatever its bindings.
    static let padding = #""$schema": ""# + String(repeating: "x", count: BindingRunQueue.smallestFile) + "\""

    /// Runs `body` on a thread of its own; nil when it has not returned within `seconds` (a hang fails
    /// the test instead of stopping the suite).
    static func within<T: Sendable>(_ seconds: Double, _ body: @escaping @Sendable () -> T) -> T? {
        let result = Locked<T?>(nil), done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let value = body()
            result.withLock { $0 = value }
            done.signal()
        }
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return result.withLock { $0 }
    }

    // MARK: - Where `bindings` stands

    @Test func everyPlaceOfTheKeyScansAndParsesAsOneThread() throws {
        let list = "[\n" + Self.bindings(1_100) + "\n]"
        let cases: [(String, String, Bool)] = [  // (label, file, whether the runs are the bindings)
            ("first", "{\"bindings\": \(list), \"format\": 1}", true),
            ("last", "{\"format\": 1, \(Self.padding), \"environment\": \"e\", \"bindings\": \(list)}", true),
            ("nested in an object", "{\"format\": 1, \"x\": {\"bindings\": \(list)}, \"bindings\": []}", false),
            ("nested in an array", "{\"format\": 1, \"x\": [\(list), {\"bindings\": \(list)}], \"bindings\": 5}", false),
            ("root array", "[{\"bindings\": \(list)}, \(list)]", false),
            ("repeated", "{\"format\": 1, \"bindings\": \(list), \"bindings\": \(list)}", false),
            ("repeated, first a string", "{\"format\": 1, \"bindings\": \"s\", \"bindings\": \(list)}", false),
            ("escaped", "{\"format\": 1, \"bind\\u0069ngs\": \(list)}", false),
            ("escaped and plain", "{\"format\": 1, \"bind\\u0069ngs\": \(list), \"bindings\": \(list)}", false),
            ("object", "{\"format\": 1, \"bindings\": {\"a\": \(list)}}", false),
            ("string", "{\"format\": 1, \"bindings\": \"\(list.replacingOccurrences(of: "\"", with: "\\\""))\"}", false),
            ("empty among large", "{\"format\": 1, \"other\": \(list), \(Self.padding), \"bindings\": []}", false),
            ("other key prefix", "{\"format\": 1, \"bindingsx\": \(list), \"bindings\": 1}", false),
            ("key with space", "{\"format\": 1, \"bindings \": \(list)}", false),
        ]
        for (label, text, taken) in cases {
            let data = Data(text.utf8)
            #expect(data.count >= BindingRunQueue.smallestFile, "\(label)")
            let runs = Self.expectAgreement(data, label)
            #expect(Self.runsAreTaken(data, runs) == taken, "\(label)")
            if !taken, !label.hasPrefix("repeated"), !label.hasPrefix("escaped and") { #expect(runs.isEmpty, "\(label)") }
        }
    }

    @Test func oddElementsScanAndParseAsOneThread() throws {
        let odd = ["17", "-0.5e3", "\"], {\\\"a\\\": ,}\"", "[1, [2, [3]], \"]\"]", "null", "true", "{}", "[]",
                   "{\"protocol\": \"]\", \"factory\": \",\"}", "\"\\u00e9\\uD83D\\uDE00\"", "{\"a\": {\"b\": [{}]}}"]
        let elements = (0..<5_000).map { odd[$0 % odd.count] }.joined(separator: " ,\t")
        let data = Data("{\"format\": 1, \"bindings\": [\(elements)]  \n\n\t }\n  ".utf8)
        #expect(data.count >= BindingRunQueue.smallestFile)
        let runs = Self.expectAgreement(data, "odd elements")
        #expect(runs.map(\.count).reduce(0, +) == 5_000)
        #expect(Self.runsAreTaken(data, runs))
    }

    @Test(arguments: [255, 256, 257, 511, 512, 513, 768, 769])
    func runsAtTheirEdgesAreTakenWhole(count: Int) throws {
        let data = Data("{\"format\": 1, \(Self.padding), \"bindings\": [\(Self.bindings(count))]}".utf8)
        let runs = Self.expectAgreement(data, "\(count) bindings")
        let per = BindingRunQueue.bindingsPerRun
        #expect(runs.map(\.count) == Array(repeating: per, count: count / per) + (count % per == 0 ? [] : [count % per]))
        #expect(runs.allSatisfy { $0.decoded?.count == $0.count })
        #expect(Self.runsAreTaken(data, runs))
    }

    @Test func lineEndingsAndWhitespaceKeepTheRunsTaken() throws {
        let crlf = "{\r\n\"format\"\r\n:\r\n1,\r\n\"bindings\"\r\n:\r\n[\r\n"
            + Self.bindings(1_000).replacingOccurrences(of: ",\n", with: "\r\n,\r\n\t ") + "\r\n\t]\r\n}\r\n\r\n"
        let lone = crlf.replacingOccurrences(of: "\r\n", with: "\r")
        for (label, text) in [("CRLF", crlf), ("CR", lone)] {
            let data = Data(text.utf8)
            let runs = Self.expectAgreement(data, label)
            #expect(Self.runsAreTaken(data, runs), "\(label)")
        }
    }

    // MARK: - Faults

    @Test func faultsAfterRunsWereHandedOverSayWhatOneThreadSays() throws {
        let good = "{\"format\": 1, \"bindings\": [\n" + Self.bindings(1_500) + "\n], \"environment\": \"e\"}"
        var cases: [(String, Data)] = []
        func replacing(_ label: String, _ target: String, _ replacement: String) {
            cases.append((label, Data(good.replacingOccurrences(of: target, with: replacement).utf8)))
        }
        replacing("syntax error in the middle", #""P900","#, #""P900";"#)
        replacing("trailing comma at the end", "\n], \"environment\"", ",\n], \"environment\"")
        replacing("unclosed array", "\n], \"environment\": \"e\"}", "\n")
        replacing("syntax error after the array", "\"environment\": \"e\"}", "\"environment\" \"e\"}")
        replacing("junk after the root", "\"environment\": \"e\"}", "\"environment\": \"e\"} // done")
        replacing("duplicate key in a late element", #""P1200", "factory": "f1200""#, #""P1200", "factory": "f", "factory": "g""#)
        replacing("unpaired surrogate late", #""P1300""#, #""\uD800""#)
        replacing("number out of range late", #""P1400", "factory": "f1400""#, #""P1400", "factory": 1e999"#)
        replacing("too deep in an element", #""P800""#, String(repeating: "[", count: 70) + String(repeating: "]", count: 70))
        replacing("bindings escaped as well", "\"environment\": \"e\"}", "\"environment\": \"e\", \"bind\\u0069ngs\": []}")
        var utf8 = Data(good.utf8)
        utf8[try #require(utf8.range(of: Data("P1000".utf8))).lowerBound] = 0xC3  // a lead byte before the digit 1: not UTF-8
        cases.append(("invalid UTF-8 in an element", utf8))
        cases.append(("BOM", Data([0xEF, 0xBB, 0xBF]) + Data(good.utf8)))
        cases.append(("cut short", Data(good.utf8).prefix(good.utf8.count * 2 / 3)))
        for (label, data) in cases {
            #expect(data.count >= BindingRunQueue.smallestFile, "\(label)")
            Self.expectAgreement(data, label)
        }
        // Just over the size limit: nothing read, on any number of threads.
        let data = Data(good.utf8)
        Self.expectAgreement(data, "over maxBytes", maxBytes: data.count - 1)
        Self.expectAgreement(data, "at maxBytes", maxBytes: data.count)
        Self.expectAgreement(data, "depth 2", maxDepth: 2)
        Self.expectAgreement(data, "depth 3", maxDepth: 3)
    }

    /// A `Data` slice whose indices do not start at 0, as a file read into a larger buffer may be.
    @Test func aSliceOfALargerBufferScansAsItsCopy() throws {
        let text = "{\"format\": 1, \"bindings\": [\n" + Self.bindings(1_000) + "\n]}"
        let slice = (Data("garbage[{".utf8) + Data(text.utf8) + Data("]]".utf8)).dropFirst(9).dropLast(2)
        #expect(slice.startIndex == 9)
        Self.expectAgreement(slice, "slice")
        let (_, runs) = BindingRunQueue.scanDecoding(slice, maxBytes: .max, maxDepth: 64, threads: 2)
        #expect(Self.runsAreTaken(Data(slice), runs))
    }

    // MARK: - Seeded random manifests, whole and broken

    @Test(arguments: 0..<8)
    func randomManifestsScanAndParseAsOneThread(seed: UInt64) throws {
        let text = EveryCoreAttackTests.manifest(count: 700 + Int(seed) * 131, seed: 9_000 + seed)
        let data = Data(text.utf8)
        #expect(data.count >= BindingRunQueue.smallestFile)
        let runs = Self.expectAgreement(data, "seed \(seed)")
        // A plain `bindings` key with no repeated key: the runs decoded during the scan are taken.
        if text.contains("\"bindings\": ["), JSONScanner.scan(data).duplicateKeys.isEmpty {
            #expect(Self.runsAreTaken(data, runs), "seed \(seed)")
        }
        // Broken at a random place: a byte changed, or the file cut there.
        var random = SplitMix(seed: seed)
        for _ in 0..<4 {
            var broken = data
            let place = Int(random.next() % UInt64(data.count))
            switch random.next() % 4 {
            case 0: broken[place] = [UInt8(ascii: "]"), UInt8(ascii: ","), UInt8(ascii: "}"), 0xFF, UInt8(ascii: "\"")][Int(random.next() % 5)]
            case 1: broken = broken.prefix(place)
            case 2: broken.insert(UInt8(ascii: "["), at: place)
            default: broken.remove(at: place)
            }
            Self.expectAgreement(broken, "seed \(seed), broken at \(place)")
        }
    }

    /// A file the parser will not decode keeps no runs, and the scanning thread decodes none after
    /// its scan: a one-thread parse stops at the scan, and a fault at the end of a large file was
    /// followed by decoding every run the helpers had not reached.
    @Test func aFileThatWillNotBeDecodedKeepsNoRuns() throws {
        let good = "{\"format\": 1, \"bindings\": [\n" + Self.bindings(3_000) + "\n]}"
        for (label, text) in [("junk at the end", good + " x"), ("repeated key", good.dropLast() + ", \"format\": 1}"),
                              ("cut short", String(good.dropLast(3))), ("unpaired surrogate", good.replacingOccurrences(of: "P2999", with: "\\uDC00"))] {
            let (document, runs) = BindingRunQueue.scanDecoding(Data(text.utf8), maxBytes: .max, maxDepth: 64, threads: 2)
            #expect(document.isUnusable || !document.duplicateKeys.isEmpty, "\(label)")
            #expect(runs.isEmpty, "\(label)")
        }
        let (_, runs) = BindingRunQueue.scanDecoding(Data(good.utf8), maxBytes: .max, maxDepth: 64, threads: 2)
        #expect(runs.count == 12 && runs.allSatisfy { $0.decoded?.count == $0.count })
    }

    /// A file of 64 KiB or more with fewer bindings than are decoded in runs after the scan: the runs
    /// decoded during the scan are still what the parser takes, not decoded again whole. The runs
    /// here say `taken` where the file says `P`, which shows whose values the document holds.
    @Test func runsOfAFewLargeBindingsAreTakenAsDecoded() throws {
        let large = String(repeating: "x", count: 300)
        let text = "{\"format\": 1, \"bindings\": [\n" + (0..<300).map {
            #"{"protocol": "P\#($0)", "factory": "f", "parameters": {"note": "\#(large)"}}"#
        }.joined(separator: ",\n") + "\n]}"
        let data = Data(text.utf8)
        #expect(data.count >= BindingRunQueue.smallestFile && 300 < 2 * ManifestDocument.bindingsPerCore)
        let (document, runs) = BindingRunQueue.scanDecoding(data, maxBytes: .max, maxDepth: 64, threads: 2)
        #expect(runs.map(\.count) == [256, 44])
        let root = try #require(document.root)
        let marked = try runs.map { run in
            var run = run
            run.decoded = try #require(run.decoded).map { var binding = $0; binding.protocolName = "taken"; return binding }
            return run
        }
        let taken = try #require(ManifestDocument.decode(root: root, cores: 2, scanned: marked)?.bindings)
        #expect(taken.count == 300 && taken.allSatisfy { $0.protocolName == "taken" })
        Self.expectAgreement(data, "300 large bindings")
    }

    // MARK: - Threads

    /// `patchbay check --jobs N` hands N to the parser as is: a huge N must not start a thread, or
    /// queue a job, for each (the loop over `1..<Int.max` never ended).
    @Test func aHugeNumberOfThreadsDoesNotHang() throws {
        let data = Data(("{\"format\": 1, \"bindings\": [\n" + Self.bindings(1_000) + "\n]}").utf8)
        let alone = Self.summary(JSONScanner.scan(data))
        let result = Self.within(20) { BindingRunQueue.scanDecoding(data, maxBytes: .max, maxDepth: 64, threads: .max) }
        let (document, runs) = try #require(result)
        #expect(Self.summary(document) == alone)
        #expect(Self.runsAreTaken(data, runs))
        let parsed = Self.within(20) { Self.parse(data, threads: .max) }
        #expect(try #require(parsed).0 == Self.parse(data, threads: 1).0)
    }

    @Test func manyParsesAtOnceFromThreadsAndTasksAgreeAndReturn() async throws {
        let files = (0..<6).map { Data(EveryCoreAttackTests.manifest(count: 600 + $0 * 50, seed: 300 + UInt64($0)).utf8) }
        let expected = files.map { Self.parse($0, threads: 1) }
        // From inside concurrentPerform, every file on several threads at once.
        let agreed = Self.within(120) {
            let ok = Locked(true)
            DispatchQueue.concurrentPerform(iterations: 24) { index in
                let (manifest, diagnostics) = Self.parse(files[index % files.count], threads: 2 + index % 4)
                if manifest != expected[index % files.count].0 || diagnostics != expected[index % files.count].1 {
                    ok.withLock { $0 = false }
                }
            }
            return ok.withLock { $0 }
        }
        #expect(agreed == true)
        // From Swift tasks, more of them than the cooperative pool has threads.
        let fromTasks = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<24 {
                group.addTask {
                    let (manifest, diagnostics) = Self.parse(files[index % files.count], threads: 3)
                    return manifest == expected[index % files.count].0 && diagnostics == expected[index % files.count].1
                }
            }
            var all = true
            for await ok in group { all = all && ok }
            return all
        }
        #expect(fromTasks)
    }
}
