/// The awaited floor (`AsyncFloorContainer` in the benchmark's own module)
/// compiled as a library: the same code, in a module of its own, with its
/// storage internal, as any container an app imports is written (Patchbay,
/// Swinject). The app's call then runs this module's unspecialized code,
/// which calls the app's factory through its reabstraction thunk (an async
/// frame) and receives a product of unknown size in a task allocation: what
/// the language makes any library pay that runs an app's `async` closure.
/// (With its storage public or `@usableFromInline`, the optimizer's
/// cross-module pass would copy it into the app and specialize it there,
/// as it does for the in-app floor: 3,723 instructions against 3,707.)
public final class LibraryFloorContainer: Sendable {
    final class Frame: Sendable {
        let key: ObjectIdentifier
        let task: Int?
        let outer: Frame?
        init(key: ObjectIdentifier, task: Int?, outer: Frame?) {
            self.key = key
            self.task = task
            self.outer = outer
        }
    }
    final class Box<T> {
        let value: T
        init(_ value: T) { self.value = value }
    }
    struct Loop: Error {}
    @TaskLocal static var running: Frame?
    private let factories: [ObjectIdentifier: @Sendable () async throws -> AnyObject]

    /// A container of one factory of `type`.
    public init<T>(_ type: T.Type, factory: @escaping @Sendable () async throws -> T) {
        factories = [ObjectIdentifier(type): { Box(try await factory()) }]
    }

    /// Makes a `T` with its factory.
    public func resolve<T>(_ type: T.Type) async throws -> T {
        let key = ObjectIdentifier(type)
        let factory = factories[key]!
        let outer = Self.running
        let task = withUnsafeCurrentTask { $0?.hashValue }
        var frame = outer
        while let step = frame {
            if step.key == key && step.task == task { throw Loop() }
            frame = step.outer
        }
        let made = try await Self.$running.withValue(Frame(key: key, task: task, outer: outer)) { try await factory() }
        return (made as! Box<T>).value
    }
}
