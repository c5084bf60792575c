// `decorate` (issue 55): a manifest that extends another edits the chains of
// the bindings it inherits without restating them. The merge, by the app
// (the chain resolved, in order) and by the check (live and offline, one
// verdict); each mistake with its code and place is DecorateCheckTests.swift.
import Foundation
import Testing
@testable import Patchbay
@testable import PatchbayTools

@Suite struct DecorateTests {
    /// The parent: a decorated store in primary and secondary, and a clock.
    static let base = """
        {
          "format": 1,
          "environment": "base",
          "bindings": [
            { "protocol": "TaggedStore", "factory": "base-store", "decorators": ["first"] },
            { "protocol": "TaggedStore", "factory": "base-store", "injector": "secondary",
              "decorators": ["first", "second"] },
            { "protocol": "TagClock", "factory": "some-clock" }
          ]
        }
        """

    /// A child of `parent` with `decorate` and, optionally, bindings of its own.
    static func child(_ decorate: String, extends parent: String = "base.json", bindings: String = "") -> String {
        """
        {
          "format": 1,
          "extends": "\(parent)",
          "bindings": [\(bindings)],
          "decorate": \(decorate)
        }
        """
    }

    /// The folder, with `staging.json` as given and `base.json` as above unless given.
    static func folder(_ staging: String, others: [String: String] = [:]) throws -> ManifestFolder {
        try ManifestFolder(["base.json": base, "staging.json": staging].merging(others) { $1 })
    }

    /// `staging.json` loaded with its chain.
    static func load(_ folder: ManifestFolder, _ name: String = "staging.json") throws -> Manifest {
        try ManifestLoader(environment: [:]).load(contentsOf: folder.file(name), displayPath: name)
    }

    /// The tags of the store each injector serves, as the app resolves it: the chain, innermost first.
    static func tags(_ manifest: Manifest) throws -> (primary: [String], secondary: [String]) {
        let container = try Container(catalog: DecoratorTests.catalog(), manifest: manifest)
        return (try container.resolve((any TaggedStore).self).tags,
            try container.resolve((any TaggedStore).self, from: .secondary).tags)
    }

    /// The errors the live catalog and its description find, which must be the same.
    static func errors(_ manifest: Manifest) throws -> [Diagnostic] {
        let live = ManifestValidator(catalog: DecoratorTests.catalog()).validate(manifest).errors
        let description = try CatalogDescription(jsonData: DecoratorTests.catalog().describe().jsonData())
        let offline = ManifestValidator(description: description).validate(manifest).errors
        #expect(live == offline)
        return live
    }

    // MARK: - The merge

    @Test func anEntryWithoutAnInjectorAddsToEveryInjectorsBinding() throws {
        let folder = try Self.folder(Self.child(#"[{ "protocol": "TaggedStore", "add": ["counted"] }]"#))
        let manifest = try Self.load(folder)
        #expect(try Self.errors(manifest).isEmpty)
        let tags = try Self.tags(manifest)
        #expect(tags.primary == ["base", "first", "counted"])
        #expect(tags.secondary == ["base", "first", "second", "counted"])
        // The parent, loaded alone, is as it was.
        #expect(try Self.tags(Self.load(folder, "base.json")).primary == ["base", "first"])
    }

    @Test func anEntryWithAnInjectorEditsThatInjectorsBindingAlone() throws {
        let folder = try Self.folder(Self.child(
            #"[{ "protocol": "TaggedStore", "injector": "secondary", "add": [{ "decorator": "tagging", "parameters": { "tag": "t" } }] }]"#))
        let tags = try Self.tags(Self.load(folder))
        #expect(tags.primary == ["base", "first"])
        #expect(tags.secondary == ["base", "first", "second", "t"])
    }

    @Test func removeTakesALinkOut() throws {
        let folder = try Self.folder(Self.child(#"[{ "protocol": "TaggedStore", "injector": "secondary", "remove": ["first"] }]"#))
        let tags = try Self.tags(Self.load(folder))
        #expect(tags.primary == ["base", "first"])
        #expect(tags.secondary == ["base", "second"])
        // Removing every link leaves the factory's product alone.
        let bare = try Self.folder(Self.child(
            #"[{ "protocol": "TaggedStore", "remove": ["first"] }, { "protocol": "TaggedStore", "injector": "secondary", "remove": ["second"] }]"#))
        #expect(try Self.tags(Self.load(bare)) == (["base"], ["base"]))
    }

    @Test func removeComesBeforeAddSoALinkCanMoveOutermostWithOtherParameters() throws {
        // In one entry, and across entries in file order.
        let folder = try Self.folder(Self.child(#"""
            [{ "protocol": "TaggedStore", "injector": "secondary", "remove": ["first"], "add": ["first"] },
             { "protocol": "TaggedStore", "add": [{ "decorator": "tagging", "parameters": { "tag": "a" } }] },
             { "protocol": "TaggedStore", "injector": "primary", "remove": ["tagging"],
               "add": [{ "decorator": "tagging", "parameters": { "tag": "b" } }] }]
            """#))
        let tags = try Self.tags(Self.load(folder))
        #expect(tags.primary == ["base", "first", "b"])
        #expect(tags.secondary == ["base", "second", "first", "a"])
    }

    @Test func threeFilesDeepEachEditsWhatItsParentsMade() throws {
        let middle = Self.child(#"[{ "protocol": "TaggedStore", "add": ["counted"] }]"#)
        let top = Self.child(#"[{ "protocol": "TaggedStore", "remove": ["first"], "add": ["timed"] }]"#, extends: "middle.json")
        let folder = try Self.folder(top, others: ["middle.json": middle])
        let manifest = try Self.load(folder)
        #expect(try Self.errors(manifest).isEmpty)
        let tags = try Self.tags(manifest)
        #expect(tags.primary == ["base", "counted", "timed"])
        #expect(tags.secondary == ["base", "second", "counted", "timed"])
        // Each link knows the file that added it.
        let chain = manifest.bindings[0].decorators
        #expect(chain.map(\.name) == ["first"])  // as read: validation applies the edits
        let described = ManifestValidator(catalog: DecoratorTests.catalog()).run(manifest).bindings
        let primary = try #require(described.first { $0.injector == .primary && $0.type == "TaggedStore" })
        #expect(primary.binding.decorators.map(\.name) == ["counted", "timed"])
        #expect(primary.binding.decorators.map { $0.origin?.file } == ["middle.json", "staging.json"])
    }

    @Test func aChildThatRestatesTheBindingReplacesTheChainAndItsOwnDecorateStillApplies() throws {
        let restated = #"{ "protocol": "TaggedStore", "factory": "plugin-store", "decorators": ["second"] }"#
        let folder = try Self.folder(Self.child(#"[{ "protocol": "TaggedStore", "add": ["counted"] }]"#, bindings: restated))
        let tags = try Self.tags(Self.load(folder))
        #expect(tags.primary == ["base", "second", "counted"])  // the child's chain, then its decorate
        #expect(tags.secondary == ["base", "first", "second", "counted"])  // the inherited one, edited
        // A parent's decorate edits the parent's binding, which a grandchild's restated one replaces whole.
        let middle = Self.child(#"[{ "protocol": "TaggedStore", "add": ["counted"] }]"#)
        let top = #"{ "format": 1, "extends": "middle.json", "bindings": [\#(restated)] }"#
        let three = try Self.folder(top, others: ["middle.json": middle])
        #expect(try Self.tags(Self.load(three)).primary == ["base", "second"])
    }

    @Test func aFileWithoutExtendsEditsItsOwnBindings() throws {
        // The same rule: applied once the file's bindings are merged over its parents' (it has none).
        let alone = #"""
            { "format": 1, "bindings": [{ "protocol": "TaggedStore", "factory": "base-store", "decorators": ["first"] }],
              "decorate": [{ "protocol": "TaggedStore", "add": ["second"] }] }
            """#
        let manifest = try ManifestLoader(environment: [:]).load(data: Data(alone.utf8))
        #expect(try Container(catalog: DecoratorTests.catalog(), manifest: manifest).resolve((any TaggedStore).self).tags
            == ["base", "first", "second"])
    }

    @Test func aQualifiedNameEditsTheBindingThatWroteTheShortOne() throws {
        let qualified = "PatchbayTests.TaggedStore"
        let folder = try Self.folder(Self.child(#"[{ "protocol": "\#(qualified)", "add": ["counted"] }]"#))
        let manifest = try Self.load(folder)
        #expect(try Self.errors(manifest).isEmpty)
        #expect(try Self.tags(manifest).primary == ["base", "first", "counted"])
    }

    @Test func anAddedDecoratorsParametersAreInterpolated() throws {
        let folder = try Self.folder(Self.child(
            #"[{ "protocol": "TaggedStore", "injector": "primary", "add": [{ "decorator": "tagging", "parameters": { "tag": "${TAG:-dflt}" } }] }]"#))
        let loaded = try ManifestLoader(environment: ["TAG": "env"]).load(contentsOf: folder.file("staging.json"))
        #expect(try Self.tags(loaded).primary == ["base", "first", "env"])
        let defaulted = try ManifestLoader(environment: [:]).load(contentsOf: folder.file("staging.json"))
        #expect(try Self.tags(defaulted).primary == ["base", "first", "dflt"])
    }

    @Test func aDecoratorNamedOnlyByDecorateIsUsed() throws {
        let folder = try Self.folder(Self.child(#"[{ "protocol": "TaggedStore", "add": ["counted"] }]"#))
        let result = ManifestValidator(catalog: DecoratorTests.catalog()).run(try Self.load(folder))
        let index = CatalogIndex(DecoratorTests.catalog())
        let counted = try #require(index.decoratorOffset(named: "counted"))
        #expect(result.namedFactories[counted])
    }
}
