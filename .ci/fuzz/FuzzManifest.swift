// libFuzzer entry over the whole manifest pipeline: the JSON reader, the
// parser (shape, from the reader's positioned values), validation against the
// example catalog (which decodes parameters from those values), loading with
// `${...}` interpolation and `extends`, activation, and resolution of every
// type the example binds. Built and run by `fuzz-manifest.sh`; not part of
// the package (Package.swift stays dependency- and target-free of it).
//
// The process must never trap, whatever the bytes. Beyond that, a few
// invariants are checked here, each a `precondition` so that libFuzzer
// records the input that breaks it:
//   - every value the reader keeps is found again by its pointer, at a
//     position inside the file, and no object keeps a key twice;
//   - a document the reader accepts, JSONDecoder reads as the same value;
//   - decoding from positioned values agrees with JSONDecoder: the same
//     value, or the same error at the same coding path;
//   - every diagnostic has a 1-based line and column, inside the file;
//   - loading and validating the same bytes twice gives the same diagnostics;
//   - `check` and activation agree: a manifest the validator passes activates,
//     and one it rejects does not.
import Foundation
import NotesKit
@testable import Patchbay

/// The catalog every input is checked against, made once.
private let catalog = FactoryCatalog.notes
/// A fixed environment, so `${...}` interpolation is deterministic.
private let environment = ["NOTES_DIR": "/tmp/patchbay-fuzz-notes", "SMTP_HOST": "localhost", "EMPTY": ""]
private let loader = ManifestLoader(environment: environment)
/// Small limits, so that the limit checks are reached by small inputs too.
private let tinyLimits = ManifestLimits(maxBytes: 512, maxDepth: 4)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    let lines = data.reduce(into: 1) { lines, byte in if byte == UInt8(ascii: "\n") { lines += 1 } }
    let lineBreaks = lines + data.reduce(into: 0) { cr, byte in if byte == UInt8(ascii: "\r") { cr += 1 } }

    // The reader on its own: every value it keeps, found by its pointer.
    let document = JSONReader.read(data, maxDepth: 64)
    if let root = document.root {
        checkValues(of: root, lineBreaks: lineBreaks)
        if !document.isUnusable { compareWithJSONDecoder(root, data) }
    }

    // The parser, with the default limits and with tiny ones.
    for limits in [ManifestLimits.default, tinyLimits] {
        var parser = ManifestParser(file: "fuzz.json", limits: limits)
        let parsed = parser.parse(data)
        check(parser.diagnostics, lineBreaks: lineBreaks)
        if let parsed {
            // Validation of whatever could be read, even with shape errors.
            check(ManifestValidator(catalog: catalog).validate(parsed), lineBreaks: lineBreaks)
            check(ManifestValidator().validate(parsed), lineBreaks: lineBreaks)
            check(ManifestValidator(description: catalog.describe()).validate(parsed), lineBreaks: lineBreaks)
        }
    }

    // Loading as an app does (interpolation, `extends` relative to the
    // current folder, which the script fills with the example manifests),
    // then activation and resolution.
    let first = load(data)
    let second = load(data)
    if first.diagnostics != second.diagnostics {
        FileHandle.standardError.write(Data("loading the same bytes twice differs:\n\(first.diagnostics)\n\(second.diagnostics)\n".utf8))
        preconditionFailure("loading the same bytes twice differs")
    }
    check(first.diagnostics, lineBreaks: lineBreaks)
    guard let manifest = first.manifest else { return 0 }
    let validation = ManifestValidator(catalog: catalog).validate(manifest)
    do {
        let container = try Container(catalog: catalog, manifest: manifest)
        precondition(!validation.containsErrors, "activation accepted a manifest that validation rejects")
        exercise(container, manifest: manifest)
        // A second activation of the same manifest, in the running container.
        try container.activate(manifest)
        exercise(container, manifest: manifest)
    } catch {
        precondition(validation.containsErrors, "activation rejected a manifest that validation passes: \(error)")
        precondition(error.diagnostics.containsErrors)
    }
    return 0
}

/// Loads `data` and returns the manifest and every diagnostic, thrown or not.
private func load(_ data: Data) -> (manifest: Manifest?, diagnostics: [Diagnostic]) {
    do {
        return (try loader.load(data: data, file: "fuzz.json"), [])
    } catch {
        return (nil, error.diagnostics)
    }
}

/// Positions are 1-based and inside the file; every diagnostic names a code and a file.
private func check(_ diagnostics: [Diagnostic], lineBreaks: Int) {
    for diagnostic in diagnostics {
        precondition(diagnostic.line >= 1 && diagnostic.column >= 1, "position below 1:1: \(diagnostic)")
        precondition(!diagnostic.code.rawValue.isEmpty && !diagnostic.message.isEmpty && !diagnostic.file.isEmpty)
        if diagnostic.file == "fuzz.json" {
            precondition(diagnostic.line <= lineBreaks, "line past the end of the file: \(diagnostic)")
        }
        _ = diagnostic.description
    }
}

/// Resolves every type the example binds, from every injector, in a scope and
/// out of one. Factories may fail (a bad date for `fixed-clock`); resolution
/// must then throw, never trap.
private func exercise(_ container: Container, manifest: Manifest) {
    let injectors = [InjectorName.primary, .secondary] + (manifest.injectors ?? []) + manifest.bindings.map(\.injector)
    let scope = Scope()
    defer { scope.close() }
    for injector in Set(injectors).sorted() {
        _ = try? container.resolve(NoteService.self, from: injector)
        _ = try? scope.resolve(NoteService.self, from: container, injector: injector)
        _ = try? container.resolveIfBound((any NoteStore).self, from: injector)
        _ = try? scope.resolve((any NoteStore).self, from: container, injector: injector)
        _ = try? container.resolve((any Clock).self, from: injector)
        _ = try? container.resolve((any Logger).self, from: injector)
        _ = try? scope.resolve((any Mailer).self, from: container, injector: injector)
        _ = try? container.resolve((any IDGenerator).self, from: injector)
        _ = container.binding(for: (any Clock).self, from: injector)
    }
    _ = container.warnings
}

/// Walks every value under `root` (without recursion): each is found again
/// by its pointer, has a position inside the file, and no object holds a
/// key twice; and every node of the document is reached.
private func checkValues(of root: PositionedJSON, lineBreaks: Int) {
    var pending = [("", root)]
    var reached = 0
    while let (pointer, value) = pending.popLast() {
        reached += 1
        precondition(root.value(at: pointer)?.node == value.node, "pointer \(pointer) does not find its own value")
        if let position = value.position {
            precondition(position.line >= 1 && position.column >= 1 && position.line <= lineBreaks)
        }
        switch value.content {
        case .array(let elements):
            let all = Array(elements)
            precondition(all.count == elements.count, "an array's count is not its elements'")
            for (index, element) in all.enumerated() { pending.append((pointer + "/\(index)", element)) }
        case .object(let members):
            let keys = members.keys
            precondition(keys.count == members.count, "an object's count is not its members'")
            precondition(Set(keys).count == keys.count, "an object keeps a repeated key")
            for member in members {
                precondition(member.keyPosition != nil, "a member without its key's position")
                pending.append((pointer + "/" + JSONPointer.escape(member.key), member.value))
            }
        default:
            break
        }
    }
    precondition(reached == root.nodes.nodes.count, "a value that no pointer reaches")
}

/// A document the reader accepts (nothing unrepresentable, no fault), read
/// by JSONDecoder: it must accept it too, as the same value, and decoding
/// from positioned values must agree with it.
private func compareWithJSONDecoder(_ root: PositionedJSON, _ data: Data) {
    guard let theirs = try? JSONDecoder().decode(JSONValue.self, from: data) else {
        preconditionFailure("JSONDecoder rejects a document the reader accepts")
    }
    precondition(equivalent(root.jsonValue, theirs), "JSONDecoder reads another value")
    guard let ours = try? root.decode(as: JSONValue.self) else { preconditionFailure("JSONValue does not decode") }
    precondition(equivalent(ours, theirs), "decoding JSONValue gives another value")
    agree(ProbeManifest.self, root, data)
    agree([ProbeBinding].self, root, data)
    // A dictionary's keys come in no set order from JSONDecoder, so of
    // several bad members it names any one: only the outcome is compared.
    agree([String: [Float?]].self, root, data, sameError: false)
}

/// Two values that are the same JSON, but for how JSONDecoder reads some
/// numbers as `Int` where the digits say otherwise: it rejects a few whole
/// numbers near `Int`'s bounds written with a fraction or an exponent (they
/// round to a `Double` beyond the bound), and above 2^53 it truncates a
/// fraction (`9999555555600001.999` is 9999555555600001). Read from their
/// digits here, the first are integers and the second are not; either way
/// the two readings are within a couple of the `Double`'s units.
private func equivalent(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.integer(let a), .number(let b)), (.number(let b), .integer(let a)):
        return Double(a) == b || (b.magnitude >= 0x1p53 && abs(Double(a) - b) <= 2 * b.ulp)
    case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy(equivalent)
    case (.object(let a), .object(let b)):
        return a.count == b.count && a.allSatisfy { key, value in b[key].map { equivalent(value, $0) } ?? false }
    default: return lhs == rhs
    }
}

/// Types that read a manifest's members as other types than the parser
/// does, so that mutated documents put every kind of value where each of
/// the decoder's rules applies: range checks, Date, URL, Data, Decimal,
/// optionals, sets, nested containers.
private struct ProbeManifest: Decodable, Equatable {
    var format: Int8?
    var environment: Date?
    var extends: URL?
    var injectors: Set<String>?
    var bindings: [ProbeBinding]?
}

/// One element of `bindings`, read as `ProbeManifest` reads the document.
private struct ProbeBinding: Decodable, Equatable {
    var `protocol`: String
    var factory: Data?
    var lifetime: Decimal?
    var injector: UInt16?
    var parameters: ProbeParameters?
}

/// `parameters`, read by the keys the example manifests use, as other types.
private struct ProbeParameters: Decodable, Equatable {
    var path: URL?
    var prefix: Data?
    var host: String?
    var url: [Double]?
    var retries: UInt8?
    var iso8601: Date?
    var port: Int16?
    var server: ProbeServer?
    var poolSize: Float?
}

/// A nested object of `parameters`.
private struct ProbeServer: Decodable, Equatable {
    var host: String
    var port: UInt16
}

/// Decodes `root` as `T` both ways; the outcomes must agree: the same value,
/// or (with `sameError`) the same error at the same coding path. Either way
/// an error's coding path must lead to a value of the document.
private func agree<T: Decodable & Equatable>(
    _ type: T.Type, _ root: PositionedJSON, _ data: Data, sameError: Bool = true
) {
    let ours = Result { try root.decode(as: type) }
    let theirs = Result { try JSONDecoder().decode(type, from: data) }
    switch (ours, theirs) {
    case (.success(let a), .success(let b)):
        precondition(a == b, "decoded \(type) differs")
    case (.failure(let a), .failure(let b)):
        guard let a = a as? DecodingError, let b = b as? DecodingError else {
            preconditionFailure("a decoding failure that is not a DecodingError")
        }
        precondition(root.value(atPath: a.codingPathKeys ?? []) != nil, "an error's path leads nowhere")
        guard sameError else { return }
        if case .dataCorrupted(let context) = b, context.codingPath.isEmpty,
           context.debugDescription == "The given data was not valid JSON." {
            // JSONDecoder's word for a number out of range; it is named at the number here.
            guard case .dataCorrupted = a else { preconditionFailure("a number out of range not reported as one") }
            return
        }
        precondition(summary(a) == summary(b), "decoding \(type) fails otherwise: \(a) / \(b)")
    case (.success, .failure(DecodingError.dataCorrupted(let context)))
    where context.debugDescription == "The given data was not valid JSON." && hasZeroWithExponent(data):
        // JSONDecoder's floating-point path rejects `0e9`, `-0E1`: a zero
        // integer part right before an exponent, which RFC 8259 allows
        // (its integer path reads them). The reader follows the RFC.
        return
    default:
        preconditionFailure("one decoder accepts \(type), the other not: \(ours) / \(theirs)")
    }
}

/// Whether the document has a number whose integer part is `0` right
/// before its exponent (`0e9`), which JSONDecoder's floating-point path rejects.
private func hasZeroWithExponent(_ data: Data) -> Bool {
    let bytes = [UInt8](data)
    for index in bytes.indices.dropLast() where bytes[index] == UInt8(ascii: "0") {
        let next = bytes[index + 1]
        guard next == UInt8(ascii: "e") || next == UInt8(ascii: "E") else { continue }
        let before = index > 0 ? bytes[index - 1] : UInt8(ascii: " ")
        if !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(before), before != UInt8(ascii: ".") { return true }
    }
    return false
}

/// A decoding error's kind, path and text, for comparing.
private func summary(_ error: DecodingError) -> String {
    switch error {
    case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
        return "\(type) \(context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }) \(context.debugDescription)"
    case .keyNotFound(let key, let context):
        return "\(key.stringValue) \(context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }) \(context.debugDescription)"
    case .dataCorrupted(let context):
        return "\(context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }) \(context.debugDescription)"
    @unknown default:
        return "\(error)"
    }
}
