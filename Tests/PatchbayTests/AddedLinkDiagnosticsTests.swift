// A link added by `decorate` (issue 55) is judged in every chain it joins:
// what several injectors' chains find alike is one mistake, reported once,
// but a link's several problems (each need, each parameter field) are all
// reported, as the same link written in a binding's `decorators` reports them.
import Foundation
import Testing
@testable import Patchbay

/// Two needs no manifest here binds.
protocol FirstUnboundNeed: Sendable {}
protocol SecondUnboundNeed: Sendable {}

/// A parameter type with two required fields.
struct TwoFieldOptions: Decodable, Sendable {
    var tag: String
    var count: Int
}

@Suite struct AddedLinkDiagnosticsTests {
    /// DecoratorTests' catalog, with a decorator of two needs and one of two parameter fields.
    static func catalog() -> FactoryCatalog {
        var catalog = DecoratorTests.catalog()
        catalog.registerDecorator("two-needs", decorates: (any TaggedStore).self) {
            (inner: any TaggedStore, _: any FirstUnboundNeed, _: any SecondUnboundNeed) in inner
        }
        catalog.registerDecorator("two-fields", decorates: (any TaggedStore).self, parameters: TwoFieldOptions.self) {
            (inner: any TaggedStore, _: TwoFieldOptions) in inner
        }
        return catalog
    }

    /// A link of two unbound needs, and one of two missing parameter fields (a
    /// link whose parameters fail breaks its chain, whose needs are then not judged: two entries).
    static let needs = #"{ "protocol": "TaggedStore", "add": ["two-needs"] }"#
    static let fields = #"{ "protocol": "TaggedStore", "add": [{ "decorator": "two-fields", "parameters": {} }] }"#

    /// The codes and pointers of the errors `staging.json` has, live and as catalog.json describes it.
    static func errors(_ staging: String) throws -> (live: [String], described: [String]) {
        let folder = try ManifestFolder(["base.json": DecorateTests.base, "staging.json": staging])
        let manifest = try DecorateTests.load(folder)
        let description = try CatalogDescription(jsonData: catalog().describe().jsonData())
        func shown(_ diagnostics: [Diagnostic]) -> [String] {
            diagnostics.filter { $0.severity == .error }.map { "\($0.code) \($0.path) \($0.dependencyPath?.last ?? "")" }.sorted()
        }
        return (shown(ManifestValidator(catalog: catalog()).validate(manifest)),
            shown(ManifestValidator(description: description).validate(manifest)))
    }

    @Test func everyProblemOfAnAddedLinkIsReportedOnceInEveryInjectorsChain() throws {
        // base.json binds TaggedStore in primary and in secondary: each entry edits both chains.
        let (needs, describedNeeds) = try Self.errors(DecorateTests.child("[\(Self.needs)]"))
        #expect(needs == describedNeeds)
        #expect(needs == ["missing-dependency /decorate/0/add/0 FirstUnboundNeed",
                          "missing-dependency /decorate/0/add/0 SecondUnboundNeed"], "\(needs)")
        let (fields, describedFields) = try Self.errors(DecorateTests.child("[\(Self.fields)]"))
        #expect(fields == describedFields)
        #expect(fields == ["invalid-parameters /decorate/0/add/0/parameters ",
                           "invalid-parameters /decorate/0/add/0/parameters "], "\(fields)")
    }

    @Test(arguments: [needs, fields])
    func anAddedLinkReportsAsManyProblemsAsTheSameLinkInABindingsChain(_ entry: String) throws {
        let secondary = entry.replacingOccurrences(of: #""add""#, with: #""injector": "secondary", "add""#)
        let added = try Self.errors(DecorateTests.child("[\(secondary)]")).live
        let links = try #require(entry.firstRange(of: "[").map { entry[$0.lowerBound...].dropLast(2) })
        let written = try Self.errors(DecorateTests.child("[]", bindings: #"""
            { "protocol": "TaggedStore", "factory": "base-store", "injector": "secondary", "decorators": \#(links) }
            """#)).live
        #expect(added.count == written.count && added.count == 2, "\(added) vs \(written)")
    }
}
