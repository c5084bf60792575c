/// What one scan found: where the values stand, and every fault where it is. After a fault that
/// stopped the scan, `root` maps what was read before it.
struct JSONDocument: Sendable {
    var root: JSONPlace?
    /// Every repeated key, in document order.
    var duplicateKeys: [DuplicateKey] = []
    /// Where the scan stopped: on a syntax error, nesting over the limit, or a document over the size limit (not read).
    var syntaxError: JSONSyntaxError?, depthExceeded: DepthExceeded?, sizeExceeded: SizeExceeded?
    /// The first value JSON allows but no decoder represents (`"\uD800"`, `1e999`); the scan goes on.
    var unrepresentable: JSONSyntaxError?

    /// Whether the document cannot be decoded at all.
    var isUnusable: Bool { syntaxError != nil || depthExceeded != nil || sizeExceeded != nil || unrepresentable != nil }
}

/// A fault at the offending character or the end of the file, as "expected X, found Y" where that fits.
struct JSONSyntaxError: Hashable, Sendable { var position: SourcePosition, message: String }

/// The bracket that went one level deeper than `limit`.
struct DepthExceeded: Hashable, Sendable { var position: SourcePosition, limit: Int }

struct SizeExceeded: Hashable, Sendable { var size: Int, limit: Int }

/// A key repeated in one object: where it first stands, and where it repeats.
struct DuplicateKey: Equatable, Sendable {
    /// Shared with the other repeats in the same containers: a million repeats under one long key hold it once.
    let path: PointerPath
    var first: SourcePosition, duplicate: SourcePosition
    var key: String { path.key }
    /// The member's JSON Pointer, e.g. `/bindings/3/factory`.
    var pointer: String { path.pointer }

    static func == (lhs: Self, rhs: Self) -> Bool { (lhs.first, lhs.duplicate, lhs.pointer) == (rhs.first, rhs.duplicate, rhs.pointer) }
}

/// A JSON Pointer as a chain of keys, each link shared by every longer pointer that extends it.
final class PointerPath: Sendable {
    let parent: PointerPath?, key: String

    init(parent: PointerPath?, key: String) { (self.parent, self.key) = (parent, key) }

    var pointer: String { sequence(first: self, next: \.parent).map { "/" + JSONPointer.escape($0.key) }.reversed().joined() }
}
