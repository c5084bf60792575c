import Dispatch
import Foundation
import Logging
import Patchbay
import ServiceLifecycle

/// The swift-service-lifecycle `Service` that owns the server's wirings: it
/// runs the services of the first one, watches the environment's manifest
/// (and the files its `extends` chain reads), starts each new wiring before
/// it serves, and stops the services a new wiring replaced once the
/// container has retired them.
///
/// For each new version of the manifest the watch hands over a container
/// serving the new wiring (`startingWith:`), before it serves. Here its
/// singletons are made; the ``StartupCheck``s among them that are new (not
/// the very objects the wiring in force made: a kept store is not checked
/// again) are run, and one that fails refuses the manifest (the wiring in
/// force keeps serving; `/health` says why); then the new `Service`s are
/// started, each in a service group of its own, so that it can be shut down
/// gracefully alone. The services the new wiring does not keep are stopped
/// when the container reports them retired (`.retired`): after the last
/// request that could reach them. A service that is also an
/// ``AsyncShutdown`` (the PostgreSQL store) has by then been shut down by the
/// container, and its `run()` has returned; stopping its group finds it done.
///
/// It runs in the application's service group before the HTTP server, so on
/// SIGTERM the server stops first and finishes its requests; then this stops
/// the watch and every service, the last started first. Services are told
/// apart by identity: a value-type service counts as new in every wiring
/// that lists it.
public final class WiringService: Service, @unchecked Sendable {
    /// What `/health` reports.
    public let status: WiringStatus
    private let container: Container
    private let manifest: URL
    private let loader: ManifestLoader
    private let settleDelay: DispatchTimeInterval
    private let commands: AsyncStream<Command>
    private let send: AsyncStream<Command>.Continuation

    // Guards the three below: the watch's queue, the service's task and each group's task change them.
    private let lock = NSLock()
    private var running: [Running] = []
    private var watch: ManifestWatch?
    private var stopping = false

    private enum Command: Sendable {
        case run(Running)
        case stop([Running])
        case shutdown
    }

    /// A service started by a wiring, in its own group, and the replaced generation that drops it.
    private final class Running: @unchecked Sendable {
        let service: any Service
        let identity: ObjectIdentifier?
        let group: ServiceGroup
        let started = Signal(), finished = Signal()
        /// The generation whose replacement dropped it; its retirement stops it. Guarded by the service's lock.
        var droppedAt: Int?

        init(_ service: any Service, logger: Logger) {
            self.service = service
            identity = WiringService.identity(of: service)
            // A service that returns ends its group quietly: the PostgreSQL
            // store's `run()` returns when the container's retirement has
            // shut it down (its `AsyncShutdown`), before the `.retired` that stops its group.
            let configuration = ServiceGroupConfiguration.ServiceConfiguration(
                service: service, successTerminationBehavior: .gracefullyShutdownGroup)
            group = ServiceGroup(configuration: .init(services: [configuration], gracefulShutdownSignals: [], logger: logger))
        }
    }

    /// Owns the wirings of `container`, whose manifest is read from
    /// `manifest` (the environment's file) with `loader`. The container's
    /// singletons must be made and checked; this starts its services when it runs.
    public init(
        container: Container, manifest: URL, loader: ManifestLoader, settleDelay: DispatchTimeInterval = .milliseconds(50)
    ) {
        self.container = container
        self.manifest = manifest
        self.loader = loader
        self.settleDelay = settleDelay
        status = WiringStatus(generation: container.generation, files: ManifestFingerprint.chain(from: manifest))
        (commands, send) = AsyncStream.makeStream(of: Command.self)
    }

    /// The services of the wiring in force, in order of making.
    public var services: [any Service] { lock.withLock { running.map(\.service) } }

    public func run() async throws {
        let logger = currentLogger()
        let first = container.madeSingletons(as: (any Service).self).map { Running($0.instance, logger: logger) }
        lock.withLock { running = first }
        for service in first { send.yield(.run(service)) }
        let watch = container.watch(
            manifest, loader: loader, settleDelay: settleDelay,
            onChange: { [weak self] event in self?.heard(event) },
            startingWith: { [weak self] next in try await self?.start(next) })
        lock.withLock { self.watch = watch }
        logActivation(status.snapshot, first: true)

        await withGracefulShutdownHandler {
            // Discarding: a task group keeps each finished child until it is
            // awaited, and with it the service group, store and pool it ran,
            // about 23 KiB a swap on PostgreSQL.
            await withDiscardingTaskGroup { group in
                for await command in commands {
                    switch command {
                    case .run(let service):
                        group.addTask { await self.run(service) }
                    case .stop(let services):
                        group.addTask { await Self.stop(services) }
                    case .shutdown:
                        let all = lock.withLock { () -> [Running] in
                            stopping = true
                            watch.cancel()
                            return running
                        }
                        group.addTask { [send] in
                            await Self.stop(all)
                            send.finish()
                        }
                    }
                }
            }
        } onGracefulShutdown: { [send] in
            send.yield(.shutdown)
        }
        watch.cancel()
    }

    /// Runs one service's group until it is stopped or the service returns.
    private func run(_ service: Running) async {
        service.started.fire()
        do {
            try await service.group.run()
        } catch {
            currentLogger().error(
                "service stopped with an error", metadata: ["service": "\(type(of: service.service))", "error": "\(error)"])
        }
        // One a replacement dropped stays listed until its `.retired`, which logs and removes it.
        lock.withLock { if service.droppedAt == nil { running.removeAll { $0 === service } } }
        service.finished.fire()
    }

    /// Stops `services` gracefully, the last started first, each once the one after it has stopped.
    private static func stop(_ services: [Running]) async {
        for service in services.reversed() {
            await service.started.wait()
            await service.group.triggerGracefulShutdown()
            await service.finished.wait()
        }
    }

    // MARK: A new wiring

    private struct Stopping: Error, CustomStringConvertible {
        var description: String { "the server is stopping" }
    }

    /// Starts the wiring `next` serves, before it serves (see the type's comment).
    private func start(_ next: Container) async throws {
        guard !lock.withLock({ stopping }) else { throw Stopping() }
        try next.makeSingletons()
        let inForce = Set(container.madeSingletons(as: Any.self).compactMap { Self.identity(of: $0.instance) })
        for made in next.madeSingletons(as: (any StartupCheck).self) {
            if let identity = Self.identity(of: made.instance), inForce.contains(identity) { continue }
            do {
                try await made.instance.checkStartup()
            } catch {
                throw NotesServerMain.startupFailure(error, of: made.binding, in: next)
            }
        }
        let logger = currentLogger()
        let replacing = container.generation
        let nextServices = next.madeSingletons(as: (any Service).self).map(\.instance)
        let kept = Set(nextServices.compactMap(Self.identity(of:)))
        let started = try lock.withLock { () throws -> [Running] in
            guard !stopping else { throw Stopping() }
            let had = Set(running.compactMap(\.identity))
            let new = nextServices.filter { Self.identity(of: $0).map { !had.contains($0) } ?? true }
                .map { Running($0, logger: logger) }
            for service in running where service.droppedAt == nil && !(service.identity.map(kept.contains) ?? false) {
                service.droppedAt = replacing
            }
            running += new
            return new
        }
        for service in started {
            send.yield(.run(service))
            await service.started.wait()
        }
    }

    // MARK: What the watch tells

    private func heard(_ event: ManifestReloadEvent) {
        let logger = currentLogger()
        switch event {
        case .activated:
            logActivation(status.activated(
                generation: container.generation, files: ManifestFingerprint.chain(from: manifest)), first: false)
        case .rejected(let diagnostics):
            status.refused(diagnostics)
            logger.error(
                "manifest refused; the wiring in force keeps serving",
                metadata: ["generation": "\(container.generation)", "diagnostics": "\(diagnostics.count)"])
            for diagnostic in diagnostics {
                logger.error("\(diagnostic.description)", metadata: ["generation": "\(container.generation)"])
            }
            reconcile()
        case .fileMissing(let url):
            logger.warning("manifest file missing; the wiring in force keeps serving", metadata: ["file": "\(url.path)"])
        case .waitingForQuiet(let url):
            logger.notice("manifest file keeps changing; waiting for it to settle", metadata: ["file": "\(url.path)"])
        case .retired(let generation, let failures):
            let due = lock.withLock { () -> [Running] in
                let due = running.filter { $0.droppedAt == generation }
                running.removeAll { $0.droppedAt == generation }
                return due
            }
            logger.info(
                "retired",
                metadata: [
                    "generation": "\(generation)", "failures": "\(failures.count)",
                    "services": "\(due.map { "\(type(of: $0.service))" })",
                ])
            for failure in failures { logger.error("\(failure.description)", metadata: ["generation": "\(generation)"]) }
            if !due.isEmpty { send.yield(.stop(due)) }
        }
    }

    /// After a refusal: a service marked dropped that the wiring in force
    /// still lists stays; one it does not list and that no replacement
    /// dropped (started for a wiring refused after it started) is stopped.
    private func reconcile() {
        let inForce = Set(container.madeSingletons(as: (any Service).self).compactMap { Self.identity(of: $0.instance) })
        let generation = container.generation
        let orphans = lock.withLock { () -> [Running] in
            var orphans: [Running] = []
            for service in running {
                let listed = service.identity.map(inForce.contains) ?? false
                if listed, service.droppedAt == generation { service.droppedAt = nil }
                if !listed, service.droppedAt == nil { orphans.append(service) }
            }
            running.removeAll { service in orphans.contains { $0 === service } }
            return orphans
        }
        if !orphans.isEmpty { send.yield(.stop(orphans)) }
    }

    private func logActivation(_ snapshot: WiringStatus.Snapshot, first: Bool) {
        currentLogger().info(
            first ? "wiring in force" : "activated",
            metadata: [
                "generation": "\(snapshot.generation)", "fingerprint": "\(snapshot.fingerprint)",
                "files": "\(snapshot.files.joined(separator: ", "))",
            ])
    }

    /// The container's logger now: the one the wiring in force binds.
    private func currentLogger() -> Logger {
        (try? container.resolve(Logger.self)) ?? Logger(label: "notes-server")
    }

    static func identity(of value: Any) -> ObjectIdentifier? {
        type(of: value) is AnyObject.Type ? ObjectIdentifier(value as AnyObject) : nil
    }
}

/// Fires once; `wait()` returns once it has.
private final class Signal: @unchecked Sendable {
    private let lock = NSLock()
    private var fired = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func fire() {
        let waiting = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            fired = true
            defer { waiters = [] }
            return waiters
        }
        for waiter in waiting { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = lock.withLock { () -> Bool in
                if fired { return true }
                waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}
