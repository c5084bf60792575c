// The two errors the engine makes itself, and the frame of a factory's run
// (``FramePath``), each written once: the synchronous and the awaited
// drivers, the way into a resolution
// (``Container/withResolution(on:activation:scope:graph:making:_:)``) and an
// override's failure all call these.

extension ResolutionError {
    /// `error`, thrown while making `type` at the end of `path` (by
    /// `binding`'s factory, or by `factory` when no binding made it: an
    /// override), as the engine reports it: a ``ResolutionError`` as it is,
    /// any other error wrapped as `factory-failed`. When `binding` is a link
    /// of a decorated binding's chain, the error names the decorator as such:
    /// the binding knows what it runs, so an error of one of its needs,
    /// already wrapped further in, keeps naming what threw it.
    static func factoryFailed(
        _ error: any Error, making type: String, by binding: CompiledBinding?, factory: String? = nil, path: [String]
    ) -> ResolutionError {
        if let error = error as? ResolutionError { return error }
        var failure = ResolutionError(
            .factoryFailed, type: type, injectors: binding.map { [$0.injector] } ?? [], path: path,
            factory: binding?.definition.name ?? factory, underlying: error,
            detail: binding?.described.map { failurePlace(of: $0.binding) })
        failure.failedMaker = binding?.decoratorLabel
        return failure
    }

    /// Where a failed factory's binding stands in its manifest, and which of
    /// its parameters came from the environment, by the variables' names
    /// (never their values, which may be secrets): what the one who reads the
    /// failure can check first.
    private static func failurePlace(of binding: Binding) -> String {
        var text = ""
        if let origin = binding.origin {
            let position = origin.position()
            text += "its binding is at \(origin.file):\(position.line):\(position.column)"
        }
        let taken = binding.interpolation.fromEnvironment.sorted { $0.key < $1.key }
        if !taken.isEmpty {
            text += (text.isEmpty ? "" : "; ") + "parameters from the environment: "
                + taken.map { "\($0.key.isEmpty ? "parameters" : String($0.key.dropFirst())) (${\($0.value.joined(separator: "}, ${"))})" }
                    .joined(separator: ", ")
        }
        return text
    }

    /// The one runtime cycle check, for the synchronous and the awaited
    /// engine alike (the validator's ``StronglyConnectedComponents`` is the
    /// static one): a request for `binding` whose making is already under way
    /// in `outer` (the bindings being made, outermost first) is a cycle. The
    /// path goes on with `binding`, and the loop runs from the first binding
    /// of `outer` that shares its instances (one storage counts as one) back
    /// to it. Nil when none does.
    static func cycle(
        at binding: CompiledBinding, after outer: some BidirectionalCollection<CompiledBinding>
    ) -> ResolutionError? {
        guard let start = outer.firstIndex(where: { $0.sharesInstance(with: binding) }) else { return nil }
        return cycle(
            at: binding, type: binding.key.name, path: outer.map(\.key.name) + [binding.key.name],
            loop: outer[start...], closedBy: binding.key.name)
    }

    /// The `dependency-cycle` of a request for `binding` (of `type`, at the
    /// end of `path`) whose loop runs through `loop`, in order, and back to
    /// `closing`: every cycle the engine finds, on a resolution's own path
    /// or through the makings other threads and tasks wait for
    /// (``MakingWaits``), is drawn and fixed here, so each says the same. A
    /// link of a chain on the loop is drawn as the decorator it runs, as the
    /// check draws it (`Store -> (decorator 'timing') -> Store`), and the fix
    /// names every such link, in the order of the loop.
    static func cycle(
        at binding: CompiledBinding?, type: String, path: [String], loop: some Collection<CompiledBinding>,
        closedBy closing: String
    ) -> ResolutionError {
        var error = ResolutionError(
            .dependencyCycle, type: type, injectors: binding.map { [$0.injector] } ?? [], path: path,
            factory: binding?.definition.name,
            detail: (loop.map { $0.definition.isDecorator ? "(decorator '\($0.definition.name)')" : $0.key.name }
                + [closing]).joined(separator: " -> "))
        error.loopLinks = loop.compactMap(\.decoratorLabel)
        return error
    }
}

/// The bindings whose factories a resolution is running, as the frame of
/// one factory's run sees them, for both drivers: the synchronous one's
/// stack in the thread's context (``BindingPath``) and the awaited one's
/// chain of calls a task carries (``AwaitedPath``). A frame enters (the
/// cycle check), runs the factory with its binding innermost, and wraps a
/// failure with the path: those rules are written here once; each driver
/// only pushes and pops its own kind of path, since Swift cannot run one
/// body both synchronously and awaited.
protocol FramePath {
    /// Whether a binding on the path yields the same instance as `binding`
    /// (it, or one of its storage): a request for it now is a cycle.
    func holdsInstance(of binding: CompiledBinding) -> Bool
    /// The bindings, outermost first.
    var all: [CompiledBinding] { get }
}

extension FramePath {
    /// The requested types' names along the path, outermost first.
    var names: [String] { all.map(\.key.name) }

    /// A frame's entry for `binding`: a cycle when its making is under way on the path.
    @inline(__always)
    func enter(_ binding: CompiledBinding) throws(ResolutionError) {
        if holdsInstance(of: binding) { throw ResolutionError.cycle(at: binding, after: all)! }
    }

    /// A frame's failure: `error`, thrown by `binding`'s factory (innermost
    /// on this path), as ``ResolutionError/factoryFailed(_:making:by:factory:path:)`` wraps it.
    /// `pushed` is false for a closure run in no frame of its own (a
    /// decorator that needs nothing, see ``DecoratorChain``): the path then
    /// ends with `binding` all the same, as its frame would have ended it.
    func failure(_ error: any Error, making binding: CompiledBinding, pushed: Bool = true) -> ResolutionError {
        ResolutionError.factoryFailed(
            error, making: binding.key.name, by: binding, path: pushed ? names : names + [binding.key.name])
    }
}

extension CompiledBinding {
    /// How a message names this binding when it is a link of a decorated
    /// binding's chain (`decorator 'timing-store' in the chain of NoteStore`:
    /// a link binds the type it decorates); nil for a factory's binding,
    /// which messages name as the factory.
    var decoratorLabel: String? {
        definition.isDecorator ? "decorator '\(definition.name)' in the chain of \(key.name)" : nil
    }
}
