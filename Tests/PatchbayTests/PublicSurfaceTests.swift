import Foundation
import Testing

/// Issue 54 capped the public types of `Sources/Patchbay` at 39: every one is
/// a name a user must learn and a promise kept across releases, so a new
/// feature pays for its own surface (folding another type, a deprecated
/// `typealias` for one release) rather than growing it. Counted as the
/// issue counts them, with
/// `grep -rhoE "^\s*public (final )?(class|struct|enum|protocol|actor) [A-Za-z]+" Sources/Patchbay`:
/// every line of every file under the folder, nested types included.
struct PublicSurfaceTests {
    static let cap = 39

    /// The declarations the grep finds, as `public struct Name`, with their files.
    static func publicTypes() throws -> [(declaration: String, file: String)] {
        let root = repositoryRoot.appendingPathComponent("Sources/Patchbay")
        let declaration = try Regex(#"^\s*public (final )?(class|struct|enum|protocol|actor) [A-Za-z]+"#)
        var found: [(String, String)] = []
        let files = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]))
        for case let file as URL in files {
            guard try file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { continue }
            // As grep reads them: bytes, split at line feeds (a file that is not UTF-8 still has its lines read).
            let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
            for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
                if let match = try declaration.prefixMatch(in: line) {
                    found.append((String(line[match.range]).trimmingCharacters(in: .whitespaces), file.lastPathComponent))
                }
            }
        }
        return found
    }

    @Test func sourcesPatchbayHasAtMostTheCappedNumberOfPublicTypes() throws {
        let types = try Self.publicTypes()
        // The scan reads what the grep reads: it finds the container, a nested type and a protocol.
        let names = Set(types.map(\.declaration))
        #expect(names.isSuperset(of: [
            "public final class Container", "public enum Severity", "public protocol Injectable",
        ]), "\(names.sorted())")
        #expect(
            types.count <= Self.cap,
            """
            \(types.count) public types in Sources/Patchbay, over the cap of \(Self.cap) (issue 54): fold one \
            into an existing type (a deprecated typealias may keep the old name one release), or make it \
            internal. Found: \(types.map { "\($0.declaration) (\($0.file))" }.sorted().joined(separator: ", "))
            """)
    }
}
