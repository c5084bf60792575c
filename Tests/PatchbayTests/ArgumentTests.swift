@testable import Patchbay
import Testing

/// Resolve-time arguments: `container.resolve(T.self, argument: x)`.
struct ArgumentTests {
    struct Options: Decodable, Sendable {
        var prefix: String
    }

    private func catalog() -> FactoryCatalog {
        var catalog = FactoryCatalog()
        catalog.register("labelled", provides: (any Widget).self, argument: String.self) { (label: String) in
            Part(tag: label)
        }
        catalog.register("labelled-with-db", provides: (any UserRepository).self, argument: String.self) {
            (label: String, db: any Database) in
            FakeUserRepository(label: label, database: db)
        }
        catalog.register("numbered", provides: (any Sprocket).self, parameters: Options.self, argument: Int.self) {
            (options: Options, number: Int) in
            Part(tag: "\(options.prefix)\(number)")
        }
        catalog.register("needs-widget", provides: (any Gadget).self) { (widget: any Widget) in
            Part(tag: "wraps \(widget.tag)")
        }
        catalog.register("plain-db", provides: (any Database).self) { FakeDatabase(label: "plain") }
        return catalog
    }

    private func container() throws -> Container {
        try makeContainer(catalog(), [
            bind("Widget", to: "labelled"),
            bind("UserRepository", to: "labelled-with-db"),
            bind("Database", to: "plain-db"),
            bind("Sprocket", to: "numbered", parameters: .object(["prefix": .string("n")])),
        ])
    }

    @Test func theArgumentReachesTheFactory() throws {
        let container = try container()
        #expect(try container.resolve((any Widget).self, argument: "first").tag == "first")
        #expect(try container.resolve((any Widget).self, argument: "second").tag == "second")

        let repository = try container.resolve((any UserRepository).self, argument: "users")
        #expect(repository.label == "users")
        #expect(repository.database?.label == "plain")

        #expect(try container.resolve((any Sprocket).self, argument: 42).tag == "n42")
    }

    @Test func aMissingArgumentThrows() throws {
        let container = try container()
        let error = #expect(throws: ResolutionError.self) { try container.resolve((any Widget).self) }
        #expect(error?.reason == .argumentMissing)
        #expect(error?.factory == "labelled")
        #expect(error?.description.contains("String") == true, "names the argument type: \(String(describing: error))")

        let ifBound = #expect(throws: ResolutionError.self) { try container.resolveIfBound((any Widget).self) }
        #expect(ifBound?.reason == .argumentMissing)
    }

    @Test func anArgumentOfTheWrongTypeThrows() throws {
        let container = try container()
        let error = #expect(throws: ResolutionError.self) { try container.resolve((any Widget).self, argument: 42) }
        #expect(error?.reason == .argumentMismatch)
        #expect(error?.factory == "labelled")
        let description = error?.description ?? ""
        #expect(description.contains("String") && description.contains("Int"), "\(description)")

        let other = #expect(throws: ResolutionError.self) { try container.resolve((any Sprocket).self, argument: "42") }
        #expect(other?.reason == .argumentMismatch)
    }

    @Test func aFactoryWithAnArgumentCannotBeADependency() throws {
        let error = try #require(throws: ManifestError.self) {
            try makeContainer(catalog(), [bind("Widget", to: "labelled"), bind("Gadget", to: "needs-widget")])
        }
        #expect(errorCodes(error) == [.argumentRequired])
        let message = try #require(error.diagnostics.errors.first?.message)
        #expect(message.contains("labelled") && message.contains("needs-widget"), "\(message)")
    }
}
