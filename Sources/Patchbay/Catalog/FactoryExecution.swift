/// Where and how a factory's closure runs, which decides where its product
/// can be resolved.
///
/// Recorded at registration from the closure's type, so the compiler has
/// already checked the closure (a `@MainActor` closure may call main-actor
/// initializers; an `async` one may `await`). Validation reads it to refuse
/// a binding that could not be made where it is needed, and `explain` shows it.
package enum FactoryExecution: String, Sendable, Codable {
    /// A nonisolated, synchronous closure: resolvable anywhere.
    case synchronous
    /// A `@MainActor` closure: resolved on the main actor, or through
    /// `await` (``Container/resolve(awaiting:from:)``), which goes there.
    case mainActor = "main-actor"
    /// An `async` closure: resolved only through `await`
    /// (``Container/resolve(awaiting:from:)``) or as a direct need of another
    /// `async` factory.
    case async

    /// Whether a need served by a factory of kind `need` can be made for a
    /// factory of this kind: anything for an `async` factory (which awaits
    /// its needs); for a synchronous one, no `async` need; and a main-actor
    /// need only for a factory that runs on the main actor itself.
    func canUse(_ need: FactoryExecution, as kind: DependencySpec.Kind) -> Bool {
        switch (self, need) {
        case (_, .synchronous): true
        // Awaited as it is, or as `T?`; a `Lazy<T>` is read synchronously, later.
        case (.async, .async): kind == .direct || kind == .optional
        case (.async, .mainActor), (.mainActor, .mainActor): true
        case (.synchronous, _), (.mainActor, .async): false
        }
    }
}
