import BenchmarkTypes
import Foundation
import Patchbay
import Swinject

/// The manifest of the cold-start case: "GN" bound to factory "gN", transient.
/// Made before the clock starts, for every contender alike.
func coldStartManifest() -> Manifest {
    Manifest(bindings: (0..<generatedTypeCount).map {
        Binding(protocol: "G\($0)", factory: "g\($0)", lifetime: .transient)
    })
}

/// Register 1,000 distinct protocol types and resolve each once, by contender.
/// Each returns a checksum and the container, so that a caller can stop the
/// clock before the container is torn down.
func coldStartOperations(manifest: Manifest) -> [(name: String, run: () throws -> (Int, AnyObject))] {
    [
        ("Patchbay", {
            var catalog = FactoryCatalog()
            registerGenerated(into: &catalog)
            let container = try Patchbay.Container(catalog: catalog, manifest: manifest)
            return (try resolveGenerated(from: container), container)
        }),
        ("Swinject", {
            let container = Swinject.Container()
            registerGenerated(into: container)
            return (resolveGenerated(from: container), container)
        }),
        ("baseline", {
            let container = BaselineContainer()
            registerGenerated(into: container)
            return (resolveGenerated(from: container), container)
        }),
        ("typed baseline", {
            let container = TypedBaselineContainer()
            registerGenerated(into: container)
            return (resolveGenerated(from: container), container)
        }),
    ]
}

/// The two cold-start cases.
///
/// - In a **new process** each sample: what an app pays at launch. Each
///   sample starts this executable again with `--cold-start-child NAME`,
///   which times the one operation from inside (not the process start) and
///   prints the nanoseconds. Nothing has run in that process before: no type
///   has been cast, no conformance looked up, no name demangled.
/// - **Again in a warm process**: the same operation repeated where every
///   type has been seen before (after the harness's warm-up run). Swift's
///   runtime caches conformances and metadata, so this is the cost of
///   building a container, not of a launch: what a test suite that makes a
///   container per test pays.
func coldStartCases() -> [Case] {
    let manifest = coldStartManifest()
    let operations = coldStartOperations(manifest: manifest)
    return [
        Case(name: "register + first resolve, 1,000 types, new process", unit: "1,000 types", iterations: 1,
            contenders: operations.map { operation in
                (operation.name, { _ in try runColdStartChild(operation.name) })
            },
            timesItself: true),
        Case(name: "register + first resolve, 1,000 types, again in a warm process", unit: "1,000 types",
            iterations: 1,
            // Torn down on the clock: a suite that makes a container per test pays for that too.
            contenders: operations.map { operation in (operation.name, { _ in try operation.run().0 }) }),
    ]
}

/// In a child process: runs the named cold-start operation once and prints
/// its time in nanoseconds and its checksum. Called before anything else in
/// `main`, so the process has done nothing of Patchbay's, Swinject's or the
/// generated types' before the clock starts.
func coldStartChild(_ name: String) throws -> Never {
    let manifest = coldStartManifest()
    guard let operation = coldStartOperations(manifest: manifest).first(where: { $0.name == name }) else {
        FileHandle.standardError.write(Data("no cold-start contender named '\(name)'\n".utf8))
        exit(2)
    }
    // The clock stops before the container is torn down, for every contender: an app's launch keeps
    // its container. (Until Patchbay freed a released container's activation at once, this thread's
    // resolve cache kept it past the clock, and Patchbay alone was timed without its teardown.)
    let start = now()
    let (checksum, container) = try operation.run()
    let elapsed = now() - start
    withExtendedLifetime(container) { print(elapsed, checksum) }
    exit(0)
}

/// Starts this executable with `--cold-start-child NAME` and returns the
/// nanoseconds the child measured.
func runColdStartChild(_ name: String) throws -> Int {
    let process = Process()
    process.executableURL = Bundle.main.executableURL
    process.arguments = ["--cold-start-child", name]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let fields = String(decoding: data, as: UTF8.self).split(separator: " ")
    guard process.terminationStatus == 0, fields.count == 2, let elapsed = Int(fields[0]),
        Int(fields[1].trimmingCharacters(in: .whitespacesAndNewlines)) == expectedColdStartChecksum
    else {
        throw BenchmarkError("cold-start child '\(name)' failed: status \(process.terminationStatus), printed '\(String(decoding: data, as: UTF8.self))'")
    }
    return elapsed
}

/// The checksum every cold-start operation returns: the sum of the ids 0..<1,000.
let expectedColdStartChecksum = (0..<generatedTypeCount).reduce(0, +)

/// A benchmark that could not run.
struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
