import Dispatch
import Foundation

/// Work spread over the cores, its results in the order of its inputs: a
/// check of a folder reads and validates each manifest on its own, so a
/// folder of many is checked on every core, and says the same as one core would.
enum ParallelMap {
    /// Below this many items to a share, work is not split: a thread's start
    /// and the merge cost more than a share of fewer saves.
    static let itemsPerShare = 4_096

    /// Into how many shares `count` items of one job are split on `cores`
    /// cores: one per core, each of at least ``itemsPerShare`` items; 1 (the
    /// calling thread alone) for fewer than twice that.
    static func shares(of count: Int, cores: Int) -> Int { max(1, min(cores, count / itemsPerShare)) }

    /// `transform` of each index of `0..<count`, computed on up to `jobs`
    /// threads (nil or 0: one per active core, as `patchbay check --jobs 0`
    /// says; 1: in order on this thread), and returned in index order
    /// whatever order they finished in.
    ///
    /// Each worker takes the next index not yet taken, so one large file does
    /// not hold back a share of the others; each result goes to its own slot.
    static func map<Result: Sendable>(count: Int, jobs: Int?, _ transform: @Sendable (Int) -> Result) -> [Result] {
        // 0 is every core too: the command's default, which read as one job ran every check on one core.
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let workers = min(count, max(1, jobs.map { $0 > 0 ? $0 : cores } ?? cores))
        guard workers > 1 else { return (0..<count).map(transform) }
        let next = Locked(0)
        let slots = Locked([Result?](repeating: nil, count: count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let index = next.withLock { taken -> Int in
                    defer { taken += 1 }
                    return taken
                }
                guard index < count else { return }
                let result = transform(index)
                slots.withLock { $0[index] = result }
            }
        }
        // Every index below `count` was taken once, and its slot filled before its worker returned.
        return slots.withLock { $0.map { $0! } }
    }
}
