// A check of a folder reads and validates its manifests on every core
// (`ManifestChecker.jobs`, `patchbay check --jobs N`): the report must be the
// one a check on one core gives, byte for byte and in the same order, with
// the folder-wide rules (unused factories, environments) judged once after.
import Foundation
import NotesKit
import Testing
@testable import Patchbay
@testable import PatchbayTools

@Suite struct ParallelCheckTests {
    /// A folder of many manifests with a little of everything a check reports: a parent (`base.json`)
    /// and a chain of two (`staging.json` through `mid.json`), a test double in production, syntax
    /// errors, unknown factories, unset variables, manifests missing what they need, a name that
    /// loads no environment, and the catalog's factories that no manifest binds.
    static func folder() throws -> ManifestFolder {
        var files: [String: String] = [
            "base.json": EnvironmentRuleTests.base,
            "production.json": EnvironmentRuleTests.child(environment: "production", EnvironmentRuleTests.fixedClock),
            "mid.json": EnvironmentRuleTests.child(environment: nil, EnvironmentRuleTests.fixedClock),
            "staging.json": """
                { "format": 1, "extends": "mid.json", "bindings": [
                  { "protocol": "IDGenerator", "factory": "no-such-ids" } ] }
                """,
            "Shouting.JSON": EnvironmentRuleTests.child(environment: nil, ""),
            "catalog.json": String(decoding: try FactoryCatalog.notes.describe().jsonData(), as: UTF8.self),
        ]
        for index in 0..<60 {
            let name = "env-\(String(format: "%02d", index)).json"
            switch index % 5 {
            case 0: files[name] = "{ \"format\": 1, \"bindings\": [ { \"protocol\": \"Clock\", \"factory\": \n"
            case 1: files[name] = EnvironmentRuleTests.child(environment: nil, #"    { "protocol": "Clock", "factory": "sundial-\#(index)" }"#)
            case 2: files[name] = EnvironmentRuleTests.child(environment: nil, #"    { "protocol": "Mailer", "factory": "smtp-mailer", "parameters": { "host": "${MAIL_HOST_\#(index)}", "port": 25 } }"#)
            case 3: files[name] = EnvironmentRuleTests.child(environment: nil, EnvironmentRuleTests.fixedClock)
            default: files[name] = #"{ "format": 1, "bindings": [ { "protocol": "NoteService", "factory": "note-service" } ] }"#
            }
        }
        return try ManifestFolder(files)
    }

    /// Everything a report says, as `patchbay check` prints it in each format.
    static func printed(_ report: CheckReport) -> String {
        var text = report.notes.map { "note: \($0)\n" }.joined() + report.summary + "\n"
        report.writeText(maxDiagnostics: nil) { text += $0 }
        report.writeJSON(maxDiagnostics: nil) { text += $0 }
        report.writeGitHub(maxDiagnostics: nil) { text += $0 }
        return text
    }

    @Test(arguments: ["offline", "live"])
    func aFolderCheckedOnEveryCoreReportsWhatOneCoreReports(_ catalog: String) throws {
        let folder = try Self.folder()
        let loader = ManifestLoader(environment: [:])
        var checker = catalog == "live" ? ManifestChecker(catalog: .notes, loader: loader) : ManifestChecker(loader: loader)
        checker.jobs = 1
        let serial = try checker.check([folder.url])
        let codes = Set(serial.diagnostics.map(\.code))
        // The folder exercises what it is meant to: each file's rules, and the folder's.
        for code in [DiagnosticCode.unusedFactory, .environmentNotAllowed, .unknownFactory, .environmentFileName] {
            #expect(codes.contains(code), "\(code) not reported")
        }
        #expect(serial.requiredVariables.count == 12)
        #expect(serial.manifestCount == 65)
        let expected = Self.printed(serial)
        // Every core, more workers than cores, a few: and again, as a race shows only now and then.
        for jobs in [nil, 3, 64, nil, nil] as [Int?] {
            checker.jobs = jobs
            let parallel = try checker.check([folder.url])
            #expect(parallel.diagnostics == serial.diagnostics, "jobs: \(jobs.map(String.init) ?? "every core")")
            #expect(parallel.notes == serial.notes)
            #expect(parallel.requiredVariables == serial.requiredVariables)
            #expect(Self.printed(parallel) == expected)
        }
    }

    @Test func theAppLoadingTheFolderGivesTheVerdictOfTheCheckOnEveryCore() throws {
        let folder = try Self.folder()
        let loader = ManifestLoader(environment: [:])
        let report = try ManifestChecker(catalog: .notes, loader: loader).check([folder.url])
        func place(_ diagnostic: Diagnostic) -> String { "\(diagnostic.code) \(diagnostic.line):\(diagnostic.column)" }
        for environment in ["production", "staging", "env-01"] {
            var activation: [Diagnostic] = []
            do {
                _ = try Container(catalog: .notes, manifests: ManifestDirectory(url: folder.url, loader: loader),
                                  environment: environment)
            } catch {
                activation = error.diagnostics
            }
            let checked = report.diagnostics.filter {
                $0.severity == .error && ["\(environment).json", "base.json", "mid.json"].contains(URL(fileURLWithPath: $0.file).lastPathComponent)
                    && (environment != "env-01" || $0.file.hasSuffix("env-01.json"))
            }
            #expect(!activation.isEmpty, "\(environment) activated")
            #expect(Set(activation.filter { $0.severity == .error }.map(place)).isSubset(of: Set(checked.map(place))),
                    "\(environment)")
        }
    }

    @Test func theOneManifestThatDiffReadsIsTheSameOnEveryCore() throws {
        let folder = try Self.folder()
        var checker = ManifestChecker(catalog: .notes, loader: ManifestLoader(environment: [:]))
        checker.jobs = 1
        let serial = try checker.check(folder.file("staging.json"), inFolder: folder.url)
        checker.jobs = nil
        let parallel = try checker.check(folder.file("staging.json"), inFolder: folder.url)
        #expect(serial.report.diagnostics == parallel.report.diagnostics)
        #expect(serial.manifest != nil && serial.manifest?.bindings.count == parallel.manifest?.bindings.count)
    }

    /// 0, the command's default, is every core, as nil is: it once ran every check on one thread.
    @Test(arguments: [nil, 0] as [Int?])
    func everyCoreMeansSeveralThreads(jobs: Int?) throws {
        try #require(ProcessInfo.processInfo.activeProcessorCount > 1, "one core: nothing to spread")
        let threads = Locked(Set<String>())
        // Index 0 holds its worker until a second thread has taken an index, so that one worker cannot
        // take them all on a loaded machine; one worker alone (the bug) waits out the 30 s and fails.
        let secondThread = DispatchSemaphore(value: 0)
        let squares = ParallelMap.map(count: 64, jobs: jobs) { index in
            let seen = threads.withLock { $0.insert("\(pthread_self())"); return $0.count }
            if index == 0 { _ = secondThread.wait(timeout: .now() + 30) } else if seen > 1 { secondThread.signal() }
            return index * index
        }
        #expect(squares == (0..<64).map { $0 * $0 })
        #expect(threads.withLock(\.count) > 1)
        let one = Locked(Set<String>())
        _ = ParallelMap.map(count: 8, jobs: 1) { index in one.withLock { _ = $0.insert("\(pthread_self())") } }
        #expect(one.withLock(\.count) == 1)
    }

    @Test func theCommandPrintsTheSameWhateverItsJobs() throws {
        let folder = try Self.folder()
        let one = try runProduct("patchbay", ["check", "--max-diagnostics", "0", "--jobs", "1", folder.url.path])
        let every = try runProduct("patchbay", ["check", "--max-diagnostics", "0", folder.url.path])
        let three = try runProduct("patchbay", ["check", "--max-diagnostics", "0", "--jobs", "3", folder.url.path])
        #expect(one.status == 1)
        #expect(!one.stdout.isEmpty)
        #expect(every.status == one.status && every.stdout == one.stdout && every.stderr == one.stderr)
        #expect(three.status == one.status && three.stdout == one.stdout && three.stderr == one.stderr)
        let wrong = try runProduct("patchbay", ["check", "--jobs", "many", folder.url.path])
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains("invalid value 'many' for '--jobs'"))
    }
}
