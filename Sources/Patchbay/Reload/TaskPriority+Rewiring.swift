// The priority of the tasks a rewiring runs on its own: a watch's start of
// a new wiring, and the shutdown of a wiring it retired.

extension TaskPriority {
    /// Not the priority of a server's requests (the default), so that a rewiring is not kept
    /// waiting behind them: the global executor runs the jobs of one priority in the order they
    /// were queued, and a start queued at the requests' priority behind a backlog of them began
    /// only once the whole backlog had run (`RewiringBacklogTests`; under a loaded full test
    /// suite, over five minutes). On Linux, Dispatch serves each priority with threads of its own,
    /// so any other priority would do; on Apple platforms one pool serves higher priorities first,
    /// so it is above the requests'. Rewiring is rare, and what waits on it is the wiring every
    /// request will use, or the release of what the old one held (a pool's connections). What
    /// these tasks await elsewhere (a service started in another task) runs at its own priority.
    static let rewiring = TaskPriority.high
}
