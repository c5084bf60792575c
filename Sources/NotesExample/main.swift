// The Patchbay example: one binary, a different set of implementations per
// environment, chosen by a JSON manifest.
//
//     swift run notes-example                          # development
//     swift run notes-example --environment production
//     PATCHBAY_ENV=staging swift run notes-example
import Foundation
import NotesKit
import Patchbay
import PatchbayTools

struct Options {
    var environment: String?
    var manifests = "Manifests"

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            let (flag, inlineValue) = Self.split(argument)
            switch flag {
            case "--environment", "-e":
                environment = try inlineValue ?? Self.value(for: flag, from: &rest)
            case "--manifests":
                manifests = try inlineValue ?? Self.value(for: flag, from: &rest)
            case "--help", "-h":
                print(Self.usage)
                exit(0)
            default:
                throw UsageError(message: "unknown argument '\(argument)'")
            }
        }
    }

    static let usage = """
        USAGE: notes-example [--environment NAME] [--manifests FOLDER]
               notes-example patchbay <check|catalog|...>   (the patchbay command with this app's catalog)

        Writes a note with the implementations the environment's manifest chooses.
        The environment is --environment, else $PATCHBAY_ENV, else development.
        """

    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    private static func value(for flag: String, from rest: inout ArraySlice<String>) throws -> String {
        guard let value = rest.popFirst() else { throw UsageError(message: "\(flag) needs a value") }
        return value
    }
}

struct UsageError: Error {
    let message: String
}

/// Reads its dependencies through `@Injected`, from the bootstrapped container.
struct Demo {
    @Injected var notes: NoteService

    func run(environment: String) throws -> [String] {
        try notes.write("Hello from \(environment)", notify: "ada@example.com")
    }
}

func describe(_ container: Container) -> [String] {
    func row<T>(_ type: T.Type) -> String {
        let primary = container.binding(for: type).map { "\($0.factory) (\($0.lifetime))" } ?? "-"
        let secondary = container.binding(for: type, from: .secondary).map { "\($0.factory) (\($0.injector))" } ?? "-"
        let name = String(describing: type)
        return name.padding(toLength: 13, withPad: " ", startingAt: 0)
            + primary.padding(toLength: 30, withPad: " ", startingAt: 0) + secondary
    }
    return [
        "protocol     primary                       secondary",
        row(NoteService.self), row((any NoteStore).self), row((any Clock).self), row((any Logger).self),
        row((any Mailer).self), row((any IDGenerator).self),
    ]
}

// `notes-example patchbay check Manifests`: the same subcommands as the
// `patchbay` command, run with this app's live catalog.
if CommandLine.arguments.dropFirst().first == "patchbay" {
    exit(PatchbayCommandLine(catalog: .notes, commandName: "notes-example patchbay")
        .run(Array(CommandLine.arguments.dropFirst(2)), output: .process))
}

do {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    let folder = ManifestDirectory(url: URL(fileURLWithPath: options.manifests, isDirectory: true))
    let environment = folder.selectedEnvironment(options.environment)
    let container = try Container(catalog: .notes, manifests: folder, environment: environment)
    PatchbaySystem.bootstrap(container)

    print("environment: \(environment) (\(container.manifest.file))")
    describe(container).forEach { print($0) }
    print("")
    for line in try Demo().run(environment: environment) { print(line) }
} catch let error as ManifestError {
    FileHandle.standardError.write(Data((error.description + "\n").utf8))
    exit(1)
} catch let error as UsageError {
    FileHandle.standardError.write(Data("notes-example: \(error.message)\n\(Options.usage)\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("notes-example: \(error)\n".utf8))
    exit(1)
}
