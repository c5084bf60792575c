/// Where and how a factory's closure runs, which decides where its product
/// can be resolved.
///
/// Recorded at registration from the closure's type, so the compiler has
/// already checked the closure (a `@MainActor` closure may call main-actor
/// initializers; an `async` one may `await`). Validation reads it to refuse
/// a binding that could not be made where it is needed, and `explain` shows it.
package enum FactoryExecution: String, Sendable, Codable, CaseIterable {
    /// A nonisolated, synchronous closure: resolvable anywhere.
    case synchronous
    /// A `@MainActor` closure: resolved on the main actor, or through
    /// `await` (``Container/resolve(awaiting:from:)``), which goes there.
    case mainActor = "main-actor"
    /// An `async` closure: resolved only through `await`
    /// (``Container/resolve(awaiting:from:)``) or as a direct or optional
    /// need of another `async` factory; never a collection's element.
    case async

    /// Whether a need served by a factory of kind `need` can be made for a
    /// factory of this kind. An `async` factory awaits a direct or optional
    /// need, which may then be anything; every other need (a `Lazy`, the
    /// elements of a collection, any need of a synchronous factory) is made
    /// synchronously where the factory runs: never an `async` one, and a
    /// main-actor one only for a factory on the main actor.
    func canUse(_ need: FactoryExecution, as kind: DependencySpec.Kind) -> Bool {
        let awaits = self == .async && (kind == .direct || kind == .optional)
        switch need {
        case .synchronous: return true
        case .async: return awaits
        case .mainActor: return awaits || self == .mainActor
        }
    }
}

extension FactoryExecution {
    /// Where a binding is made whose factory runs as `factory` and whose
    /// chain's links (``DecoratorChain``) run as `links`: awaited when any of
    /// them is `async` (an awaited chain, as an `async` factory's binding is);
    /// else on the main actor when any of them runs there; else anywhere.
    /// The one rule the validator (`needs-await`, `needs-main-actor`) and the
    /// engine (which way a decorated binding is compiled) both read.
    static func ofChain(_ factory: FactoryExecution, links: some Sequence<FactoryExecution>) -> FactoryExecution {
        var runs = factory
        for link in links where runs != .async && link != .synchronous {
            runs = link == .async ? .async : .mainActor
        }
        return runs
    }
}
