// `patchbay check`'s note of the variables the app's environment must
// provide (CheckingManifestsInCI.md, `check --help`) lists those a
// decorator link's parameters reference too (issue 55): in a binding's
// `decorators` and in a link a `decorate` entry adds, each at its value.
import Foundation
import Testing
@testable import Patchbay

@Suite struct DecoratorVariablesNoteTests {
    @Test func unsetVariablesInDecoratorParametersAreNotedAsAFactorysAre() throws {
        let base = """
            {
              "format": 1,
              "bindings": [
                { "protocol": "TaggedStore", "factory": "base-store",
                  "decorators": [{ "decorator": "tagging", "parameters": { "tag": "${IN_CHAIN}" } }] },
                { "protocol": "TaggedStore", "factory": "base-store", "injector": "secondary", "decorators": ["first"] },
                { "protocol": "TagClock", "factory": "some-clock" }
              ]
            }
            """
        let staging = DecorateTests.child(#"""
            [{ "protocol": "TaggedStore", "injector": "secondary",
               "add": [{ "decorator": "tagging", "parameters": { "tag": "${IN_ENTRY}" } }] }]
            """#)
        let folder = try ManifestFolder(["base.json": base, "staging.json": staging])
        for checker in [ManifestChecker(catalog: DecoratorTests.catalog(), loader: ManifestLoader(environment: [:])),
                        ManifestChecker(description: DecoratorTests.catalog().describe(), loader: ManifestLoader(environment: [:]))] {
            let report = try checker.check([folder.file("staging.json")])
            #expect(report.diagnostics.errors.isEmpty, "\(report.diagnostics)")
            #expect(report.requiredVariables == ["IN_CHAIN", "IN_ENTRY"])
            let note = try #require(report.notes.first { $0.contains("must provide") })
            let inChain = position(of: #""${IN_CHAIN}""#, in: base)
            let inEntry = position(of: #""${IN_ENTRY}""#, in: staging)
            // Each at its value, in the file that wrote it (named as the checker was given it: here, a full path).
            #expect(note.contains(try Regex(#"IN_CHAIN \(used at [^)]*/base\.json:\#(inChain.line):\#(inChain.column)\)"#)), "\(note)")
            #expect(note.contains(try Regex(#"IN_ENTRY \(used at [^)]*/staging\.json:\#(inEntry.line):\#(inEntry.column)\)"#)), "\(note)")
        }
    }
}
