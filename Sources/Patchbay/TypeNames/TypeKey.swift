/// Identifies a type that factories provide and code resolves: a protocol
/// existential such as `any UserRepository`, a class, or any other type.
///
/// Two keys are equal when they name the same Swift type. The names are what
/// manifests and diagnostics use: the module-qualified name
/// (`NotesKit.Clock`) and the short name (`Clock`).
@usableFromInline
package struct TypeKey: Hashable, Sendable, CustomStringConvertible {
    /// The runtime identity of the type.
    @usableFromInline let id: ObjectIdentifier
    /// The module-qualified name, as `String(reflecting:)` prints it: `NotesKit.Clock`.
    package let qualifiedName: String
    /// The name without its module: `Clock`.
    package let name: String

    /// Creates the key of a type.
    ///
    ///     let key = TypeKey((any Clock).self)   // key.name == "Clock"
    @usableFromInline
    package init<T>(_ type: T.Type) {
        id = ObjectIdentifier(type)
        qualifiedName = TypeKey.qualifiedName(of: type)
        name = TypeKey.shortName(fromQualified: qualifiedName) ?? TypeKey.shortName(of: type)
    }

    // The qualified name through `_typeName`, the one underscored call of
    // the library: every public spelling of it (`String(reflecting:)`,
    // `debugPrint`, ...) first asks the runtime whether the metatype conforms
    // to the printing protocols, four checks that each scan every
    // conformance record of the process on a type's first lookup: 43.6 ms
    // for 1,000 types in a program of 3,000 conformances and 102 ms at
    // 10,000, against 0.27 ms (stop 66, ARCHITECTURE.md). The short name is
    // public: string interpolation has an overload for a metatype that reads
    // the name without those checks (0.28 ms for 1,000).

    /// The module-qualified name as manifests write it: without the `any `
    /// that runtimes print in front of some existentials, and a
    /// parameterized protocol's arguments as Swift writes them
    /// (`Mod.Repository<Swift.String>`, see ``TypeNameSyntax``).
    static func qualifiedName(of type: Any.Type) -> String {
        TypeNameSyntax.canonical(_typeName(type, qualified: true))
    }

    /// The name without modules, written as ``qualifiedName(of:)`` is.
    static func shortName(of type: Any.Type) -> String {
        // `type` must stay typed `Any.Type` here: as `Any`, interpolation
        // would take the general path, with the conformance checks.
        TypeNameSyntax.canonical("\(type)")
    }

    /// The short name read off a qualified name of the plain form
    /// `Module.Name` (identifier characters on both sides of one dot), or
    /// `nil` for any other form: nested, generic, composed, function, tuple
    /// and private types go to the runtime, whose rules for them this does
    /// not repeat.
    ///
    /// Registering a factory needs both names, and asking the runtime for
    /// the second means demangling the type again the first time in a
    /// process; cutting the module off the first serves most app types.
    /// `TypeKeyTests` checks the result against the runtime's short name
    /// for every form.
    static func shortName(fromQualified qualified: String) -> String? {
        var dot: Int?, count = 0
        for byte in qualified.utf8 {
            if byte == UInt8(ascii: ".") {
                guard dot == nil, count > 0 else { return nil }
                dot = count
            } else if !isIdentifierByte(byte) {
                return nil
            }
            count += 1
        }
        guard let dot, dot + 1 < count else { return nil }
        // All ASCII up to here, so a byte offset is a character offset.
        return String(qualified.utf8.dropFirst(dot + 1))
    }

    /// Whether the type is an array (`Swift.Array<...>`), read off the name:
    /// registration asks it of every plain need before asking the runtime
    /// for the element type.
    var isArray: Bool {
        qualifiedName.utf8.first == UInt8(ascii: "S") && qualifiedName.hasPrefix("Swift.Array<")
    }

    /// ASCII letters, digits and `_`: all a plain Swift identifier is made
    /// of (anything else, Unicode included, takes the runtime's way).
    static func isIdentifierByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
            true
        default: false
        }
    }

    @usableFromInline
    package static func == (lhs: TypeKey, rhs: TypeKey) -> Bool { lhs.id == rhs.id }
    @usableFromInline
    package func hash(into hasher: inout Hasher) { hasher.combine(id) }
    /// The short name.
    @usableFromInline package var description: String { name }
}
