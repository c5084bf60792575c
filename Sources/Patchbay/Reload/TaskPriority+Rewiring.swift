// The priority of the tasks a rewiring runs on its own: a watch's start of
// a new wiring, and the shutdown of a wiring it retired.

extension TaskPriority {
    /// Above a server's requests (the default priority), so that a rewiring is not kept waiting
    /// behind them. The global executor runs the jobs of one priority in the order they were
    /// queued: a start queued at the requests' priority behind a backlog of them started only
    /// once the whole backlog had run (`RewiringBacklogTests`), which under a loaded full test
    /// suite was over five minutes. Both tasks are short and rare, and what waits on them is the
    /// wiring every request will use, and the release of what the old one held (a pool's connections).
    static let rewiring = TaskPriority.high
}
