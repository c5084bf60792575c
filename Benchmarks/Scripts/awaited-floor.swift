import Foundation
protocol Service: AnyObject { var id: Int { get } }
final class ServiceImpl: Service { let id = 1 }
final class Box<T> { let value: T; init(_ v: T) { value = v } }
final class Frame: Sendable { let outer: Frame?; init(outer: Frame?) { self.outer = outer } }
enum L { @TaskLocal static var running: Frame? }

final class C: @unchecked Sendable {
    let lock = NSLock()
    var factories: [ObjectIdentifier: @Sendable () async -> Any] = [:]
    var boxed: [ObjectIdentifier: @Sendable () async -> AnyObject] = [:]
    @inline(never) func baseline<T>(_ t: T.Type) async -> T {
        let f = lock.withLock { factories[ObjectIdentifier(t)]! }
        return await f() as! T
    }
    // step: + a task-local read
    @inline(never) func taskLocal<T>(_ t: T.Type) async -> T {
        let f = lock.withLock { factories[ObjectIdentifier(t)]! }
        let outer = L.running
        return await (outer == nil ? f() : f()) as! T
    }
    // step: + withValue around the factory
    @inline(never) func withValue<T>(_ t: T.Type) async -> T {
        let f = lock.withLock { factories[ObjectIdentifier(t)]! }
        let outer = L.running
        return await L.$running.withValue(Frame(outer: outer)) { await f() } as! T
    }
    // step: + the current task's identity
    @inline(never) func identity<T>(_ t: T.Type) async -> T {
        let f = lock.withLock { factories[ObjectIdentifier(t)]! }
        let outer = L.running
        let task = withUnsafeCurrentTask { $0.map { unsafeBitCast($0, to: UInt.self) } }
        if task == 0 { fatalError() }
        return await L.$running.withValue(Frame(outer: outer)) { await f() } as! T
    }
    // step: + a type-erased product box
    @inline(never) func box<T>(_ t: T.Type) async -> T {
        let f = lock.withLock { boxed[ObjectIdentifier(t)]! }
        let outer = L.running
        let task = withUnsafeCurrentTask { $0.map { unsafeBitCast($0, to: UInt.self) } }
        if task == 0 { fatalError() }
        let made = await L.$running.withValue(Frame(outer: outer)) { await f() }
        return (made as! Box<T>).value
    }
}
let c = C()
c.factories[ObjectIdentifier((any Service).self)] = { () async -> Any in ServiceImpl() as any Service }
c.boxed[ObjectIdentifier((any Service).self)] = { () async -> AnyObject in Box<any Service>(ServiceImpl()) }
let step = CommandLine.arguments[1], n = Int(CommandLine.arguments[2])!
let done = DispatchSemaphore(value: 0)
nonisolated(unsafe) var sum = 0
Task {
    for _ in 0..<n {
        switch step {
        case "baseline": sum &+= await c.baseline((any Service).self).id
        case "taskLocal": sum &+= await c.taskLocal((any Service).self).id
        case "withValue": sum &+= await c.withValue((any Service).self).id
        case "identity": sum &+= await c.identity((any Service).self).id
        default: sum &+= await c.box((any Service).self).id
        }
    }
    done.signal()
}
done.wait()
print(sum)
