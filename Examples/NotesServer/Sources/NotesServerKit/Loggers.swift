import Foundation
import Logging

/// What both loggers' bindings take: the label and the least level written.
public struct LoggerOptions: Decodable, Sendable {
    /// The logger's label; `notes-server` when not given.
    public var label: String?
    /// `trace`, `debug`, `info` (when not given), `notice`, `warning`, `error` or `critical`.
    public var level: Logger.Level?
}

extension Logger {
    /// A swift-log logger whose lines go to `handler`, labelled and levelled as `options` say.
    static func made(_ options: LoggerOptions, handler: @escaping @Sendable (String) -> any LogHandler) -> Logger {
        var logger = Logger(label: options.label ?? "notes-server", factory: handler)
        logger.logLevel = options.level ?? .info
        return logger
    }
}

/// One JSON object a line on standard output (`{"time":...,"level":"info","label":...,"message":...}`),
/// with the logger's and the call's metadata: what a log collector reads in production.
public struct JSONLinesLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    public var logLevel: Logger.Level = .info
    private let label: String

    /// A handler for the logger `label`.
    public init(label: String) { self.label = label }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let own = event.metadata { merged.merge(own) { _, new in new } }
        let line = Line(
            time: Self.timestamp(), level: event.level.rawValue, label: label, message: event.message.description,
            metadata: merged.isEmpty ? nil : merged.mapValues(\.description))
        guard var data = try? Self.encoder.encode(line) else { return }
        data.append(UInt8(ascii: "\n"))
        StandardOutput.write(data)
    }

    private struct Line: Encodable {
        var time: String, level: String, label: String, message: String
        var metadata: [String: String]?
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    private static func timestamp() -> String {
        Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}

/// Standard output, one whole line at a time whatever thread logs.
enum StandardOutput {
    private static let lock = NSLock()

    static func write(_ data: Data) {
        lock.withLock { FileHandle.standardOutput.write(data) }
    }
}
