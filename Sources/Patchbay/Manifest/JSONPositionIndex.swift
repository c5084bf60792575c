// TEMPORARY STUB, replaced by the real scanner.
import Foundation
public struct SourcePosition: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public init(line: Int, column: Int) { self.line = line; self.column = column }
    public var description: String { "\(line):\(column)" }
    public static func < (a: Self, b: Self) -> Bool { (a.line, a.column) < (b.line, b.column) }
}
struct JSONSyntaxError: Hashable, Sendable { var position: SourcePosition; var message: String }
struct DuplicateKey: Hashable, Sendable { var pointer: String; var first: SourcePosition; var duplicate: SourcePosition }
struct DepthExceeded: Hashable, Sendable { var position: SourcePosition; var limit: Int }
struct JSONPositionIndex: Sendable {
    init(bytes: some Collection<UInt8>, maxDepth: Int = 64) {}
    var valuePositions: [String: SourcePosition] = [:]
    var keyPositions: [String: SourcePosition] = [:]
    var memberKeys: [String: [String]] = [:]
    var duplicateKeys: [DuplicateKey] = []
    var syntaxError: JSONSyntaxError?
    var depthExceeded: DepthExceeded?
    func position(of pointer: String) -> SourcePosition { SourcePosition(line: 1, column: 1) }
    static func escape(_ key: String) -> String { key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1") }
}
