import Foundation
import Hummingbird
import Logging
import Patchbay
import ServiceLifecycle

/// The server's whole start, run and stop, as the executable runs it:
/// returns the exit status, so every failure is a message and a status,
/// never a trap.
public enum NotesServerMain {
    /// Runs the server until SIGTERM or SIGINT; 0 after a graceful stop.
    ///
    /// Start-up, in order: the manifest is loaded and checked against the
    /// catalog (any problem: the check's diagnostics, status 1); every
    /// singleton is made (`makeSingletons()`: a factory that throws is a
    /// `singleton-failed` at its binding); every made ``StartupCheck`` is run
    /// (a refused password, an unreachable database: `start-up-failed` at
    /// the binding that made it). Only then is the port opened, with the made
    /// singletons that are swift-service-lifecycle `Service`s (the PostgreSQL
    /// store's pool) run by a ``WiringService`` beside the HTTP server, in
    /// order of making; it also watches the manifest and rewires the server
    /// while it runs (see the README, "Reloading"), and each request holds a
    /// lease on its wiring (``LeaseMiddleware``). After the group's graceful shutdown the container shuts down
    /// its ``AsyncShutdown`` singletons, in reverse order of making. Each of
    /// these is found on every link of a decorated binding's chain, innermost
    /// first: production's store is a ``TimingNoteStore`` around the
    /// PostgreSQL store, and it is the store behind it that is checked, run
    /// and shut down.
    public static func run(
        _ arguments: [String], environment variables: [String: String] = ProcessInfo.processInfo.environment
    ) async -> Int32 {
        let options: ServerOptions
        do {
            options = try ServerOptions(arguments, environment: variables)
        } catch {
            guard let message = error.message else {
                print(ServerOptions.usage)
                return 0
            }
            report("notes-server: \(message)\n\(ServerOptions.usage)")
            return 2
        }
        switch options.wiring {
        case .patchbay: return await runWired(options, variables)
        case .hand: return await serve(handWired(options), options: options, environment: "hand-wired", container: nil)
        }
    }

    private static func runWired(_ options: ServerOptions, _ variables: [String: String]) async -> Int32 {
        let container: Container
        let environment: String
        let manifest: URL
        let loader = ManifestLoader(environment: variables)
        do {
            let folder = ManifestDirectory(url: options.manifests, loader: loader)
            environment = folder.selectedEnvironment(options.environment)
            manifest = try folder.url(forEnvironment: environment)
            container = try Container(catalog: .notesServer, manifests: folder, environment: environment)
            try container.makeSingletons()
        } catch {
            report(error.description)
            return 1
        }
        if let failure = await checkStartup(container) {
            report(failure.description)
            return 1
        }
        let logger: Logger
        do {
            logger = try container.resolve(Logger.self)
        } catch {
            report("notes-server: \(error)")
            return 1
        }
        let dependencies = NoteDependencies(resolvingFrom: container)
        // The wiring's services (the PostgreSQL store's pool) run in the
        // wiring service, which starts those of each new manifest and stops
        // those a new manifest replaced; it runs before the HTTP server, so
        // it stops after it.
        let wiring = WiringService(container: container, manifest: manifest, loader: loader)
        let application = Application(
            router: NotesRoutes.router(
                environment: environment, dependencies: dependencies, container: container, status: wiring.status),
            configuration: .init(address: .hostname(options.host, port: options.port), serverName: nil),
            services: [wiring],
            logger: logger)
        logger.info(
            "wired", metadata: [
                "environment": "\(environment)", "manifest": "\(container.manifest.file)",
                "services": "\(container.madeSingletons(as: (any Service).self).map { "\(type(of: $0.instance))" })",
            ])
        return await serve(application, options: options, environment: environment, container: container)
    }

    /// Every made ``StartupCheck``, in order of making; the first failure, placed at its binding.
    static func checkStartup(_ container: Container) async -> ManifestError? {
        for made in container.madeSingletons(as: (any StartupCheck).self) {
            do {
                try await made.instance.checkStartup()
            } catch {
                return startupFailure(error, of: made.binding, in: container)
            }
        }
        return nil
    }

    /// A start-up check's failure as a `start-up-failed` diagnostic at the binding that made it.
    static func startupFailure(_ error: any Error, of binding: BindingDescription?, in container: Container) -> ManifestError {
        let what = binding.map { "\($0.type) (factory '\($0.factory)')" } ?? "a singleton"
        let message = "\(what) could not start: \(error)"
        return ManifestError(diagnostics: [
            binding?.diagnostic(.startUpFailed, message)
                ?? Diagnostic(code: .startUpFailed, message: message, file: container.manifest.file)
        ])
    }

    /// Runs `application` until a signal stops it, then shuts the container down.
    private static func serve(
        _ application: some ApplicationProtocol, options: ServerOptions, environment: String, container: Container?
    ) async -> Int32 {
        var status: Int32 = 0
        do {
            try await application.runService()
        } catch {
            report("notes-server: stopped on \(options.host):\(options.port) (\(environment)): \(error)")
            status = 1
        }
        do {
            try await container?.shutdown()
        } catch {
            report(error.description)
            status = 1
        }
        return status
    }

    /// The same routes over an in-memory store made by hand, with no container.
    private static func handWired(_ options: ServerOptions) -> some ApplicationProtocol {
        let store = InMemoryNoteStore(), clock = SystemClock(), ids = UUIDGenerator()
        let logger = Logger.made(LoggerOptions(label: "notes-server", level: .info)) {
            StreamLogHandler.standardOutput(label: $0)
        }
        let dependencies = NoteDependencies(store: { store }, clock: { clock }, ids: { ids }, logger: { logger })
        return Application(
            router: NotesRoutes.router(environment: "hand-wired", dependencies: dependencies),
            configuration: .init(address: .hostname(options.host, port: options.port), serverName: nil),
            logger: logger)
    }

    private static func report(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
