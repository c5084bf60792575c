/// Replacements for bound types, for the duration of a test.
///
///     try container.withOverrides({ $0.override((any Clock).self, with: FixedClock(at: .distantPast)) }) {
///         let service = try container.resolve(NoteService.self)   // gets the fixed clock
///     }
///
/// Overrides are task-local: they apply to code running inside the
/// `withOverrides` closure (and tasks it starts), so parallel Swift Testing
/// tests never see each other's overrides. They apply to dependencies too:
/// overriding `Clock` changes the clock every factory receives — singletons
/// included: inside the closure, `singleton` and `weak` bindings get
/// instances of their own, made with the overrides and dropped with the
/// closure, never shared with code outside it.
public struct Overrides: Sendable {
    var entries: [ObjectIdentifier: @Sendable () throws -> AnyObject] = [:]

    /// Creates an empty set of overrides.
    public init() {}

    /// Resolves `type` to this instance.
    public mutating func override<T>(_ type: T.Type, with instance: T) {
        entries[ObjectIdentifier(type)] = { [box = Instance(instance)] in box }
    }

    /// Resolves `type` by calling `factory`, every time.
    public mutating func override<T>(_ type: T.Type, using factory: @escaping @Sendable () throws -> T) {
        entries[ObjectIdentifier(type)] = { Instance(try factory()) }
    }
}

/// The overrides in force for one container in the current task, nested
/// `withOverrides` calls chaining to the outer ones.
final class OverrideTable: Sendable {
    let container: ObjectIdentifier
    let entries: [ObjectIdentifier: @Sendable () throws -> AnyObject]
    let outer: OverrideTable?
    /// The singleton (and weak) instances made inside this `withOverrides`:
    /// they may hold overridden dependencies, so they must neither come from
    /// nor go into the activation's cells, which code outside sees. Each
    /// override block — each parallel test — gets its own.
    private let cells = Locked<[ObjectIdentifier: InstanceCell]>([:])

    /// The cell for a shared instance inside these overrides.
    func cell(for storage: any LifetimeStorage) -> InstanceCell { cells.withLock { $0.cell(for: storage) } }

    init(container: ObjectIdentifier, entries: [ObjectIdentifier: @Sendable () throws -> AnyObject], outer: OverrideTable?) {
        self.container = container
        self.entries = entries
        self.outer = outer
    }

    @TaskLocal static var current: OverrideTable?

    /// The innermost overrides of this task (or of the chain from `start`) for `container`.
    static func current(
        for container: ObjectIdentifier, from start: OverrideTable? = OverrideTable.current
    ) -> OverrideTable? {
        var table = start
        while let candidate = table, candidate.container != container { table = candidate.outer }
        return table
    }

    /// The override of a type, innermost first.
    func lookup(_ id: ObjectIdentifier) -> (@Sendable () throws -> AnyObject)? {
        entries[id] ?? Self.current(for: container, from: outer)?.lookup(id)
    }
}

extension Container {
    /// Runs `operation` with some types resolved to test doubles.
    /// - Parameters:
    ///   - configure: Adds the overrides.
    ///   - operation: The code that sees them.
    public func withOverrides<Result>(
        _ configure: (inout Overrides) -> Void, operation: () throws -> Result
    ) rethrows -> Result {
        try OverrideTable.$current.withValue(makeOverrideTable(configure), operation: operation)
    }

    /// Runs `operation` with some types resolved to test doubles.
    public func withOverrides<Result>(
        _ configure: (inout Overrides) -> Void, isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        try await OverrideTable.$current.withValue(
            makeOverrideTable(configure), operation: operation, isolation: isolation)
    }

    private func makeOverrideTable(_ configure: (inout Overrides) -> Void) -> OverrideTable {
        var overrides = Overrides()
        configure(&overrides)
        noteOverridesInUse()
        return OverrideTable(container: ObjectIdentifier(self), entries: overrides.entries, outer: OverrideTable.current)
    }
}
