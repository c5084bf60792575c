// How the engine makes a chain that must be awaited: around an `async`
// factory, or with an `async` link (``FactoryExecution/ofChain(_:links:)``).
// Such a decorated binding is compiled as an `async` factory's binding is:
// awaited only, its singleton made once by one task while the others await
// it (AwaitingResolution.swift); its synchronous `build` throws `needs-await`.
// Its awaited builder makes the chain in order, each step where it runs: an
// `async` one awaited in the resolving task, a synchronous one as the
// synchronous engine makes it (a resolution of its own, on this thread), a
// main-actor one so, on the main actor. Each step keeps what the
// synchronous chain (DecoratorChain.swift) keeps, and fails as it fails: a
// link's error names the decorator in the binding's chain, and its path goes
// on from the decorated binding's.

extension DecoratorChain {
    /// The definition of a decorated binding whose chain must be awaited
    /// (see ``definition(around:links:keptWeakly:)``): only ``AwaitedChain`` makes it.
    static func awaitedDefinition(around inner: CompiledBinding, links: [Link], keptWeakly: Bool) -> FactoryDefinition {
        // What a synchronous request is told must be awaited: the factory, else the first `async` link.
        let awaited = inner.definition.execution == .async ? nil
            : links.first { $0.wrapAwaiting != nil }?.binding.decoratorLabel
        return FactoryDefinition(
            decorating: inner.definition, execution: .async,
            buildAwaiting: .withNeeds(AwaitedChain(inner: inner, links: links, keptWeakly: keptWeakly))
        ) { call in
            var error = ResolutionError.cannotRunSynchronously(call, .needsAwait)
            error.failedMaker = awaited
            throw error
        }
    }
}

/// Makes an awaited chain: the product of `inner` (kept where `inner`'s
/// storage keeps it, shared with the undecorated bindings of its factory),
/// then each link around it, in the frame of the decorated binding's
/// ``AwaitingCall``, which ``AwaitingResolution`` entered.
struct AwaitedChain: AwaitingBuilder {
    let inner: CompiledBinding
    let links: [DecoratorChain.Link]
    /// Whether the binding is `weak`: the last link must then make a class instance.
    let keptWeakly: Bool

    func build(_ call: AwaitingCall) async throws -> AnyObject {
        // An awaited resolve passes no resolve-time argument: a factory that
        // takes one is refused as the synchronous engine refuses a resolve without it.
        if let expected = inner.definition.argument {
            throw ResolutionError(
                .argumentMissing, type: call.binding.key.name, injectors: [call.binding.injector],
                path: AwaitedPath(call).names, factory: inner.definition.name, detail: expected.name)
        }
        let resolution = call.resolution
        var box = inner.boxed(try await resolution.product(of: inner, inside: call))
        for (offset, link) in links.enumerated() {
            // As in the synchronous chain: a link whose storage keeps instances
            // keeps its own, but the last, which the decorated binding keeps.
            let keeps = offset < links.count - 1 && !link.binding.keepsNoInstance
            // A link's own failure names it as a decorator of the chain (``ResolutionError/factoryFailed(_:making:by:factory:path:)``).
            box = try await resolution.wrap(box, by: link, keeping: keeps, inside: call)
        }
        if keptWeakly, let last = links.last { _ = try last.binding.requireClassInstance(box: box) }
        return box
    }
}

extension AwaitingResolution {
    /// The product of a chain's `inner` binding, made in the decorated
    /// binding's frame (`call`, whose binding has `inner`'s factory, needs,
    /// injector and parameters), as the synchronous chain makes it in its.
    fileprivate func product(of inner: CompiledBinding, inside call: AwaitingCall) async throws(ResolutionError) -> AnyObject {
        let execution = inner.definition.execution
        guard execution == .async else {
            // Made by the synchronous engine, in a frame of the decorated binding as its own chain's is.
            return try await step(execution, after: call.outer) { context in
                try context.frame(call.binding, nil) { frame in
                    try context.box(of: inner, argument: nil, inside: frame) { try inner.definition.build($0) }
                }
            }
        }
        let path = AwaitedPath(call)
        let place = inner.keepsNoInstance ? .nowhere : try inner.storage.place(
            of: inner, scope: Scope.current, overrides: overrides, path: path.names + [inner.key.name])
        do {
            switch place {
            case .cell(let cell):
                return try await cell.value(of: inner, at: path.all) { try await inner.definition.makeAwaited(call) }
            case .graph(let storage):
                if let made = graphs!.withLock({ $0.instance(of: storage) }) { return made }
                let box = try await inner.definition.makeAwaited(call)
                graphs!.withLock { $0.keep(box, of: storage) }
                return box
            case .nowhere:
                return try await inner.definition.makeAwaited(call)
            }
        } catch {
            throw path.failure(error, making: call.binding)
        }
    }

    /// `box` wrapped by `link`, in a frame of the link's own binding inside
    /// the decorated binding's (`call`), kept in the link's storage when
    /// `keeping` (a singleton's links but the last, for lifecycle).
    fileprivate func wrap(
        _ box: AnyObject, by link: DecoratorChain.Link, keeping: Bool, inside call: AwaitingCall
    ) async throws(ResolutionError) -> AnyObject {
        guard let wrapAwaiting = link.wrapAwaiting else {
            let wrapped = Instance<AnyObject>(box)  // carried to the main actor for a main-actor link
            return try await step(link.binding.definition.execution, after: call) { context in
                let wrap = { (linkCall: FactoryCall) in try link.wrapBox(linkCall, wrapped.value) }
                return keeping
                    ? try context.box(of: link.binding, argument: nil, make: wrap)
                    : try context.frame(link.binding, nil, wrap)
            }
        }
        let path = AwaitedPath(call)
        let place = keeping ? try link.binding.storage.place(
            of: link.binding, scope: Scope.current, overrides: overrides, path: path.names + [link.binding.key.name])
            : .nowhere
        if case .cell(let cell) = place, let made = cell.current { return made }
        try path.enter(link.binding)
        let linkCall = AwaitingCall(resolution: self, binding: link.binding, outer: call)
        let run = { try await AwaitingCall.$running.withValue(linkCall) { try await wrapAwaiting(linkCall, box) } }
        do {
            if case .cell(let cell) = place { return try await cell.value(of: link.binding, at: AwaitedPath(linkCall).all, awaiting: run) }
            return try await run()
        } catch {
            throw AwaitedPath(linkCall).failure(error, making: link.binding)
        }
    }

    /// What `body` makes in a synchronous resolution of this one's
    /// activation, as the synchronous engine makes it (its frames, its
    /// `graph` instances, each need resolved synchronously, as validation
    /// checked a synchronous or main-actor factory's or decorator's): here,
    /// or on the main actor for a main-actor `execution`. A failure's path
    /// goes on from `outer`'s.
    private func step(
        _ execution: FactoryExecution, after outer: AwaitingCall?,
        _ body: @escaping @Sendable (ResolutionContext) throws -> AnyObject
    ) async throws(ResolutionError) -> AnyObject {
        guard execution == .mainActor else { return try synchronously(after: outer, body) }
        let made = await MainActor.run { () -> Instance<Result<AnyObject, ResolutionError>> in
            Instance(Result { () throws(ResolutionError) in try self.synchronously(after: outer, body) })
        }
        return try made.value.get()
    }

    private func synchronously(
        after outer: AwaitingCall?, _ body: (ResolutionContext) throws -> AnyObject
    ) throws(ResolutionError) -> AnyObject {
        do {
            return try container.withResolution(
                on: ThreadResolutionState.current, activation: activation, scope: nil, graph: nil, making: AnyObject.self
            ) { context, _ in try body(context) }
        } catch {
            throw error.following(AwaitedPath(outer).names)
        }
    }
}
