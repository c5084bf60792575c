/// The environments a factory may be bound in: every one (the default), only
/// those listed, or every one but those listed. A test double that must never
/// ship names the environments it is for; a manifest of any other environment
/// that binds it is refused with `environment-not-allowed`, by `patchbay
/// check`, by the app's own check and at activation alike.
///
///     catalog.register("fixed-clock", provides: (any Clock).self, environments: ["development", "test"]) {
///         FixedClock()
///     }
///     catalog.register("debug-menu", provides: (any Menu).self, environments: .except("production")) {
///         DebugMenu()
///     }
///
/// An allow-list is the safer of the two for a test double: a new environment
/// (`preview`, say) does not get it until it is added. `.except` suits a
/// factory that may run anywhere but a few places, as Spring's `!prod` does.
///
/// A manifest is judged as the environment it is loaded as: the name the app
/// gives (`PATCHBAY_ENV`), which loads `production.json` for `production`,
/// whatever the file's own `environment` label says (a label that disagrees
/// is an error); see `JudgedEnvironment`. A file that others extend is
/// judged as the environment of each file that loads it, never as its own.
public struct FactoryEnvironments: Sendable, Hashable, ExpressibleByArrayLiteral, CustomStringConvertible {
    /// The environments it may be bound in; `nil` for any not in ``excluded``.
    public let allowed: [String]?
    /// The environments it may not be bound in.
    public let excluded: [String]

    /// Each name once: names compare as ``JudgedEnvironment`` compares them, so
    /// `café` composed and decomposed is one environment, listed as first written.
    private init(allowed: [String]?, excluded: [String]) {
        func once(_ names: [String]) -> [String] {
            var seen: Set<String> = []
            return names.filter { seen.insert($0).inserted }
        }
        self.allowed = allowed.map(once)
        self.excluded = once(excluded)
    }

    /// Every environment: what a registration that names none means.
    public static let all = FactoryEnvironments(allowed: nil, excluded: [])

    /// Only the environments listed.
    public static func only(_ names: [String]) -> FactoryEnvironments {
        FactoryEnvironments(allowed: names, excluded: [])
    }

    /// Only the environments listed: `.only("development", "test")`.
    public static func only(_ names: String...) -> FactoryEnvironments { only(names) }

    /// Every environment but those listed.
    public static func except(_ names: [String]) -> FactoryEnvironments {
        FactoryEnvironments(allowed: nil, excluded: names)
    }

    /// Every environment but those listed: `.except("production", "staging")`.
    public static func except(_ names: String...) -> FactoryEnvironments { except(names) }

    /// The environments listed, as `environments: ["development", "test"]` writes them.
    public init(arrayLiteral names: String...) {
        self.init(allowed: names, excluded: [])
    }

    /// Whether a manifest of `environment` may bind the factory; a manifest
    /// that names no environment (one built in code) is not judged.
    /// Where the rule lets a registration be used, for a message: "it may
    /// be `verb` only in 'a', 'b'", "it may be `verb` in every environment
    /// except 'c'", or `none` when it is limited to no environment. One
    /// sentence for factories ("bound") and decorators ("used").
    func whereAllowed(_ verb: String, none: String) -> String {
        allowed.map { allowed in
            allowed.isEmpty ? none : "it may be \(verb) only in " + allowed.map { "'\($0)'" }.joined(separator: ", ")
        } ?? "it may be \(verb) in every environment except " + excluded.map { "'\($0)'" }.joined(separator: ", ")
    }

    public func allows(_ environment: String?) -> Bool {
        guard let environment else { return true }
        if let allowed, !allowed.contains(where: { JudgedEnvironment.same($0, environment) }) { return false }
        return !excluded.contains { JudgedEnvironment.same($0, environment) }
    }

    /// Whether every environment is allowed.
    public var isAll: Bool { allowed == nil && excluded.isEmpty }

    /// `only development, test`, `every environment except production`, `every environment`.
    public var description: String {
        if let allowed {
            return allowed.isEmpty ? "limited to no environment" : "only " + allowed.joined(separator: ", ")
        }
        return excluded.isEmpty ? "every environment" : "every environment except " + excluded.joined(separator: ", ")
    }
}
