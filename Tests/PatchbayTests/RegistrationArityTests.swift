// A factory of no, one or two dependencies is registered through a
// fixed-arity twin of the general form (for speed); one of three or more
// through the general form, a parameter pack. These tests pin down that every
// arity records the same needs, in parameter order, and builds the same way,
// light or in a resolution context.
import Testing
@testable import Patchbay

/// What an arity test factory makes: the tags of its dependencies, in the
/// order its closure received them.
final class Assembly: Sendable {
    let tags: [String]
    init(_ tags: [String]) { self.tags = tags }
}

struct RegistrationArityTests {
    /// "w", "g", "s" and "d" make a Widget, Gadget, Sprocket and Database
    /// tagged with their names; "a0" to "a4" make an Assembly from the first
    /// 0 to 4 of them.
    var catalog: FactoryCatalog {
        var catalog = FactoryCatalog()
        catalog.register("w", provides: (any Widget).self) { Part(tag: "w") }
        catalog.register("g", provides: (any Gadget).self) { Part(tag: "g") }
        catalog.register("s", provides: (any Sprocket).self) { Part(tag: "s") }
        catalog.register("d", provides: (any Database).self) { FakeDatabase(label: "d") }
        catalog.register("a0", provides: Assembly.self) { Assembly([]) }
        catalog.register("a1", provides: Assembly.self) { (w: any Widget) in Assembly([w.tag]) }
        catalog.register("a2", provides: Assembly.self) { (w: any Widget, g: any Gadget) in
            Assembly([w.tag, g.tag])
        }
        catalog.register("a3", provides: Assembly.self) { (w: any Widget, g: any Gadget, s: any Sprocket) in
            Assembly([w.tag, g.tag, s.tag])
        }
        catalog.register("a4", provides: Assembly.self) {
            (w: any Widget, g: any Gadget, s: any Sprocket, d: any Database) in
            Assembly([w.tag, g.tag, s.tag, d.label])
        }
        return catalog
    }

    let parts = [bind("Widget", to: "w"), bind("Gadget", to: "g"), bind("Sprocket", to: "s"), bind("Database", to: "d")]
    let partTypes = ["PatchbayTests.Widget", "PatchbayTests.Gadget", "PatchbayTests.Sprocket", "PatchbayTests.Database"]

    @Test(arguments: 0...4)
    func everyArityRecordsItsNeedsInParameterOrder(arity: Int) throws {
        let factory = try #require(catalog.describe().factories.first { $0.name == "a\(arity)" })
        #expect(factory.needs?.map(\.type) == Array(partTypes.prefix(arity)))
        #expect(factory.needs?.allSatisfy { $0.kind == "direct" } == true)
    }

    @Test(arguments: 0...4, [Lifetime.transient, .singleton, .graph])
    func everyArityBuildsWithItsDependenciesInParameterOrder(arity: Int, lifetime: Lifetime) throws {
        let container = try makeContainer(catalog, parts + [bind("Assembly", to: "a\(arity)", lifetime)])
        let assembly = try container.resolve(Assembly.self)
        #expect(assembly.tags == Array(["w", "g", "s", "d"].prefix(arity)))
    }

    @Test func aMissingNeedOfATwinIsAnActivationError() throws {
        // Only the widget is bound: "a2" needs a gadget too.
        #expect(throws: ManifestError.self) {
            try makeContainer(catalog, [bind("Widget", to: "w"), bind("Assembly", to: "a2")])
        }
        _ = try makeContainer(catalog, [bind("Widget", to: "w"), bind("Assembly", to: "a1")])
    }

    @Test func theTwinsTakeOptionalAndLazyNeeds() throws {
        var catalog = catalog
        catalog.register("wrapped", provides: Assembly.self) { (w: Lazy<any Widget>, s: (any Sprocket)?) in
            Assembly([try w.get().tag, s?.tag ?? "none"])
        }
        catalog.register("optional", provides: (any Gadget).self) { (s: (any Sprocket)?) in
            Part(tag: "from-" + (s?.tag ?? "none"))
        }
        let needs = catalog.describe().factories.first { $0.name == "wrapped" }?.needs
        #expect(needs?.map(\.kind) == ["lazy", "optional"])
        let container = try makeContainer(catalog, [
            bind("Widget", to: "w"), bind("Assembly", to: "wrapped"), bind("Gadget", to: "optional"),
        ])
        #expect(try container.resolve(Assembly.self).tags == ["w", "none"])
        #expect(try container.resolve((any Gadget).self).tag == "from-none")
    }

    @Test func aFailingNeedOfATwinNamesThePath() throws {
        var catalog = catalog
        catalog.register("broken", provides: (any Gadget).self) { () throws -> Part in
            throw FixtureError(message: "no gadget")
        }
        let container = try makeContainer(catalog, [
            bind("Widget", to: "w"), bind("Gadget", to: "broken"), bind("Assembly", to: "a2"),
        ])
        let error = try #require(throws: ResolutionError.self) { try container.resolve(Assembly.self) }
        #expect(error.description.contains("no gadget"))
        #expect(error.description.contains("Assembly"))
        #expect(error.description.contains("Gadget"))
    }
}
