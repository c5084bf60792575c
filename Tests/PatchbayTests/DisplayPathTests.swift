// How files are named in diagnostics when a symlink lies between the current
// folder and the file. On macOS every temporary folder is one: `$TMPDIR` is
// `/var/folders/...`, `/var` leads to `/private/var`, and the current folder
// (from `getcwd`) is the physical `/private/var/...` path. Linux has no such
// link, so these tests make one in a temporary folder, and pass the current
// folder as a parameter rather than change the process's, which parallel
// tests share.
import Foundation
import Testing
@testable import Patchbay

@Suite struct DisplayPathTests {
    /// `real/Manifests/app.json`, `link` -> `real`, and `shared/base.json`
    /// with `project/Manifests` -> `../shared`.
    final class Tree {
        let root: URL
        var real: URL { root.appendingPathComponent("real") }
        var link: URL { root.appendingPathComponent("link") }
        var project: URL { root.appendingPathComponent("project") }

        init() throws {
            let files = FileManager.default
            root = files.temporaryDirectory.appendingPathComponent("patchbay-paths-\(UUID().uuidString)")
            try files.createDirectory(at: root.appendingPathComponent("real/Manifests"), withIntermediateDirectories: true)
            try Data("{}".utf8).write(to: root.appendingPathComponent("real/Manifests/app.json"))
            try files.createSymbolicLink(atPath: link.path, withDestinationPath: "real")
            try files.createDirectory(at: root.appendingPathComponent("shared"), withIntermediateDirectories: true)
            try Data("{}".utf8).write(to: root.appendingPathComponent("shared/base.json"))
            try files.createDirectory(at: project, withIntermediateDirectories: true)
            try files.createSymbolicLink(
                atPath: project.appendingPathComponent("Manifests").path, withDestinationPath: "../shared")
        }

        deinit { try? FileManager.default.removeItem(at: root) }
    }

    /// macOS's case: the file through the link (`/var/...`), the current
    /// folder physical (`/private/var/...`).
    @Test func aFileThroughALinkIsNamedFromThePhysicalCurrentFolder() throws {
        let tree = try Tree()
        let file = tree.link.appendingPathComponent("Manifests/app.json")
        #expect(ManifestLoader.displayPath(for: file, currentDirectory: tree.real.path) == "Manifests/app.json")
        #expect(ManifestLoader.displayPath(for: tree.link, currentDirectory: tree.real.path) == ".")
    }

    /// The other way round: the current folder given through the link.
    @Test func aPhysicalFileIsNamedFromACurrentFolderThroughALink() throws {
        let tree = try Tree()
        let file = tree.real.appendingPathComponent("Manifests/app.json")
        #expect(ManifestLoader.displayPath(for: file, currentDirectory: tree.link.path) == "Manifests/app.json")
    }

    /// A manifest named by mistake does not exist, and is named the same way.
    @Test func aMissingFileThroughALinkIsNamedRelatively() throws {
        let tree = try Tree()
        let file = tree.link.appendingPathComponent("Manifests/missing.json")
        #expect(ManifestLoader.displayPath(for: file, currentDirectory: tree.real.path) == "Manifests/missing.json")
        let deeper = tree.link.appendingPathComponent("Manifests/no-folder/missing.json")
        #expect(ManifestLoader.displayPath(for: deeper, currentDirectory: tree.real.path)
            == "Manifests/no-folder/missing.json")
    }

    /// A link below the current folder that leads out of it keeps its own
    /// name: the paths are compared as written before they are resolved.
    @Test func aLinkBelowTheCurrentFolderKeepsItsName() throws {
        let tree = try Tree()
        let file = tree.project.appendingPathComponent("Manifests/base.json")
        #expect(ManifestLoader.displayPath(for: file, currentDirectory: tree.project.path) == "Manifests/base.json")
    }

    /// A file outside the current folder is named in full, as written, not
    /// as resolved: the name the user gave is the one they recognize.
    @Test func aFileOutsideIsNamedInFullAsWritten() throws {
        let tree = try Tree()
        let file = tree.link.appendingPathComponent("Manifests/app.json")
        #expect(ManifestLoader.displayPath(for: file, currentDirectory: tree.project.path) == file.path)
    }

    /// `extends` compares paths the same way: a missing parent in the folder
    /// of a manifest read through a link is missing, not outside the folder.
    @Test func aMissingParentBelowALinkedFolderIsNotFoundNotOutside() throws {
        let tree = try Tree()
        try Data(#"{ "format": 1, "extends": "gone.json", "bindings": [] }"#.utf8)
            .write(to: tree.real.appendingPathComponent("Manifests/child.json"))
        let (_, diagnostics) = ManifestLoader(environment: [:])
            .loadCollecting(contentsOf: tree.link.appendingPathComponent("Manifests/child.json"), displayPath: "child.json")
        #expect(diagnostics.map(\.code) == [.extendsNotFound])
    }
}
