import Foundation
import NotesKit
import Testing
@testable import Patchbay

/// The quick validation activation tries first (by type identity): it takes
/// the usual manifest with the same result as the full validator, and hands
/// everything else to it. Debug builds also hold every activation in the
/// other tests to the full validator; the bad-manifest corpus checks it gives
/// up on every broken manifest.
struct QuickValidationTests {
    struct Options: Decodable, Sendable { var size: Int }

    private func catalog() -> FactoryCatalog {
        var catalog = FactoryCatalog()
        catalog.register("db", provides: (any Database).self) { FakeDatabase(label: "db") }
        catalog.register("other-db", provides: (any Database).self) { FakeDatabase(label: "other") }
        catalog.register("repo", provides: (any UserRepository).self) { (db: any Database) in
            FakeUserRepository(label: "repo", database: db)
        }
        catalog.register("optional-repo", provides: (any UserRepository).self) { (db: (any Database)?) in
            FakeUserRepository(label: "optional", database: db)
        }
        catalog.register("signup", provides: SignupService.self) { (users: any UserRepository) in
            SignupService(users: users)
        }
        catalog.register("sized", provides: (any Widget).self, parameters: Options.self) { options in
            Part(tag: "\(options.size)")
        }
        catalog.register("part", product: Part.self, provides: (any Widget).self, (any Gadget).self) { Part(tag: "part") }
        catalog.register("greeting", provides: (any Greeting).self) { TextGreeting(text: "hi") }
        return catalog
    }

    /// The full validator's plan for a manifest it accepts.
    private func fullPlan(_ manifest: Manifest, _ catalog: FactoryCatalog) throws -> ActivationPlan {
        let result = ManifestValidator(catalog: catalog).run(manifest)
        try #require(!result.diagnostics.containsErrors, "\(result.diagnostics)")
        return ActivationPlan(
            bindings: result.bindings.map { validated in
                let definition = catalog.definitions[validated.factoryOffset]
                return PlannedBinding(
                    definitionOffset: validated.factoryOffset,
                    providedOffset: definition.provides.firstIndex { $0.key.qualifiedName == validated.typeName }!,
                    lifetime: validated.lifetime, injector: validated.injector, parameters: validated.parameters,
                    rawParameters: validated.binding.parameters)
            },
            injectorOrder: result.injectorOrder, warnings: result.diagnostics.warnings)
    }

    static let accepted: [(String, Manifest)] = [
        ("a chain, unused factories", manifest([
            bind("Database", to: "db", .singleton), bind("UserRepository", to: "repo"),
            bind("SignupService", to: "signup", .transient),
        ])),
        ("a need served from another injector", manifest([
            bind("Database", to: "db", in: .secondary), bind("UserRepository", to: "repo", .singleton),
        ])),
        ("each injector its own", manifest(injectors: ["tests"], [
            bind("Database", to: "db", .singleton), bind("Database", to: "other-db", .singleton, in: "tests"),
            bind("UserRepository", to: "repo", in: "tests"),
        ])),
        ("an unbound optional need", manifest([bind("UserRepository", to: "optional-repo", .scoped)])),
        ("parameters", manifest([bind("Widget", to: "sized", .singleton, parameters: .object(["size": .integer(3)]))])),
        ("two types of one factory", manifest([bind("Widget", to: "part", .weak), bind("Gadget", to: "part", .graph)])),
        ("empty parameters for a factory that takes none", manifest([
            bind("Greeting", to: "greeting", parameters: .object([:])),
        ])),
    ]

    @Test(arguments: accepted.indices)
    func takesTheUsualManifestAsTheFullValidatorDoes(_ index: Int) throws {
        let (name, manifest) = Self.accepted[index]
        let catalog = catalog()
        let quick = try #require(QuickValidation.run(manifest, catalog: catalog), "\(name)")
        #expect(quick == (try fullPlan(manifest, catalog)), "\(name)")
    }

    @Test func unusedFactoriesGetTheFullValidatorsWarnings() throws {
        let manifest = manifest([bind("Greeting", to: "greeting")])
        let quick = try #require(QuickValidation.run(manifest, catalog: catalog()))
        #expect(quick.warnings.map(\.message) == [
            "db", "optional-repo", "other-db", "part", "repo", "signup", "sized",
        ].map { "factory '\($0)' is never used by this manifest" })
        #expect(quick.warnings == ManifestValidator(catalog: catalog()).validate(manifest))
    }

    static let handedOver: [(String, Manifest)] = [
        ("a module-qualified name", manifest([bind("PatchbayTests.Database", to: "db")])),
        ("a duplicate", manifest([bind("Database", to: "db"), bind("Database", to: "other-db")])),
        ("an unknown protocol", manifest([bind("Databse", to: "db")])),
        ("an unknown factory", manifest([bind("Database", to: "dbb")])),
        ("a factory that does not provide it", manifest([bind("Database", to: "repo")])),
        ("a missing need", manifest([bind("UserRepository", to: "repo")])),
        ("a captive need", manifest([bind("Database", to: "db", .scoped), bind("UserRepository", to: "repo", .singleton)])),
        ("weak on a value", manifest([bind("Greeting", to: "greeting", .weak)])),
        ("parameters that do not fit", manifest([bind("Widget", to: "sized", parameters: .object(["size": .string("x")]))])),
        ("parameters for a factory that takes none", manifest([
            bind("Greeting", to: "greeting", parameters: .object(["x": .integer(1)])),
        ])),
        ("an undeclared injector", manifest(injectors: ["tests"], [bind("Database", to: "db", in: "test")])),
    ]

    @Test(arguments: handedOver.indices)
    func handsEverythingElseToTheFullValidator(_ index: Int) {
        let (name, manifest) = Self.handedOver[index]
        #expect(QuickValidation.run(manifest, catalog: catalog()) == nil, "\(name)")
    }

    /// Both give the same answer for a qualified name: the full one's.
    @Test func aQualifiedNameStillActivates() throws {
        let container = try makeContainer(catalog(), [bind("PatchbayTests.Database", to: "db", .singleton)])
        #expect(try container.resolve((any Database).self).label == "db")
    }

    /// A cycle is handed over; one broken by a `Lazy` is not a cycle.
    @Test func aCycleIsHandedOverAndALazyOneIsTaken() throws {
        var catalog = FactoryCatalog()
        catalog.register("eager-hen", provides: (any Chicken).self) { (egg: any Egg) in EagerHen(egg: egg) }
        catalog.register("lazy-hen", provides: (any Chicken).self) { (egg: Lazy<any Egg>) in LazyHen(egg: egg) }
        catalog.register("egg", provides: (any Egg).self) { (chicken: any Chicken) in ChickenEgg(chicken: chicken) }
        let eager = manifest([bind("Chicken", to: "eager-hen"), bind("Egg", to: "egg")])
        #expect(QuickValidation.run(eager, catalog: catalog) == nil)
        let lazy = manifest([bind("Chicken", to: "lazy-hen"), bind("Egg", to: "egg")])
        let quick = try #require(QuickValidation.run(lazy, catalog: catalog))
        #expect(quick == (try fullPlan(lazy, catalog)))
    }

    /// The example app's manifests: each child either overrides its parent
    /// (handed over) or is taken with the full validator's result.
    @Test(arguments: ["development.json", "staging.json", "test.json", "base.json"])
    func theExampleManifestsAgree(_ file: String) throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Manifests")
        let manifest = try ManifestLoader(environment: [:]).load(contentsOf: folder.appendingPathComponent(file))
        guard let quick = QuickValidation.run(manifest, catalog: .notes) else { return }
        #expect(quick == (try fullPlan(manifest, .notes)))
    }

    /// Swift tells identifiers apart by their bytes, so `CaféSign` written with
    /// an accented letter and written with a combining accent are two
    /// protocols, whose names `String` calls equal: the full validator takes
    /// them for one type, so this pass hands every catalog with such a pair
    /// over, whatever other type shares their short name and comes first.
    @Test func twoTypesOfOneNameAreHandedOver() throws {
        #expect(TypeKey((any CaféSign).self).qualifiedName == TypeKey((any CaféSign).self).qualifiedName)
        #expect(ObjectIdentifier((any CaféSign).self) != ObjectIdentifier((any CaféSign).self))
        var catalog = FactoryCatalog()
        catalog.register("nested", provides: (any SignNamespace.CaféSign).self) { Sign() }
        catalog.register("composed", provides: (any CaféSign).self) { Sign() }
        catalog.register("decomposed", provides: (any CaféSign).self) { Sign() }
        catalog.register("greeting", provides: (any Greeting).self) { TextGreeting(text: "hi") }
        let bound = manifest([bind("Greeting", to: "greeting")])
        #expect(QuickValidation.run(bound, catalog: catalog) == nil)
        _ = try fullPlan(bound, catalog)
    }
}

/// Two protocols whose names differ only in how "é" is written (see
/// `twoTypesOfOneNameAreHandedOver`), and a third of the same short name.
protocol CaféSign {}
protocol CaféSign {}
enum SignNamespace { protocol CaféSign {} }
struct Sign: CaféSign, CaféSign, SignNamespace.CaféSign {}
