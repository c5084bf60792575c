/// A coding key for a member's name or an element's index, as decoding errors' paths hold them.
struct JSONCodingKey: CodingKey, Sendable {
    /// The member's name; for an element, `Index 3`, as `JSONDecoder` writes it.
    let stringValue: String
    /// The element's index; nil for a member.
    let intValue: Int?

    /// The key of a member.
    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    /// The key of an element.
    init(intValue: Int) {
        stringValue = "Index \(intValue)"
        self.intValue = intValue
    }

    /// The key `superDecoder()` reads, as `JSONDecoder` names it.
    static let `super` = JSONCodingKey(stringValue: "super")
}
