import Patchbay

/// The example app's factories: two or more implementations of each protocol,
/// grouped in modules. The manifests in `Manifests/` choose among them.
public struct NotesModule: CatalogModule {
    /// Creates the module.
    public init() {}

    /// Registers every factory of the example.
    public func register(into catalog: inout FactoryCatalog) {
        catalog.install(StorageModule())
        catalog.install(InfrastructureModule())
        catalog.register("note-service", provides: NoteService.self) {
            (store: any NoteStore, clock: any Clock, logger: any Logger, mailer: any Mailer, ids: any IDGenerator) in
            NoteService(store: store, clock: clock, logger: logger, mailer: mailer, ids: ids)
        }
    }
}

/// Where notes are kept.
struct StorageModule: CatalogModule {
    func register(into catalog: inout FactoryCatalog) {
        catalog.register("in-memory-store", provides: (any NoteStore).self, lifetime: .singleton) {
            InMemoryNoteStore()
        }
        catalog.register(
            "file-store", provides: (any NoteStore).self, parameters: FileNoteStore.Options.self, lifetime: .singleton
        ) { options in
            FileNoteStore(options: options)
        }
    }
}

/// Clocks, loggers, mailers and identifiers. The test doubles (a clock that
/// never moves, a mailer that only keeps mail, identifiers anyone can guess)
/// name the environments they are for: a staging or production manifest
/// that binds one is refused by `patchbay check` and at start-up.
struct InfrastructureModule: CatalogModule {
    /// Where the test doubles may be bound.
    static let testDoubles: FactoryEnvironments = ["development", "test"]

    func register(into catalog: inout FactoryCatalog) {
        catalog.register("system-clock", provides: (any Clock).self) { SystemClock() }
        catalog.register(
            "fixed-clock", provides: (any Clock).self, parameters: FixedClock.Options.self,
            environments: Self.testDoubles
        ) { options in
            FixedClock(options: options)
        }
        catalog.register("console-logger", provides: (any Logger).self, parameters: ConsoleLogger.Options.self) {
            options in ConsoleLogger(options: options)
        }
        catalog.register("json-logger", provides: (any Logger).self) { JSONLogger() }
        catalog.register("smtp-mailer", provides: (any Mailer).self, parameters: SMTPMailer.Options.self) {
            (options: SMTPMailer.Options, logger: any Logger) in
            SMTPMailer(options: options, logger: logger)
        }
        catalog.register(
            "outbox-mailer", provides: (any Mailer).self, lifetime: .singleton, environments: Self.testDoubles
        ) { OutboxMailer() }
        catalog.register("uuid-ids", provides: (any IDGenerator).self) { UUIDGenerator() }
        catalog.register(
            "sequential-ids", provides: (any IDGenerator).self, parameters: SequentialIDGenerator.Options.self,
            lifetime: .singleton, environments: Self.testDoubles
        ) { options in
            SequentialIDGenerator(options: options)
        }
    }
}

extension FactoryCatalog {
    /// The example app's catalog.
    public static var notes: FactoryCatalog {
        var catalog = FactoryCatalog(modules: [NotesModule(), StoreDecoratorsModule()])
        // What the app itself resolves (`Demo`'s `@Injected var notes`): every
        // environment's manifest must bind it, or check and start-up refuse it.
        catalog.entryPoint(NoteService.self)
        return catalog
    }
}

/// Wrappers a manifest may put around any `NoteStore` binding, in its
/// `"decorators"`: each wraps whatever store the binding's factory made.
/// `staging.json` times its file store with `timing-store`.
struct StoreDecoratorsModule: CatalogModule {
    func register(into catalog: inout FactoryCatalog) {
        catalog.registerDecorator(
            "timing-store", decorates: (any NoteStore).self, parameters: TimingNoteStore.Options.self
        ) { (inner: any NoteStore, options: TimingNoteStore.Options, logger: any Logger) in
            TimingNoteStore(inner, options: options, logger: logger)
        }
    }
}
