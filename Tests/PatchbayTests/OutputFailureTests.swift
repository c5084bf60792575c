// End-to-end tests of a command whose output cannot be written: standard
// output or error closed, full, or a pipe whose reader is gone while SIGPIPE
// is ignored. The built `patchbay` (and the example app's own `patchbay`
// subcommand) is started by /bin/sh, which closes or redirects the stream
// and sets SIGPIPE's disposition as a user's shell would; each must exit 2,
// not trap (a `try!` in FileHandle.write once ended every one with SIGILL).
import Foundation
import Testing

@Suite struct OutputFailureTests {
    /// Runs `script` with `sh -c`, `$0` the built `product`; stdout and stderr
    /// are pipes unless the script redirects them.
    static func shell(_ script: String, product: String = "patchbay", closingStdoutReader: Bool = false)
        throws -> (status: Int32, reason: Process.TerminationReason, stdout: String, stderr: String)
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script, try builtProduct(product).path]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        // The reader is gone before the first write: every write to the pipe fails with EPIPE.
        if closingStdoutReader { try out.fileHandleForReading.close() }
        try process.run()
        let stdout = closingStdoutReader ? Data() : out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, process.terminationReason, String(decoding: stdout, as: UTF8.self),
            String(decoding: stderr, as: UTF8.self))
    }

    static let hasDevFull = FileManager.default.fileExists(atPath: "/dev/full")

    @Test func aClosedStandardOutputExitsTwoWithAMessage() throws {
        for script in [#"exec "$0" --version >&-"#, #"exec "$0" check "$1" >&-"#] {
            let result = try Self.shell(script.replacingOccurrences(of: "$1", with: exampleManifests.path))
            #expect(result.reason == .exit && result.status == 2, "\(script): \(result)")
            #expect(result.stderr.hasPrefix("Error: could not write to standard output: "), "\(result.stderr)")
            #expect(result.stderr.contains("the output is incomplete"))
        }
        let app = try Self.shell(#"exec "$0" patchbay --version >&-"#, product: "notes-example")
        #expect(app.reason == .exit && app.status == 2, "\(app)")
        #expect(app.stderr.hasPrefix("Error: could not write to standard output: "), "\(app.stderr)")
    }

    @Test(.enabled(if: hasDevFull, "/dev/full is Linux's"))
    func aFullStandardOutputExitsTwoWithAMessage() throws {
        let quoted = "'\(exampleManifests.path)'"
        for script in [#"exec "$0" --version >/dev/full"#, #"exec "$0" check \#(quoted) >/dev/full"#,
            #"exec "$0" explain --manifest \#(quoted)/production.json NoteService >/dev/full"#,
            #"exec "$0" schema >/dev/full"#]
        {
            let result = try Self.shell(script)
            #expect(result.reason == .exit && result.status == 2, "\(script): \(result)")
            #expect(result.stderr == "Error: could not write to standard output: \(String(cString: strerror(ENOSPC))); "
                + "the output is incomplete\n", "\(script)")
        }
    }

    @Test func aPipeWithNoReaderExitsTwoWhenSIGPIPEIsIgnored() throws {
        // `trap '' PIPE` ignores the signal, and an ignored signal stays ignored across exec.
        let result = try Self.shell(#"trap '' PIPE; exec "$0" --version"#, closingStdoutReader: true)
        #expect(result.reason == .exit && result.status == 2, "\(result)")
        #expect(result.stderr == "Error: could not write to standard output: \(String(cString: strerror(EPIPE))); "
            + "the output is incomplete\n")
    }

    @Test func aFailingStandardErrorExitsTwoSilentlyAndStandardOutputIsWhole() throws {
        // Without a catalog the check writes a note to standard error, then the report to standard output.
        let folder = try ManifestFolder(["app.json": #"{"format":1,"bindings":[{"protocol":"A","factory":"a"}]}"#])
        var scripts = [#"exec "$0" check "$1" 2>&-"#]
        if Self.hasDevFull { scripts.append(#"exec "$0" check "$1" 2>/dev/full"#) }
        for script in scripts {
            let result = try Self.shell(script.replacingOccurrences(of: "$1", with: folder.url.path))
            #expect(result.reason == .exit && result.status == 2, "\(script): \(result)")
            #expect(result.stdout.hasSuffix("0 errors, 0 warnings in 1 manifest\n"), "\(result.stdout)")
        }
        let passing = try runProduct("patchbay", ["check", folder.url.path])
        #expect(passing.status == 0 && passing.stderr.hasPrefix("note: "), "the note that fails above: \(passing)")
    }
}
