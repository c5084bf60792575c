@testable import Patchbay
import Testing

/// A binding's `parameters`, decoded into the factory's `Decodable` type at activation.
struct ParameterTests {
    struct SizeOptions: Decodable, Sendable {
        var tag: String
        var size: Int
        var enabled: Bool?
    }

    struct OptionalOptions: Decodable, Sendable {
        var prefix: String?
    }

    private func catalog(counter: Counter = Counter()) -> FactoryCatalog {
        var catalog = FactoryCatalog()
        catalog.register("sized", provides: (any Widget).self, parameters: SizeOptions.self) { options in
            counter.increment()
            return Part(tag: "\(options.tag)-\(options.size)-\(options.enabled.map(String.init) ?? "nil")")
        }
        catalog.register("sized-with-db", provides: (any UserRepository).self, parameters: SizeOptions.self) {
            (options: SizeOptions, db: any Database) in
            FakeUserRepository(label: "\(options.tag)x\(options.size)", database: db)
        }
        catalog.register("prefixed", provides: (any Gadget).self, parameters: OptionalOptions.self) { options in
            Part(tag: options.prefix ?? "no-prefix")
        }
        catalog.registerResolving("resolving-sized", provides: (any Sprocket).self, parameters: SizeOptions.self) {
            resolver in
            let options = try #require(resolver.parameters(as: SizeOptions.self))
            return Part(tag: "resolving-\(options.tag)-\(options.size)")
        }
        catalog.register("plain-db", provides: (any Database).self) { FakeDatabase(label: "plain") }
        return catalog
    }

    @Test func parametersAreDecodedIntoTheFactorysType() throws {
        let container = try makeContainer(catalog(), [
            bind("Widget", to: "sized", parameters: .object(["tag": .string("big"), "size": .integer(3), "enabled": .bool(true)])),
            bind("Widget", to: "sized", in: .secondary, parameters: .object(["tag": .string("small"), "size": .integer(1)])),
            bind("UserRepository", to: "sized-with-db", parameters: .object(["tag": .string("t"), "size": .integer(7)])),
            bind("Database", to: "plain-db"),
            bind("Sprocket", to: "resolving-sized", parameters: .object(["tag": .string("r"), "size": .integer(2)])),
        ])
        #expect(try container.resolve((any Widget).self).tag == "big-3-true")
        #expect(try container.resolve((any Widget).self, from: .secondary).tag == "small-1-nil")
        let repository = try container.resolve((any UserRepository).self)
        #expect(repository.label == "tx7")
        #expect(repository.database?.label == "plain")
        #expect(try container.resolve((any Sprocket).self).tag == "resolving-r-2")
    }

    @Test func absentParametersDecodeAsAnEmptyObject() throws {
        let container = try makeContainer(catalog(), [
            bind("Gadget", to: "prefixed"),
            bind("Gadget", to: "prefixed", in: .secondary, parameters: .object(["prefix": .string("p")])),
        ])
        #expect(try container.resolve((any Gadget).self).tag == "no-prefix")
        #expect(try container.resolve((any Gadget).self, from: .secondary).tag == "p")
    }

    @Test func parametersOfTheWrongTypeAreAnActivationError() throws {
        let counter = Counter()
        let error = try #require(throws: ManifestError.self) {
            try makeContainer(catalog(counter: counter), [
                bind("Widget", to: "sized", parameters: .object(["tag": .string("big"), "size": .string("three")])),
            ])
        }
        #expect(errorCodes(error) == [.invalidParameters])
        let message = try #require(error.diagnostics.errors.first?.message)
        #expect(message.contains("size"), "names the field: \(message)")
        #expect(message.contains("sized"), "names the factory: \(message)")
        #expect(counter.value == 0, "detected at activation, not at first use")
    }

    @Test func missingRequiredParameterIsAnActivationError() throws {
        let error = try #require(throws: ManifestError.self) {
            try makeContainer(catalog(), [bind("Widget", to: "sized", parameters: .object(["tag": .string("big")]))])
        }
        #expect(errorCodes(error) == [.invalidParameters])
        #expect(error.description.contains("size"))

        // Every missing field is reported, each on its own.
        let none = try #require(throws: ManifestError.self) {
            try makeContainer(catalog(), [bind("Widget", to: "sized")])
        }
        #expect(errorCodes(none) == [.invalidParameters, .invalidParameters])
    }

    @Test func parametersForAFactoryThatTakesNoneAreAnActivationError() throws {
        let error = try #require(throws: ManifestError.self) {
            try makeContainer(catalog(), [bind("Database", to: "plain-db", parameters: .object(["path": .string("/tmp/x")]))])
        }
        #expect(errorCodes(error) == [.invalidParameters])
        let message = try #require(error.diagnostics.errors.first?.message)
        #expect(message.contains("plain-db"))
        #expect(message.contains("path"))

        // An empty object is no parameters at all.
        let container = try makeContainer(catalog(), [bind("Database", to: "plain-db", parameters: .object([:]))])
        #expect(try container.resolve((any Database).self).label == "plain")
    }

    @Test func everyInvalidParameterIsReported() throws {
        let error = try #require(throws: ManifestError.self) {
            try makeContainer(catalog(), [
                bind("Widget", to: "sized", parameters: .object(["tag": .integer(1), "size": .integer(1)])),
                bind("Database", to: "plain-db", parameters: .object(["path": .string("/tmp/x")])),
                bind("Sprocket", to: "resolving-sized", parameters: .object(["size": .integer(1)])),
            ])
        }
        #expect(errorCodes(error) == [.invalidParameters, .invalidParameters, .invalidParameters])
    }
}
