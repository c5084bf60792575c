import Foundation

/// The command line: `notes-server [--environment NAME] [--manifests PATH] [--host HOST] [--port N] [--wiring patchbay|hand]`.
public struct ServerOptions: Sendable, Equatable {
    /// `--environment`, else `PATCHBAY_ENV`, else `development` (decided by the manifest folder).
    public var environment: String?
    /// `--manifests`, else the `Manifests` folder beside the example's `Package.swift`.
    public var manifests: URL = ServerOptions.defaultManifests
    /// `--host`: loopback unless told.
    public var host = "127.0.0.1"
    /// `--port`, else `PORT`, else 8080; 0 asks the system for a free one.
    public var port = 8080
    /// `--wiring hand`: the same routes over an in-memory store wired by hand,
    /// with no container: the load run's baseline. `patchbay` (the default) is the server.
    public var wiring = Wiring.patchbay

    /// How the handlers get their dependencies.
    public enum Wiring: String, Sendable {
        /// Resolved from the container on every request.
        case patchbay
        /// Made once by hand and captured.
        case hand
    }

    /// The folder of the example's manifests, found from this file's place in
    /// the source tree, so `swift run` finds it from any current folder.
    public static var defaultManifests: URL {
        URL(fileURLWithPath: #filePath)  // .../Examples/NotesServer/Sources/NotesServerKit/ServerOptions.swift
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Manifests", isDirectory: true)
    }

    /// Options from the arguments (without the program's name) and the environment.
    public init(_ arguments: [String], environment variables: [String: String]) throws(UsageError) {
        if let port = variables["PORT"] {
            guard let number = Int(port), (0...65535).contains(number) else {
                throw UsageError("PORT is '\(port)', not a port number")
            }
            self.port = number
        }
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            var flag = argument, value: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                flag = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            }
            func next() throws(UsageError) -> String {
                if let value { return value }
                guard let following = rest.popFirst() else { throw UsageError("\(flag) needs a value") }
                return following
            }
            switch flag {
            case "--environment", "-e": environment = try next()
            case "--manifests": manifests = URL(fileURLWithPath: try next(), isDirectory: true)
            case "--host": host = try next()
            case "--port":
                let text = try next()
                guard let number = Int(text), (0...65535).contains(number) else {
                    throw UsageError("--port is '\(text)', not a port number")
                }
                port = number
            case "--wiring":
                let text = try next()
                guard let wiring = Wiring(rawValue: text) else { throw UsageError("--wiring is 'patchbay' or 'hand', not '\(text)'") }
                self.wiring = wiring
            case "--help", "-h": throw UsageError(nil)
            default: throw UsageError("unknown argument '\(argument)'")
            }
        }
    }

    /// What `--help` prints.
    public static let usage = """
        USAGE: notes-server [--environment NAME] [--manifests PATH] [--host HOST] [--port N]
               notes-server patchbay <check|catalog|...>   (the patchbay command with this server's catalog)

        Serves the notes API, wired by the environment's manifest: --environment,
        else $PATCHBAY_ENV, else development. Listens on 127.0.0.1, port --port,
        else $PORT, else 8080. SIGTERM or SIGINT stop it gracefully.
        """
}

/// A command line the server does not understand (or `--help`, with no message).
public struct UsageError: Error, Equatable {
    /// What is wrong; nil for `--help`.
    public let message: String?
    init(_ message: String?) { self.message = message }
}
