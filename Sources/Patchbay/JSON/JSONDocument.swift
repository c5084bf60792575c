/// What one scan of a JSON document found: where its values stand, and
/// every fault, each where it is.
struct JSONDocument: Sendable {
    /// The root value; nil when reading stopped before one began. After a
    /// fault, it holds what was read before it.
    var root: JSONPlace?
    /// Every repeated key, in document order; the second and third
    /// occurrences of one key make two entries, each pointing back to the first.
    var duplicateKeys: [DuplicateKey] = []
    /// The first syntax error, if any. Reading stops there.
    var syntaxError: JSONSyntaxError?
    /// Set when nesting went deeper than the limit. Reading stops there.
    var depthExceeded: DepthExceeded?
    /// Set when the document is larger than the limit. Nothing is read then.
    var sizeExceeded: SizeExceeded?
    /// The first value that is valid JSON but that no decoder can represent:
    /// an unpaired surrogate escape (`"\uD800"`) or a number beyond `Double`'s
    /// range (`1e999`). Reading goes on past it.
    var unrepresentable: JSONSyntaxError?

    /// Whether the document is unusable: a fault stopped reading, or a value
    /// cannot be represented.
    var isUnusable: Bool {
        syntaxError != nil || depthExceeded != nil || sizeExceeded != nil || unrepresentable != nil
    }
}

/// A syntax fault found while reading a JSON document.
struct JSONSyntaxError: Hashable, Sendable {
    /// Where the fault is: the offending character, or the end of the file.
    var position: SourcePosition
    /// What is wrong, in the form "expected X, found Y" wherever that fits.
    var message: String
}

/// Nesting went deeper than the limit.
struct DepthExceeded: Hashable, Sendable {
    /// The opening bracket or brace that went one level too deep.
    var position: SourcePosition
    /// The limit in force, in levels of nesting.
    var limit: Int
}

/// The document is larger than the limit.
struct SizeExceeded: Hashable, Sendable {
    /// The document's size, in bytes.
    var size: Int
    /// The limit in force, in bytes.
    var limit: Int
}

/// A key that appears more than once in one object.
struct DuplicateKey: Hashable, Sendable {
    /// The member's path, shared with other repeats under the same containers.
    private var path: PointerPath
    /// The opening quote of the first occurrence, the one the document keeps.
    var first: SourcePosition
    /// The opening quote of this repeat.
    var duplicate: SourcePosition

    /// The repeated key, decoded.
    var key: String { path.key }

    /// The member's JSON Pointer, e.g. `/bindings/3/factory`.
    ///
    /// Built on each use from a shared path, not stored: a hostile document
    /// with a million repeats under one long key would otherwise hold a
    /// million copies of that key.
    var pointer: String { path.pointer }

    /// A repeat of `key` in the object at `pointer`.
    init(key: String, in pointer: String, first: SourcePosition, duplicate: SourcePosition) {
        let parent = pointer.isEmpty ? nil : PointerPath(parent: nil, text: pointer, key: "")
        self.init(path: PointerPath(parent: parent, key: key), first: first, duplicate: duplicate)
    }

    /// A repeat of the member at `path`.
    init(path: PointerPath, first: SourcePosition, duplicate: SourcePosition) {
        self.path = path
        self.first = first
        self.duplicate = duplicate
    }

    /// Repeats are equal when they are at the same pointer and positions.
    static func == (lhs: DuplicateKey, rhs: DuplicateKey) -> Bool {
        lhs.first == rhs.first && lhs.duplicate == rhs.duplicate && lhs.pointer == rhs.pointer
    }

    /// Hashes what `==` compares.
    func hash(into hasher: inout Hasher) {
        hasher.combine(pointer)
        hasher.combine(first)
        hasher.combine(duplicate)
    }
}

/// A JSON Pointer as a chain of segments, each shared by every longer pointer
/// that extends it.
final class PointerPath: Sendable {
    /// The pointer this one extends; nil at the root.
    let parent: PointerPath?
    /// What this path adds to its parent's pointer, e.g. `/bindings`.
    let text: String
    /// The member's key, when the last segment names one; else empty.
    let key: String

    /// Extends `parent` by `text`.
    init(parent: PointerPath?, text: String, key: String) {
        self.parent = parent
        self.text = text
        self.key = key
    }

    /// Extends `parent` by the member `key`.
    convenience init(parent: PointerPath?, key: String) {
        self.init(parent: parent, text: "/" + JSONPointer.escape(key), key: key)
    }

    /// The whole pointer.
    var pointer: String {
        var texts: [String] = []
        var path: PointerPath? = self
        while let current = path {
            texts.append(current.text)
            path = current.parent
        }
        return texts.reversed().joined()
    }
}
