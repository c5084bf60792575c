// How the engine runs a binding's chain of decorators: where the factory's
// product is made for the binding (its definition's `buildInto` and
// `build`, which every lifetime calls where it makes an instance), so each
// lifetime keeps the decorated instance as it kept the product, and stays
// written once. A binding with no decorators is compiled as before and
// pays nothing.
//
// The chain is composed once, at activation, into one closure that makes
// the product into the caller's memory and has each link replace it there
// with its wrapper: one value moved from link to link, boxed at most once,
// at the end, for a lifetime that keeps it. A link that needs nothing is a
// plain call: no frame, nothing pushed on the path; the error it throws is
// mapped as its frame would have mapped it, on the throw path only.

/// The chain of decorators of one binding, compiled.
enum DecoratorChain {
    /// One link: the decorator as a binding of the decorated type in the
    /// decorated binding's injector (so its needs are linked and resolved
    /// as a factory's are, and a failure names it), and how it wraps.
    struct Link {
        let binding: CompiledBinding
        let wrap: @Sendable (FactoryCall, ProductMemory) throws -> Void
        /// The app's closure, when it reads nothing but the instance (``DecoratorDefinition/alone``).
        let alone: (any Sendable)?
        /// An `async` decorator's wrap (``DecoratorDefinition/wrapAwaiting``); nil for the others.
        let wrapAwaiting: (@Sendable (AwaitingCall, AnyObject) async throws -> AnyObject)?
        /// ``wrap`` from box to box, for an awaited chain (``DecoratorDefinition/wrapBox``).
        let wrapBox: @Sendable (FactoryCall, AnyObject) throws -> AnyObject

        /// How the link runs at each request.
        enum Run {
            /// A call, in no frame of its own: it needs nothing, so nothing
            /// it does can come back to the decorated binding, and its own
            /// error is all it can throw.
            case plain
            /// In a frame of its own binding: its needs resolve from the
            /// binding's injector, and one that comes back to the decorated
            /// binding is a cycle, since the binding is on the path while
            /// its chain is made. A main-actor link too, whose refusal off
            /// the main actor then names it on the path as a factory's does.
            case framed
            /// Through its storage, which keeps what it made (a singleton's
            /// links, so lifecycle finds each one, see ``Activation/chains``).
            case kept
        }

        /// Whether the chain calls the app's closure itself: it reads nothing but the instance.
        var callsAlone: Bool { alone != nil && run == .plain }

        var run: Run {
            if !binding.keepsNoInstance { return .kept }
            let needs = binding.definition.dependencies ?? []
            return needs.isEmpty && binding.definition.execution != .mainActor ? .plain : .framed
        }
    }

    /// The links of `validated`'s chain, each a binding with the storage
    /// `storage` gives for its offset: a singleton's keeps each link's
    /// instance, so lifecycle finds every one (see ``Activation/chains``);
    /// any other keeps none, and the chain lives as long as the decorated
    /// binding's instance.
    static func links(
        of validated: BindingDescription, serving provided: ProvidedType, catalog: FactoryCatalog,
        storage: (Int) -> any LifetimeStorage
    ) -> [Link] {
        validated.decorators.enumerated().map { offset, link in
            // The index numbers a live catalog's decorators after its factories.
            let decorator = catalog.decorators[link.place - catalog.definitions.count]
            let decorated = decorator.definition.provides[0]
            // What makes each link's wrap of the memory sound; the validator allowed nothing else.
            precondition(decorated.key == provided.key, "Patchbay: a decorator of another type in a chain")
            return Link(
                binding: CompiledBinding(
                    injector: validated.injector, definition: decorator.definition,
                    provided: decorated, parameters: link.parameters, storage: storage(offset), described: nil),
                wrap: decorator.wrap, alone: decorator.alone, wrapAwaiting: decorator.wrapAwaiting,
                wrapBox: decorator.wrapBox)
        }
    }

    /// The definition a decorated binding is compiled with: `inner`'s,
    /// whose product, converted to the bound type and kept where `inner`'s
    /// storage keeps it (shared with the undecorated bindings of the same
    /// factory, lifetime, injector and parameters: one instance, made once),
    /// each link wraps in turn, as its ``Link/Run`` says, in the decorated
    /// binding's frame. A link whose storage keeps instances keeps its own,
    /// but the last, which the decorated binding keeps. The product is the
    /// bound type's, so the binding converts nothing: made into memory for a
    /// binding that keeps nothing (a transient is then built as an
    /// undecorated one is, with no box), boxed for the others.
    ///
    /// For a `weak` binding (`keptWeakly`), the last link's product must be a
    /// class instance: checked here, so a value the validator could not
    /// judge (a protocol) is refused naming the decorator that made it.
    static func definition(around inner: CompiledBinding, links: [Link], keptWeakly: Bool) -> FactoryDefinition {
        // A synchronous factory with a main-actor link is made on the main actor, whole; an
        // `async` factory or link makes the chain awaited (DecoratorChain+Awaiting.swift).
        let execution = FactoryExecution.ofChain(inner.definition.execution, links: links.map(\.binding.definition.execution))
        if execution == .async { return awaitedDefinition(around: inner, links: links, keptWeakly: keptWeakly) }
        // The bound type, opened from the product's: every link's type (see ``links(of:serving:catalog:storage:)``).
        return definition(of: inner.provided.type, around: inner, links: links, keptWeakly: keptWeakly, execution: execution)
    }

    private static func definition<T>(
        of _: T.Type, around inner: CompiledBinding, links: [Link], keptWeakly: Bool, execution: FactoryExecution
    ) -> FactoryDefinition {
        // A loop, not `reduce`: a closure passed through a generic function
        // comes back reabstracted, a thunk more at each link of every request.
        var chain = product(of: inner)
        var rest = links[...]
        while let link = rest.popFirst() {
            // Two links that read nothing but the instance, one closure: the
            // value goes from one to the other as it is, not through memory.
            if let next = rest.first, link.callsAlone, next.callsAlone {
                rest.removeFirst()
                chain = chained(link, next, after: chain, as: T.self)
            } else {
                chain = chained(link, after: chain, as: T.self)
            }
        }
        let make = chain
        return FactoryDefinition(decorating: inner.definition, execution: execution, buildInto: make) { call in
            let box = Instance<T>(try ProductMemory.withHeap(for: T.self) { memory in
                try make(call, memory)
                return true
            }!)
            if keptWeakly, let last = links.last { _ = try last.binding.requireClassInstance(box: box) }
            return box
        }
    }

    /// Makes `inner`'s product into memory for the bound type, in the
    /// decorated binding's call (whose frame names `inner`'s factory): built
    /// there when `inner` keeps nothing and builds into memory, as an
    /// undecorated transient is; else from where `inner`'s storage keeps it.
    private static func product(of inner: CompiledBinding) -> @Sendable (FactoryCall, ProductMemory) throws -> Void {
        if inner.isBuiltEachTime { return inner.buildInto }
        return { call, memory in
            inner.copy(try call.context.box(of: inner, argument: call.argument, inside: call) { call in
                try inner.definition.build(call)
            }, into: memory)
        }
    }

    /// `made`, then two links whose closures read nothing but the instance
    /// (``Link/callsAlone``), `first` wrapping what `made` made and `second`
    /// wrapping that, in the same memory.
    private static func chained<T>(
        _ first: Link, _ second: Link, after made: @escaping @Sendable (FactoryCall, ProductMemory) throws -> Void,
        as _: T.Type
    ) -> @Sendable (FactoryCall, ProductMemory) throws -> Void {
        let firstBinding = first.binding, secondBinding = second.binding
        let firstMake = first.alone as! @Sendable (consuming T) throws -> T
        let secondMake = second.alone as! @Sendable (consuming T) throws -> T
        return { call, memory in
            try made(call, memory)
            let once: T
            do {
                once = try firstMake(memory.move(as: T.self))
            } catch {
                throw call.context.failure(error, makingOffPath: firstBinding)
            }
            do {
                // Handed over, not copied: a copy of a class instance is a retain and a release.
                memory.initialize(to: try secondMake(consume once))
            } catch {
                throw call.context.failure(error, makingOffPath: secondBinding)
            }
        }
    }

    /// `made`, then `link` wrapping what it made, in the same memory.
    private static func chained<T>(
        _ link: Link, after made: @escaping @Sendable (FactoryCall, ProductMemory) throws -> Void, as _: T.Type
    ) -> @Sendable (FactoryCall, ProductMemory) throws -> Void {
        let binding = link.binding, wrap = link.wrap
        switch link.run {
        case .plain:
            if let alone = link.alone {
                // The app's closure, called here with no layer between: cast once, now, to what it was registered as.
                let make = alone as! @Sendable (consuming T) throws -> T
                return { call, memory in
                    try made(call, memory)
                    do {
                        memory.initialize(to: try make(memory.move(as: T.self)))
                    } catch {
                        throw call.context.failure(error, makingOffPath: binding)
                    }
                }
            }
            return { call, memory in
                try made(call, memory)
                do {
                    try wrap(FactoryCall(context: call.context, binding: binding, argument: nil), memory)
                } catch {
                    throw call.context.failure(error, makingOffPath: binding)
                }
            }
        case .framed:
            return { call, memory in
                try made(call, memory)
                try call.context.frame(binding, nil) { call in try wrap(call, memory) }
            }
        case .kept:
            return { call, memory in
                try made(call, memory)
                var wrapped = false
                let box = try call.context.box(of: binding, argument: nil) { call in
                    try wrap(call, memory)
                    wrapped = true
                    return Instance<T>(memory.move(as: T.self))
                }
                // Kept already: the instance made now is not the one the link wraps.
                if !wrapped { _ = memory.move(as: T.self) }
                AnyInstance.of(box).copyValue(into: memory)
            }
        }
    }
}
