// A catalog and helpers for the manifest diagnostics tests: every error code
// needs a catalog shaped to produce it.
import Foundation
@testable import Patchbay

protocol DUserRepository: Sendable {}
protocol DDatabase: Sendable {}
protocol DLogger: Sendable {}
protocol DClock: Sendable {}
protocol DMailer: Sendable {}
protocol DTemplates: Sendable {}
protocol DSession: AnyObject, Sendable {}
protocol DMetrics: Sendable {}
protocol DAudit: AnyObject, Sendable {}
final class DAuditImpl: DAudit {}
final class DGameViewModel: Sendable { init(game: DGame) {} }
struct DGame: Sendable {}
final class DGameHost: Sendable { init(model: DGameViewModel) {} }
final class DSignupService: Sendable { init(users: any DUserRepository) {} }
enum First { protocol Store: Sendable {} }
enum Second { protocol Store: Sendable {} }

struct DImpl: DUserRepository, DDatabase, DLogger, DClock, DMailer, DTemplates, DMetrics, First.Store, Second.Store {}
final class DSessionImpl: DSession {}

struct DSQLiteOptions: Decodable, Sendable {
    var path: String
    var poolSize: Int?
}

extension FactoryCatalog {
    /// Factories shaped to trigger each diagnostic.
    static var diagnostics: FactoryCatalog {
        var catalog = FactoryCatalog()
        catalog.register("sqlite", provides: (any DUserRepository).self, parameters: DSQLiteOptions.self) {
            (_: DSQLiteOptions, _: any DDatabase, _: any DLogger) in DImpl()
        }
        catalog.register("in-memory", provides: (any DUserRepository).self) { DImpl() }
        catalog.register("postgres", provides: (any DDatabase).self) { DImpl() }
        catalog.register("json-logger", provides: (any DLogger).self) { DImpl() }
        catalog.register("request-logger", provides: (any DLogger).self) { (_: any DSession) in DImpl() }
        catalog.register("system-clock", provides: (any DClock).self) { DImpl() }
        catalog.register("smtp", provides: (any DMailer).self) { (_: any DTemplates) in DImpl() }
        catalog.register("templates", provides: (any DTemplates).self) { (_: any DMailer) in DImpl() }
        catalog.register("session", provides: (any DSession).self) { DSessionImpl() }
        catalog.register("audit", provides: (any DAudit).self) { (_: any DSession) in DAuditImpl() }
        catalog.register("metrics", provides: (any DMetrics).self) { DImpl() }
        catalog.register("game", provides: DGameViewModel.self, argument: DGame.self) { game in DGameViewModel(game: game) }
        catalog.register("game-host", provides: DGameHost.self) { (model: DGameViewModel) in DGameHost(model: model) }
        catalog.register("signup", provides: DSignupService.self) { (users: any DUserRepository) in
            DSignupService(users: users)
        }
        catalog.register("first-store", provides: (any First.Store).self) { DImpl() }
        catalog.register("second-store", provides: (any Second.Store).self) { DImpl() }
        return catalog
    }
}

/// A temporary folder of manifest files, removed when the value is released.
final class ManifestFolder {
    let url: URL

    init(_ files: [String: String]) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("patchbay-\(UUID().uuidString)")
        for (name, text) in files {
            let file = url.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }
}

/// Loads `main` (with its `extends` parents among `files`) and validates it
/// against `catalog`, returning every diagnostic, as activation sees them.
func diagnostics(
    _ text: String, name: String = "main.json", others: [String: String] = [:],
    catalog: FactoryCatalog? = .diagnostics, environment: [String: String] = [:],
    loader: ManifestLoader = ManifestLoader()
) throws -> [Diagnostic] {
    let folder = try ManifestFolder(others.merging([name: text]) { $1 })
    var loader = loader  // its limits; the variables are `environment`
    loader.environment = environment
    let (manifest, loadDiagnostics) = loader.loadCollecting(contentsOf: folder.file(name), displayPath: name)
    guard let manifest else { return loadDiagnostics }
    let validator = catalog.map(ManifestValidator.init(catalog:)) ?? ManifestValidator()
    return loadDiagnostics + validator.validate(manifest)
}

/// The 1-based line and column where the `occurrence`-th match of `token` starts in `text`.
func position(of token: String, in text: String, occurrence: Int = 1) -> (line: Int, column: Int) {
    var searchStart = text.startIndex
    var found: Range<String.Index>?
    for _ in 0..<occurrence {
        guard let range = text.range(of: token, range: searchStart..<text.endIndex) else { return (0, 0) }
        found = range
        searchStart = range.upperBound
    }
    let before = text[..<found!.lowerBound]
    let line = before.filter { $0 == "\n" }.count + 1
    let lineStart = before.lastIndex(of: "\n").map { before.index(after: $0) } ?? before.startIndex
    return (line, before[lineStart...].unicodeScalars.count + 1)
}

extension ManifestError {
    /// An unusable path's diagnostics but its `unreadable` error: a catalog description's own problems.
    var problemsBeforeUnusable: [Diagnostic] { diagnostics.filter { $0 != unusablePath } }
}

extension Array where Element == Diagnostic {
    /// The diagnostics with this code.
    func with(_ code: DiagnosticCode) -> [Diagnostic] { filter { $0.code == code } }
    /// The one diagnostic, when there is exactly one and it has this code.
    func only(_ code: DiagnosticCode) -> Diagnostic? { count == 1 && first?.code == code ? first : nil }
}

extension Diagnostic {
    /// Where the diagnostic points.
    var position: SourcePosition { SourcePosition(line: line, column: column) }
}
