import Foundation
import NotesKit
import Testing
@testable import Patchbay
@testable import PatchbayTools

/// `ManifestSchema`, the committed schema files, and what they accept.
struct ManifestSchemaTests {
    typealias F = InspectFixture

    static let manifests = Golden.packageRoot.appendingPathComponent("Manifests", isDirectory: true)

    /// Every example manifest: Manifests/*.json except catalog.json and *.schema.json.
    static let exampleNames: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: manifests.path)) ?? []
        return names.filter(ManifestDirectory.isManifestFileName).sorted()
    }()

    private static func json(_ data: Data) throws -> JSONValue { try JSONDecoder().decode(JSONValue.self, from: data) }

    private static func example(_ name: String) throws -> JSONValue {
        try json(Data(contentsOf: manifests.appendingPathComponent(name)))
    }

    static let plainChecker = JSONSchemaChecker(ManifestSchema.schema())
    static let notesChecker = JSONSchemaChecker(ManifestSchema.schema(catalog: Golden.notesCatalog))

    // MARK: - Golden and committed files

    @Test func schemasMatchGolden() {
        Golden.expectMatches(String(decoding: ManifestSchema.jsonData(), as: UTF8.self), "schema-plain.json")
        Golden.expectMatches(String(decoding: ManifestSchema.jsonData(catalog: Golden.notesCatalog), as: UTF8.self),
            "schema-notes.json")
    }

    /// The example keeps its description and its catalog-aware schema as the
    /// README tells an app to: with `refreshDescription(at:schema:)`, which
    /// rewrites what is out of date and fails once.
    @Test func theCommittedCatalogDescriptionAndSchemaAreCurrent() throws {
        try FactoryCatalog.notes.refreshDescription(
            at: Self.manifests.appendingPathComponent("catalog.json"),
            schema: Self.manifests.appendingPathComponent("manifest.schema.json"))
        let schema = try Data(contentsOf: Self.manifests.appendingPathComponent("manifest.schema.json"))
        #expect(String(decoding: schema, as: UTF8.self).contains(#""note-service""#), "the schema lists no factory name")
    }

    @Test func theExampleManifestsNameTheCommittedSchema() throws {
        #expect(Self.exampleNames.count >= 5)
        for name in Self.exampleNames {
            guard case .object(let members) = try Self.example(name) else { Issue.record("\(name) is not an object"); continue }
            #expect(members["$schema"] == .string("manifest.schema.json"), "\(name)")
        }
    }

    // MARK: - What the schemas accept

    @Test func everyExampleManifestIsValid() throws {
        for name in Self.exampleNames {
            let manifest = try Self.example(name)
            #expect(try Self.plainChecker.errors(manifest) == [], "\(name) against the plain schema")
            #expect(try Self.notesChecker.errors(manifest) == [], "\(name) against the notes schema")
        }
    }

    /// A copy of Manifests/production.json with one thing broken.
    struct BrokenCopy: Sendable, CustomTestStringConvertible {
        let name: String
        /// A `/`-separated path into the manifest; numbers index arrays.
        let path: String
        /// The new value; `nil` removes the key.
        let value: JSONValue?
        /// Whether the shape alone is wrong, so the plain schema rejects it too.
        let shape: Bool
        var testDescription: String { name }
    }

    static let brokenCopies: [BrokenCopy] = [
        .init(name: "unknown top-level key", path: "bindigns", value: .array([]), shape: true),
        .init(name: "unknown binding key", path: "bindings/0/lifecycle", value: .string("singleton"), shape: true),
        .init(name: "bad lifetime", path: "bindings/1/lifetime", value: .string("forever"), shape: true),
        .init(name: "format 2", path: "format", value: .integer(2), shape: true),
        .init(name: "missing bindings", path: "bindings", value: nil, shape: true),
        .init(name: "empty injector", path: "bindings/4/injector", value: .string(""), shape: true),
        .init(name: "injector listed twice", path: "injectors", value: .array([.string("a"), .string("a")]), shape: true),
        .init(name: "parameters not an object", path: "bindings/2/parameters", value: .string("smtp"), shape: true),
        .init(name: "factory not providing the protocol", path: "bindings/0/factory", value: .string("json-logger"),
            shape: false),
        .init(name: "unknown protocol", path: "bindings/0/protocol", value: .string("NoteStorage"), shape: false),
        .init(name: "unknown factory", path: "bindings/3/factory", value: .string("uuid"), shape: false),
        .init(name: "missing required parameter", path: "bindings/0/parameters", value: nil, shape: false),
        .init(name: "parameters for a factory that takes none", path: "bindings/3/parameters",
            value: .object(["x": .integer(1)]), shape: false),
        .init(name: "parameter of the wrong type", path: "bindings/2/parameters/port", value: .string("587"),
            shape: false),
    ]

    @Test(arguments: brokenCopies)
    func brokenCopiesAreRejected(_ broken: BrokenCopy) throws {
        let manifest = Self.setting(broken.path, to: broken.value, in: try Self.example("production.json"))
        #expect(manifest != (try Self.example("production.json")), "the copy must differ")
        #expect(try !Self.notesChecker.errors(manifest).isEmpty, "the catalog schema accepts it")
        #expect(try Self.plainChecker.errors(manifest).isEmpty == !broken.shape,
            "the plain schema checks shape only: it must \(broken.shape ? "reject" : "accept") it")
        // The schema is no stricter than check: what it rejects, check rejects too.
        let folder = try ManifestFolder([
            "base.json": String(decoding: try Data(contentsOf: Self.manifests.appendingPathComponent("base.json")), as: UTF8.self),
            "production.json": String(decoding: try JSONEncoder().encode(manifest), as: UTF8.self),
        ])
        let report = try ManifestChecker(catalog: .notes, loader: ManifestLoader(environment: [:]))
            .check([folder.file("production.json")])
        #expect(report.failed(), "check accepts what the schema rejects")
    }

    /// `value` with the member at `path` replaced (or removed, for `nil`).
    static func setting(_ path: String, to newValue: JSONValue?, in value: JSONValue) -> JSONValue {
        var segments = path.split(separator: "/").map(String.init)
        guard !segments.isEmpty else { return newValue ?? .null }
        let first = segments.removeFirst()
        let rest = segments.joined(separator: "/")
        switch value {
        case .object(var members):
            if segments.isEmpty, newValue == nil {
                members[first] = nil
            } else {
                members[first] = setting(rest, to: newValue, in: members[first] ?? .object([:]))
            }
            return .object(members)
        case .array(var elements):
            guard let offset = Int(first), elements.indices.contains(offset) else { return value }
            elements[offset] = setting(rest, to: newValue, in: elements[offset])
            return .array(elements)
        default:
            return value
        }
    }

    // MARK: - Catalog names

    @Test func protocolsAreListedQualifiedAndByUnambiguousShortName() throws {
        let catalog = F.catalog([
            F.factory("first", provides: "One.Store"), F.factory("second", provides: "Two.Store"),
            F.factory("clock", provides: "One.Clock", needs: ["One.Needed"]),
        ])
        guard case .object(let root) = ManifestSchema.schema(catalog: catalog),
            case .object(let defs)? = root["$defs"], case .object(let binding)? = defs["binding"],
            case .object(let properties)? = binding["properties"], case .object(let protocolSchema)? = properties["protocol"]
        else {
            Issue.record("unexpected schema shape")
            return
        }
        #expect(protocolSchema["enum"] == .array(["Clock", "One.Clock", "One.Store", "Two.Store"].map(JSONValue.string)))
        let checker = JSONSchemaChecker(ManifestSchema.schema(catalog: catalog))
        func manifest(_ protocolName: String, _ factory: String) -> JSONValue {
            .object(["format": .integer(1), "bindings": .array([
                .object(["protocol": .string(protocolName), "factory": .string(factory)]),
            ])])
        }
        #expect(try checker.accepts(manifest("One.Store", "first")))
        #expect(try checker.accepts(manifest("Clock", "clock")))
        #expect(try !checker.accepts(manifest("Store", "first")), "an ambiguous short name")
        #expect(try !checker.accepts(manifest("Needed", "clock")), "a type that no factory provides")
        #expect(try !checker.accepts(manifest("Two.Store", "first")), "a factory of another protocol")
    }

    @Test func parameterFieldsAreTypedAndOptionalOnesMayBeNull() throws {
        let catalog = F.catalog([
            F.factory("db", provides: "App.DB", parameters: [
                .init(name: "path", type: "string", required: true),
                .init(name: "pool", type: "integer", required: false),
                .init(name: "tls", type: "object", required: false, fields: [.init(name: "verify", type: "boolean", required: true)]),
                .init(name: "extra", type: "any", required: false),
            ]),
            F.factory("opaque", provides: "App.Opaque", takesParameters: true),
        ])
        let checker = JSONSchemaChecker(ManifestSchema.schema(catalog: catalog))
        func manifest(_ factory: String, _ parameters: [String: JSONValue]?) -> JSONValue {
            var binding: [String: JSONValue] = ["protocol": .string(factory == "db" ? "DB" : "Opaque"), "factory": .string(factory)]
            binding["parameters"] = parameters.map(JSONValue.object)
            return .object(["format": .integer(1), "bindings": .array([.object(binding)])])
        }
        #expect(try checker.accepts(manifest("db", ["path": .string("/x"), "pool": .null, "extra": .array([])])))
        #expect(try checker.accepts(manifest("db", ["path": .string("/x"), "pool": .integer(4), "tls": .object(["verify": .bool(true)])])))
        #expect(try checker.accepts(manifest("db", ["path": .string("/x"), "unlisted": .integer(1)])), "decoders ignore extra keys")
        #expect(try !checker.accepts(manifest("db", nil)), "path is required, so parameters are")
        #expect(try !checker.accepts(manifest("db", ["path": .null])))
        #expect(try !checker.accepts(manifest("db", ["path": .string("/x"), "pool": .string("4")])))
        // A whole-value reference is converted to the field's type when loaded, so the file may hold it.
        #expect(try checker.accepts(manifest("db", ["path": .string("/x"), "pool": .string("${POOL_SIZE:-4}")])))
        #expect(try checker.accepts(manifest("db", ["path": .string("/x"), "pool": .string("${POOL_SIZE}")])))
        #expect(try !checker.accepts(manifest("db", ["path": .string("/x"), "pool": .string("${POOL_SIZE} threads")])))
        #expect(try !checker.accepts(manifest("db", ["path": .string("/x"), "tls": .object([:])])))
        #expect(try checker.accepts(manifest("opaque", ["anything": .bool(true)])), "fields unknown: any object")
    }

    // MARK: - check --format json

    @Test func checkJSONOutputMatchesItsSchema() throws {
        let checker = try JSONSchemaChecker(data: Data(contentsOf: Self.manifests.appendingPathComponent("check-output.schema.json")))
        let folder = try ManifestFolder([
            "catalog.json": String(decoding: try FactoryCatalog.notes.describe().jsonData(), as: UTF8.self),
            "broken.json": #"""
                { "format": 1, "bindings": [
                  { "protocol": "NoteService", "factory": "note-service" },
                  { "protocol": "NoteStore", "factory": "in-memory-stor", "lifetime": "forever" },
                  { "protocol": "Clock", "factory": "system-clock", "extra": 1 }
                ] }
                """#,
            "syntax.json": "{ \"format\": 1, ",
        ])
        let standard = Collected<String>()
        let status = PatchbayCommandLine().run(["check", "--format", "json", folder.url.path],
            output: .init(standard: standard.append, error: { _ in }))
        #expect(status == 1)
        let document = try Self.json(Data(standard.all.joined().utf8))
        #expect(try checker.errors(document) == [])
        guard case .object(let members) = document, case .array(let diagnostics)? = members["diagnostics"] else {
            Issue.record("not a check document: \(document)")
            return
        }
        let codes = Set(diagnostics.compactMap { $0.objectValue?["code"] })
        #expect(codes.isSuperset(of: [.string("unknown-factory"), .string("unknown-lifetime"), .string("unknown-key"),
            .string("missing-dependency"), .string("syntax")]))
        #expect(diagnostics.contains { $0.objectValue?["suggestion"] != nil })
        #expect(diagnostics.contains { $0.objectValue?["dependencyPath"] != nil })
        // The schema is strict enough to notice a change of shape.
        #expect(try !checker.accepts(Self.setting("summary/errors", to: nil, in: document)))
        #expect(try !checker.accepts(Self.setting("diagnostics/0/severity", to: .string("fatal"), in: document)))
        #expect(try !checker.accepts(Self.setting("diagnostics/0/line", to: .integer(-1), in: document)))
        #expect(try !checker.accepts(Self.setting("summary/notes", to: .integer(0), in: document)), "notes is absent when 0")
        #expect(try !checker.accepts(Self.setting("diagnostics/0/path", to: .string("bindings/0"), in: document)))
        #expect(try !checker.accepts(Self.setting("diagnostics/0/hint", to: .string("x"), in: document)))
    }
}
