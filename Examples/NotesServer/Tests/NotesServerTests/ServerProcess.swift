// Runs the built `notes-server` as a user does: a process of its own on a
// free loopback port, talked to over HTTP, stopped with a signal.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A running `notes-server`, its output in files, stopped when the test says.
final class ServerProcess: @unchecked Sendable {
    let process = Process()
    let port: Int
    private let output: URL, errors: URL

    /// The built executable: in the folder `NOTES_SERVER_PRODUCTS_DIR` names,
    /// else beside the test code (SwiftPM's products folder, where `swift test` built it).
    static var executable: URL {
        get throws {
            let environment = ProcessInfo.processInfo.environment
            var folders: [URL] = []
            if let named = environment["NOTES_SERVER_PRODUCTS_DIR"], !named.isEmpty {
                folders.append(URL(fileURLWithPath: named, isDirectory: true))
            }
            folders.append(Bundle.main.bundleURL)
            folders.append(Bundle.main.bundleURL.deletingLastPathComponent())
            for folder in folders {
                let candidate = folder.appendingPathComponent("notes-server")
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            }
            throw Failure("no built notes-server in \(folders.map(\.path)); run `swift build` first")
        }
    }

    /// Starts the server with `arguments` and exactly the environment `variables`
    /// (plus PATH and HOME), on a free loopback port.
    init(_ arguments: [String] = [], environment variables: [String: String]) throws {
        port = try freeLoopbackPort()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notes-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        output = folder.appendingPathComponent("stdout")
        errors = folder.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.executableURL = try Self.executable
        process.arguments = ["--port", "\(port)"] + arguments
        var environment = variables
        for name in ["PATH", "HOME"] { environment[name] = ProcessInfo.processInfo.environment[name] }
        process.environment = environment
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    var standardOutput: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }
    var standardError: String { (try? String(contentsOf: errors, encoding: .utf8)) ?? "" }

    /// Waits until `GET /health` answers 200, or fails when the process exits first or after `seconds`.
    func waitUntilServing(seconds: Double = 60) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            guard process.isRunning else {
                throw Failure("notes-server exited (\(process.terminationStatus)) before serving:\n\(standardError)\n\(standardOutput)")
            }
            if let (status, _) = try? await request("GET", "/health"), status == 200 { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw Failure("notes-server did not serve within \(seconds) s:\n\(standardError)\n\(standardOutput)")
    }

    /// Waits for the process to exit by itself; its status.
    func waitForExit(seconds: Double = 60) async throws -> Int32 {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning {
            guard Date() < deadline else {
                kill(process.processIdentifier, SIGKILL)
                throw Failure("notes-server still running after \(seconds) s:\n\(standardError)\n\(standardOutput)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        return process.terminationStatus
    }

    /// Sends SIGTERM and waits; the exit status, which a graceful stop makes 0.
    func terminate() async throws -> Int32 {
        kill(process.processIdentifier, SIGTERM)
        return try await waitForExit()
    }

    /// One HTTP request to the server; the status and the body.
    func request(_ method: String, _ path: String, json body: String? = nil) async throws -> (Int, Data) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        request.timeoutInterval = 10
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    /// Runs the server to its end with `arguments`, for a start that must fail: its status and standard error.
    static func runToEnd(_ arguments: [String], environment: [String: String]) async throws -> (Int32, String) {
        let server = try ServerProcess(arguments, environment: environment)
        let status = try await server.waitForExit()
        return (status, server.standardError)
    }
}

struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A loopback port no one listens on now: bound, read and closed. (Another
/// process could take it before the server does; on a test machine it does not.)
func freeLoopbackPort() throws -> Int {
    #if canImport(Glibc)
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw Failure("socket: \(errno)") }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
    }
    guard bound == 0 else { throw Failure("bind: \(errno)") }
    let named = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    guard named == 0 else { throw Failure("getsockname: \(errno)") }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// The example's folder of manifests, from this file's place in the source tree.
let manifestsFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Manifests", isDirectory: true)
