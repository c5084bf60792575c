import Logging
import Patchbay

extension NoteDependencies {
    /// Dependencies resolved from `container` on every request: what the
    /// server's routes use, and what a test that drives them in-process
    /// uses, so that both read the manifest's wiring, decorators included.
    public init(resolvingFrom container: Container) {
        self.init(
            store: { try container.resolve((any NoteStore).self) },
            clock: { try container.resolve((any NoteClock).self) },
            ids: { try container.resolve((any NoteIDGenerator).self) },
            logger: { try container.resolve(Logger.self) })
    }
}
