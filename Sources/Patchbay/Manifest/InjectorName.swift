/// The name of an injector: a tier of bindings searched in order.
///
/// ``primary`` comes first, then ``secondary``, then custom injectors in the
/// order the manifest's `injectors` array lists them (else the order in which
/// they first appear in `bindings`).
///
///     @Injected(from: .secondary) var repository: any UserRepository
///     @Injected(from: "eu-tenant") var clock: any Clock
public struct InjectorName: RawRepresentable, Hashable, Sendable, Codable, Comparable,
    ExpressibleByStringLiteral, CustomStringConvertible
{
    /// The name as the manifest spells it.
    public let rawValue: String

    /// Creates an injector name.
    @inlinable public init(rawValue: String) { self.rawValue = rawValue }
    /// Creates an injector name.
    @inlinable public init(_ name: String) { self.rawValue = name }
    /// Creates an injector name from a string literal.
    @inlinable public init(stringLiteral value: String) { self.rawValue = value }

    // Computed and inlinable, not a stored `static let`: it is the default
    // argument of every resolve, and a stored global would cost each call a
    // lazy-initialization check and a retain and release of its string; a
    // literal this short is a constant.

    /// The default injector, searched first.
    @inlinable public static var primary: InjectorName { InjectorName("primary") }
    /// The second injector, searched after primary.
    @inlinable public static var secondary: InjectorName { InjectorName("secondary") }

    /// The name.
    public var description: String { rawValue }
    /// Orders names alphabetically (for stable output, not fallback order).
    public static func < (lhs: InjectorName, rhs: InjectorName) -> Bool { lhs.rawValue < rhs.rawValue }

    // Coded as its raw value, a plain string, by the standard library's `RawRepresentable` conformance.
}
