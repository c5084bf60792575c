import Foundation

/// A binding's `parameters` as read: where each value stands in the file,
/// and the JSON text that `JSONDecoder` decodes into the factory's parameter
/// type, which is the text as written with `${...}` interpolations and the
/// conversions of whole-value references put in place of the values they change.
///
/// Equal when they hold the same JSON, as ``JSONValue`` reads it: where a
/// value stands is not what it is, so a manifest reloaded with only its
/// layout changed is the manifest in force.
struct BindingParameters: Sendable, Hashable {
    /// The `parameters` object as read (or as written in code, without positions).
    let place: JSONPlace
    /// Scalars given a new value, by node of `place`'s layout.
    private(set) var replacements: [Int: Replacement] = [:]

    /// A scalar's new value.
    enum Replacement: Sendable, Hashable {
        /// A string, after interpolation.
        case string(String)
        /// A number or boolean, as JSON text: a whole-value reference converted to its field's type.
        case literal(String)
    }

    /// The parameters at `place`, unchanged.
    init(_ place: JSONPlace) {
        self.place = place
    }

    /// Parameters written in code: encoded by `JSONEncoder` (keys sorted, so
    /// the same value always makes the same text) and scanned for their layout.
    init(_ value: JSONValue) {
        let data = value.sortedJSON ?? Data("{}".utf8)  // a JSONValue always encodes
        let root = JSONScanner.scan(data).root ?? JSONScanner.scan(Data("{}".utf8)).root!
        place = JSONPlace(JSONLayout(bytes: root.layout.bytes, nodes: root.layout.nodes, hasPositions: false))
    }

    /// `{}`: what a factory that takes parameters decodes when a binding gives none.
    static let emptyObject = BindingParameters(JSONValue.object([:]))

    /// Gives the scalar at `value` (a place in this layout) a new value.
    mutating func replace(_ value: JSONPlace, with replacement: Replacement) {
        replacements[value.node] = replacement
    }

    /// The string at `value`, after any replacement; nil when it is not a string.
    func string(at value: JSONPlace) -> String? {
        switch replacements[value.node] {
        case .string(let text)?: text
        case .literal?: nil
        case nil: value.stringValue
        }
    }

    /// The JSON to decode: the text as written, each replaced scalar's bytes
    /// swapped for its new value's. Replacements are scalars, so none overlap,
    /// and node order is byte order.
    var json: Data {
        guard !replacements.isEmpty else { return place.bytes }
        let nodes = place.layout.nodes, bytes = place.layout.bytes
        var json = Data()
        var cursor = nodes[place.node].bytes.lowerBound
        for node in replacements.keys.sorted() {
            json += bytes[cursor..<nodes[node].bytes.lowerBound]
            switch replacements[node]! {
            case .string(let text): json += (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
            case .literal(let text): json += Data(text.utf8)
            }
            cursor = nodes[node].bytes.upperBound
        }
        json += bytes[cursor..<nodes[place.node].bytes.upperBound]
        return json
    }

    /// The parameters as ``JSONValue``, decoded by `JSONDecoder`.
    var value: JSONValue {
        (try? JSONDecoder().decode(JSONValue.self, from: json)) ?? .object([:])
    }

    /// The parameters as the file wrote them, before any replacement.
    var writtenValue: JSONValue {
        (try? JSONDecoder().decode(JSONValue.self, from: place.bytes)) ?? .object([:])
    }

    static func == (lhs: BindingParameters, rhs: BindingParameters) -> Bool {
        (lhs.place.layout === rhs.place.layout && lhs.place.node == rhs.place.node
            && lhs.replacements == rhs.replacements) || lhs.value == rhs.value
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(value)
    }
}
