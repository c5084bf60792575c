import Logging
import Patchbay

extension FactoryCatalog {
    /// The server's factories: two or more of each protocol, which the
    /// manifests in `Examples/NotesServer/Manifests/` choose among.
    public static var notesServer: FactoryCatalog {
        var catalog = FactoryCatalog()
        catalog.register("in-memory-store", provides: (any NoteStore).self, lifetime: .singleton) {
            InMemoryNoteStore() as any NoteStore
        }
        catalog.register(
            "postgres-store", provides: (any NoteStore).self, parameters: PostgresNoteStore.Options.self,
            lifetime: .singleton
        ) { (options: PostgresNoteStore.Options, logger: Provider<Logger>) -> any NoteStore in
            // Through a provider, so that a new logger (a level changed in the
            // manifest) does not remake the store and its pool: it is read at each query.
            let fallback = Logger(label: "notes-server")
            return PostgresNoteStore(options: options, logger: { (try? logger.get()) ?? fallback })
        }
        // Decorators a manifest may put around any NoteStore: production
        // times its store and logs slow calls; tests record every call. The
        // recorder is for tests only: a manifest of another environment that
        // names it is refused by the check and at start.
        catalog.registerDecorator(
            "timing-store", decorates: (any NoteStore).self, parameters: TimingNoteStore.Options.self
        ) { (inner: any NoteStore, options: TimingNoteStore.Options, logger: Logger) -> any NoteStore in
            TimingNoteStore(inner, options: options, logger: logger)
        }
        catalog.registerDecorator("recording-store", decorates: (any NoteStore).self, environments: ["test"]) {
            (inner: any NoteStore) -> any NoteStore in RecordingNoteStore(inner)
        }
        catalog.register("console-logger", provides: Logger.self, parameters: LoggerOptions.self, lifetime: .singleton) {
            options in Logger.made(options) { StreamLogHandler.standardOutput(label: $0) }
        }
        catalog.register("json-logger", provides: Logger.self, parameters: LoggerOptions.self, lifetime: .singleton) {
            options in Logger.made(options) { JSONLinesLogHandler(label: $0) }
        }
        catalog.register("system-clock", provides: (any NoteClock).self, lifetime: .singleton) {
            SystemClock() as any NoteClock
        }
        catalog.register("fixed-clock", provides: (any NoteClock).self, parameters: FixedClock.Options.self) {
            options in try FixedClock(options: options) as any NoteClock
        }
        catalog.register("uuid-ids", provides: (any NoteIDGenerator).self, lifetime: .singleton) {
            UUIDGenerator() as any NoteIDGenerator
        }
        catalog.register(
            "sequential-ids", provides: (any NoteIDGenerator).self, parameters: SequentialIDGenerator.Options.self,
            lifetime: .singleton
        ) { options in SequentialIDGenerator(options: options) as any NoteIDGenerator }
        // What the server resolves itself: every environment must bind them,
        // or the check and the start refuse the manifest.
        catalog.entryPoint((any NoteStore).self)
        catalog.entryPoint((any NoteClock).self)
        catalog.entryPoint((any NoteIDGenerator).self)
        catalog.entryPoint(Logger.self)
        return catalog
    }
}
