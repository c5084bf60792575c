/// Identifies a type that factories provide and code resolves: a protocol
/// existential such as `any UserRepository`, a class, or any other type.
///
/// Two keys are equal when they name the same Swift type. The names are what
/// manifests and diagnostics use: the module-qualified name
/// (`NotesKit.Clock`) and the short name (`Clock`).
public struct TypeKey: Hashable, Sendable, CustomStringConvertible {
    /// The runtime identity of the type.
    let id: ObjectIdentifier
    /// The module-qualified name, as `String(reflecting:)` prints it: `NotesKit.Clock`.
    public let qualifiedName: String
    /// The name without its module: `Clock`.
    public let name: String

    /// Creates the key of a type.
    ///
    ///     let key = TypeKey((any Clock).self)   // key.name == "Clock"
    public init<T>(_ type: T.Type) {
        id = ObjectIdentifier(type)
        qualifiedName = TypeKey.qualifiedName(of: type)
        name = TypeKey.shortName(of: type)
    }

    // `_typeName` rather than `String(reflecting:)`: the latter first asks
    // the runtime whether the metatype conforms to the printing protocols,
    // which scans the conformance records (about a millisecond per type in a
    // large binary) and would make registering 1,000 factories slow.

    /// The module-qualified name, without the `any ` that some runtimes print
    /// in front of an existential.
    static func qualifiedName(of type: Any.Type) -> String {
        withoutAny(_typeName(type, qualified: true))
    }

    /// The name without modules.
    static func shortName(of type: Any.Type) -> String {
        withoutAny(_typeName(type, qualified: false))
    }

    /// `name` without a leading `any `. Looks at the first byte before
    /// calling `hasPrefix`, which costs about 40 instructions even when
    /// the first byte already differs: registration asks this twice a type.
    private static func withoutAny(_ name: String) -> String {
        guard name.utf8.first == UInt8(ascii: "a"), name.hasPrefix("any ") else { return name }
        return String(name.dropFirst(4))
    }

    public static func == (lhs: TypeKey, rhs: TypeKey) -> Bool { lhs.id == rhs.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
    /// The short name.
    public var description: String { name }
}
