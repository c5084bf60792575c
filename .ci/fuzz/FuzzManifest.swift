// libFuzzer entry over the whole manifest pipeline: the position index, the
// parser (decode and shape), validation against the example catalog, loading
// with `${...}` interpolation and `extends`, activation, and resolution of
// every type the example binds. Built and run by `fuzz-manifest.sh`; not part
// of the package (Package.swift stays dependency- and target-free of it).
//
// The process must never trap, whatever the bytes. Beyond that, a few
// invariants are checked here, each a `precondition` so that libFuzzer
// records the input that breaks it:
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

    // The position index on its own, and every pointer lookup it offers.
    let index = JSONPositionIndex(bytes: data, maxDepth: 64)
    for (pointer, position) in index.valuePositions.dictionary {
        precondition(index.position(of: pointer) == position, "pointer \(pointer) does not find its own value")
        precondition(position.line >= 1 && position.column >= 1 && position.line <= lineBreaks)
    }
    _ = index.elementMemberKeys(ofArrayAt: "/bindings")

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
