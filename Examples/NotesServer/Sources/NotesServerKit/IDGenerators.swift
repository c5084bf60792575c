import Foundation

/// Random identifiers: production's.
public struct UUIDGenerator: NoteIDGenerator {
    /// Creates the generator.
    public init() {}
    public func next() -> String { UUID().uuidString.lowercased() }
}

/// `PREFIX1`, `PREFIX2`, ...: readable identifiers for development and tests.
public final class SequentialIDGenerator: NoteIDGenerator, @unchecked Sendable {
    /// The binding's parameters.
    public struct Options: Decodable, Sendable {
        /// What every identifier starts with; `note-` when not given.
        public var prefix: String?
    }

    private let prefix: String
    private let lock = NSLock()
    private var last = 0

    /// A generator that starts at 1.
    public init(options: Options) { prefix = options.prefix ?? "note-" }

    public func next() -> String {
        let number = lock.withLock { () -> Int in
            last += 1
            return last
        }
        return "\(prefix)\(number)"
    }
}
