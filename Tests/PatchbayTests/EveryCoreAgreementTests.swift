import Foundation
@testable import Patchbay
import Testing

/// A manifest's bindings are decoded in runs on every core, and their parameters checked on every
/// core: what several cores find must be what one finds, value for value and diagnostic for
/// diagnostic, in the same order.
struct EveryCoreAgreementTests {
    struct SizeOptions: Decodable, Sendable {
        var tag: String
        var size: Int
    }

    private func catalog() -> FactoryCatalog {
        var catalog = FactoryCatalog()
        catalog.register("sized", provides: (any Widget).self, parameters: SizeOptions.self) { options in
            Part(tag: "\(options.tag)-\(options.size)")
        }
        catalog.register("plain-widget", provides: (any Widget).self) { Part(tag: "plain") }
        return catalog
    }

    /// A manifest of `count` bindings of `Widget`, one per injector `iN`, only the even ones declared;
    /// parameters good for every third binding, of the wrong type or missing a field for the others.
    private func manifestWithParameters(count: Int) throws -> Manifest {
        let declared = (0..<count).filter { $0 % 2 == 0 }.map { "\"i\($0)\"" }.joined(separator: ", ")
        let bindings = (0..<count).map { index in
            let parameters = switch index % 3 {
            case 0: #"{"tag": "t\#(index)", "size": \#(index)}"#
            case 1: #"{"tag": "t\#(index)", "size": "three"}"#
            default: #"{"size": \#(index)}"#
            }
            return #"{"protocol": "Widget", "factory": "sized", "injector": "i\#(index)", "parameters": \#(parameters)}"#
        }
        let json = "{\"format\": 1, \"injectors\": [\(declared)], \"bindings\": [\n" + bindings.joined(separator: ",\n") + "\n]}"
        return try ManifestLoader(environment: [:]).load(data: Data(json.utf8), file: "cores.json")
    }

    @Test func parametersCheckedOnEveryCoreSayWhatOneCoreSays() throws {
        let manifest = try manifestWithParameters(count: 300)
        var oneCore = ManifestValidator(catalog: catalog())
        oneCore.cores = 1
        var everyCore = ManifestValidator(catalog: catalog())
        everyCore.cores = 4  // more threads than this machine may have cores: runs are still handed out in order
        let serial = oneCore.run(manifest), parallel = everyCore.run(manifest)
        #expect(parallel.diagnostics == serial.diagnostics)
        #expect(parallel.bindings.map(\.index) == serial.bindings.map(\.index))
        #expect(parallel.bindings.map { ($0.parameters as? SizeOptions)?.size } == serial.bindings.map { ($0.parameters as? SizeOptions)?.size })

        // Each binding's findings stand where the loop found the binding: its undeclared injector
        // (odd bindings) before its parameters' problem, and the bindings in manifest order.
        let codes = serial.diagnostics.filter { $0.code == .undeclaredInjector || $0.code == .invalidParameters }
        let expected = (0..<300).flatMap { index -> [DiagnosticCode] in
            (index % 2 == 1 ? [.undeclaredInjector] : []) + (index % 3 == 0 ? [] : [.invalidParameters])
        }
        #expect(codes.map(\.code) == expected)
        let bindingOfEach = codes.map { Int($0.path.split(separator: "/")[1])! }
        #expect(bindingOfEach == bindingOfEach.sorted())
        // In effect: the bindings declared (even) whose parameters are good (every third).
        #expect(serial.bindings.map(\.index) == (0..<300).filter { $0 % 6 == 0 })
        #expect(serial.bindings.map { ($0.parameters as? SizeOptions)?.size } == (0..<300).filter { $0 % 6 == 0 })
    }

    @Test func parametersThatAllPassLeaveTheDiagnosticsAsFound() throws {
        let bindings = (0..<100).map {
            #"{"protocol": "Widget", "factory": "sized", "injector": "i\#($0)", "parameters": {"tag": "t", "size": \#($0)}}"#
        } + [#"{"protocol": "Widget", "factory": "plain-widget", "injector": "j", "lifetime": "weak"}"#]
        let json = "{\"format\": 1, \"bindings\": [\n" + bindings.joined(separator: ",\n") + "\n]}"
        let manifest = try ManifestLoader(environment: [:]).load(data: Data(json.utf8), file: "cores.json")
        var everyCore = ManifestValidator(catalog: catalog())
        everyCore.cores = 3
        let result = everyCore.run(manifest)
        // The weak binding of a value is the one problem.
        #expect(result.diagnostics.map(\.code) == [.weakUnchecked])
        #expect(result.bindings.compactMap { ($0.parameters as? SizeOptions)?.size } == Array(0..<100))
    }

    /// Every shape of binding the parser reads: plain, member by member, escaped keys, strings
    /// JSONDecoder must unescape, elements that are not objects, and bindings of several lines.
    private func mixedManifest(count: Int) -> Data {
        let shapes = [
            #"{"protocol": "A%d", "factory": "a"}"#,
            #"{"protocol": "B%d", "factory": "b", "lifetime": "weak", "injector": "secondary"}"#,
            #"{"proto\u0063ol": "C%d", "factory": "c\u00e9\n"}"#,
            #"{"protocol": "D%d", "factory": "d", "parameters": {"p": [1, {"q": "}, {"}]}}"#,
            #"{"collection": "E%d", "factory": "e", "decorators": ["x"]}"#,
            #"17"#,
            "{\n  \"protocol\": \"F%d\",\n  \"factory\": \"f\\\"\",\n  \"lifetime\": null\n}",
            #"{"protocol": "G%d", "factory": 3, "injector": ""}"#,
        ]
        let bindings = (0..<count).map { shapes[$0 % shapes.count].replacingOccurrences(of: "%d", with: String($0)) }
        return Data(("{\"format\": 1, \"bindings\": [\n" + bindings.joined(separator: ",\n") + "\n], \"environment\": \"e\"}").utf8)
    }

    @Test func bindingsDecodedInRunsAreTheWholeFilesBindings() throws {
        let data = mixedManifest(count: 2_000)
        let root = try #require(JSONScanner.scan(data, maxBytes: .max, maxDepth: 64).root)
        let whole = try JSONDecoder().decode(ManifestDocument.self, from: data)
        #expect(ManifestDocument.bindingsPerCore * 2 <= 2_000)  // so that the runs are taken
        for cores in [1, 2, 3, 8] {
            let runs = try #require(ManifestDocument.decode(root: root, cores: cores))
            #expect(runs.environment == "e")
            let (left, right) = (try #require(runs.bindings), try #require(whole.bindings))
            #expect(left.count == right.count)
            for (a, b) in zip(left, right) {
                #expect(a.isDecoded == b.isDecoded && a.protocolName == b.protocolName && a.factory == b.factory
                    && a.lifetime == b.lifetime && a.injector == b.injector)
            }
        }
    }

    @Test func aRunThatCannotBeDecodedLeavesTheWholeFileUndecoded() throws {
        // JSONDecoder refuses only what is not JSON, which the scanner refuses first: the bytes are
        // broken after the scan, under the scan's map, as a run that fails would be.
        var data = mixedManifest(count: 1_000)
        let scanned = try #require(JSONScanner.scan(data, maxBytes: .max, maxDepth: 64).root)
        let place = try #require(data.lastRange(of: Data(#": "G999""#.utf8)))
        data[place.lowerBound] = UInt8(ascii: ";")
        let root = JSONPlace(JSONLayout(bytes: data, nodes: scanned.layout.nodes))
        #expect((try? JSONDecoder().decode(ManifestDocument.self, from: data)) == nil)
        #expect(ManifestDocument.decode(root: root, cores: 2) == nil)
        #expect(ManifestDocument.decode(root: scanned, cores: 2)?.bindings?.count == 1_000)
    }

    @Test func runsDecodedWhileScanningAreTheScannersElements() throws {
        let data = mixedManifest(count: 3_000)
        #expect(data.count >= BindingRunQueue.smallestFile)
        let (document, runs) = BindingRunQueue.scanDecoding(data, maxBytes: .max, maxDepth: 64, threads: 2)
        let root = try #require(document.root)
        let list = try #require(root.child(named: "bindings"))
        let elements = Array(root.layout.children(of: list.node))
        #expect(runs.count == (3_000 + BindingRunQueue.bindingsPerRun - 1) / BindingRunQueue.bindingsPerRun)
        #expect(runs.map(\.count).reduce(0, +) == 3_000)
        let taken = try #require(ManifestDocument.bindings(of: elements, in: root.layout, from: runs))
        let whole = try #require(try JSONDecoder().decode(ManifestDocument.self, from: data).bindings)
        #expect(taken.map(\.protocolName) == whole.map(\.protocolName))
        #expect(taken.map(\.factory) == whole.map(\.factory))
    }

    @Test func anyNumberOfCoresChecksParametersAsOneDoes() throws {
        let manifest = try manifestWithParameters(count: 100)
        var oneCore = ManifestValidator(catalog: catalog())
        oneCore.cores = 1
        var unbounded = ManifestValidator(catalog: catalog())
        unbounded.cores = .max  // what `--jobs 9223372036854775807` passes on: twice it overflowed
        #expect(unbounded.run(manifest).diagnostics == oneCore.run(manifest).diagnostics)
    }
}
