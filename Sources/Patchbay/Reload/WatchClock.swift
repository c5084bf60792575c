import Dispatch

/// The time a ``ManifestWatcher`` waits by: when "now" is, and running work
/// after a delay. The watch uses the system's monotonic clock; a test passes
/// a clock it moves by hand, so that "quiet for a whole settle delay" is
/// decided by the test's steps, not by how busy the machine is.
protocol WatchClock: Sendable {
    /// Now, in nanoseconds from any fixed origin; never goes back.
    func now() -> UInt64
    /// Runs `work` on `queue` once `delay` nanoseconds have passed.
    func schedule(after delay: UInt64, on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void)
}

/// The system's monotonic clock and Dispatch's timers.
struct SystemWatchClock: WatchClock {
    func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    func schedule(after delay: UInt64, on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void) {
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: delay)), execute: work)
    }
}

extension DispatchTimeInterval {
    /// The interval in nanoseconds, saturating; `never` (and a negative interval) as 0, which waits for nothing.
    var nanoseconds: UInt64 {
        func scaled(_ count: Int, by factor: Int) -> Int {
            let (value, overflow) = count.multipliedReportingOverflow(by: factor)
            return overflow ? (count < 0 ? 0 : .max) : value
        }
        let value = switch self {
        case .seconds(let count): scaled(count, by: 1_000_000_000)
        case .milliseconds(let count): scaled(count, by: 1_000_000)
        case .microseconds(let count): scaled(count, by: 1_000)
        case .nanoseconds(let count): count
        default: 0
        }
        return UInt64(max(0, value))
    }
}
