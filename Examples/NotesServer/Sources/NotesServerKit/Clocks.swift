import Foundation

/// The system's clock.
public struct SystemClock: NoteClock {
    /// Creates the clock.
    public init() {}
    public func now() -> Date { Date() }
}

/// A clock stopped at one instant, for tests that compare output.
public struct FixedClock: NoteClock {
    /// The binding's parameters.
    public struct Options: Decodable, Sendable {
        /// The instant, as ISO 8601 (`2026-01-01T09:00:00Z`).
        public var iso8601: String
    }

    private let instant: Date

    /// A clock at the options' instant; throws when it is not ISO 8601.
    public init(options: Options) throws {
        guard let instant = ISO8601DateFormatter().date(from: options.iso8601) else {
            throw InvalidInstant(text: options.iso8601)
        }
        self.instant = instant
    }

    public func now() -> Date { instant }

    struct InvalidInstant: Error, CustomStringConvertible {
        let text: String
        var description: String { "'\(text)' is not an ISO 8601 instant such as 2026-01-01T09:00:00Z" }
    }
}
