import Foundation
import Patchbay

/// A JSON Schema (draft 2020-12) for manifests, as `patchbay schema` prints it,
/// so editors validate and autocomplete manifests as they are typed.
///
///     try ManifestSchema.jsonData().write(to: URL(fileURLWithPath: "Manifests/manifest.schema.json"))
///
/// Without a catalog the schema checks shape: the keys (unknown ones are
/// rejected), which are required, their types, the lifetimes, `format` 1.
/// With a catalog it also lists the legal names: `protocol` (or `collection`)
/// is one of the types some factory provides (module-qualified, and short
/// where the short name is not ambiguous), `factory` is one of the factories
/// that provide the binding's type, and `parameters` has the keys and JSON
/// types the factory's parameter type reads, where the catalog knows them.
///
/// The schema describes one file: it cannot see the `extends` chain nor the
/// dependency graph, which `patchbay check` validates. The core writes the
/// same schema beside `catalog.json` (`refreshDescription(at:schema:)`),
/// which is why it is built there; this is its public face, outside the core module.
public enum ManifestSchema {
    /// The JSON Schema dialect: draft 2020-12.
    public static var dialect: String { ManifestSchemaBuilder.dialect }

    /// The schema as a JSON value.
    /// - Parameter catalog: The catalog whose names the schema lists; `nil` for the plain schema.
    public static func schema(catalog: CatalogDescription? = nil) -> JSONValue {
        ManifestSchemaBuilder.schema(catalog: catalog)
    }

    /// The schema as pretty-printed JSON, keys sorted, ending in a newline.
    /// - Parameter catalog: The catalog whose names the schema lists; `nil` for the plain schema.
    public static func jsonData(catalog: CatalogDescription? = nil) -> Data {
        ManifestSchemaBuilder.jsonData(catalog: catalog)
    }
}
