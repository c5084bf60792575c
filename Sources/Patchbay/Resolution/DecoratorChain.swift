// How the engine runs a binding's chain of decorators: where the factory's
// product is made for the binding (its definition's `build`, which every
// lifetime calls where it makes an instance), so each lifetime keeps the
// decorated instance as it kept the product, and stays written once. A
// binding with no decorators is compiled as before and pays nothing.

/// The chain of decorators of one binding, compiled.
enum DecoratorChain {
    /// One link: the decorator as a binding of the decorated type in the
    /// decorated binding's injector (so its needs are linked and resolved
    /// as a factory's are, and its frame names it), and how it wraps.
    struct Link {
        let binding: CompiledBinding
        let wrap: @Sendable (FactoryCall, AnyObject) throws -> AnyObject
        /// An `async` decorator's wrap (``DecoratorDefinition/wrapAwaiting``); nil for the others.
        let wrapAwaiting: (@Sendable (AwaitingCall, AnyObject) async throws -> AnyObject)?
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
            // What makes the wrap's cast of the box sound; the validator allowed nothing else.
            precondition(decorated.key == provided.key, "Patchbay: a decorator of another type in a chain")
            return Link(
                binding: CompiledBinding(
                    key: decorated.key, injector: validated.injector, definition: decorator.definition,
                    provided: decorated, parameters: link.parameters, storage: storage(offset), described: nil),
                wrap: decorator.wrap, wrapAwaiting: decorator.wrapAwaiting)
        }
    }

    /// The definition a decorated binding is compiled with: `inner`'s,
    /// whose product, converted to the bound type and kept where `inner`'s
    /// storage keeps it (shared with the undecorated bindings of the same
    /// factory, lifetime, injector and parameters: one instance, made once),
    /// each link wraps in turn, in the frame of its own binding (its needs
    /// resolve from the binding's injector, a failure names the decorator,
    /// and a need that comes back to the decorated binding is a cycle,
    /// since the binding is on the path while its chain is made). A link
    /// whose storage keeps instances keeps its own, but the last, which the
    /// decorated binding keeps. The box it returns is the bound type's, so
    /// the binding converts nothing.
    ///
    /// For a `weak` binding (`keptWeakly`), the last link's product must be a
    /// class instance: checked here, so a value the validator could not
    /// judge (a protocol) is refused naming the decorator that made it.
    static func definition(around inner: CompiledBinding, links: [Link], keptWeakly: Bool) -> FactoryDefinition {
        // A synchronous factory with a main-actor link is made on the main actor, whole; an
        // `async` factory or link makes the chain awaited (DecoratorChain+Awaiting.swift).
        let execution = FactoryExecution.ofChain(inner.definition.execution, links: links.map(\.binding.definition.execution))
        if execution == .async { return awaitedDefinition(around: inner, links: links, keptWeakly: keptWeakly) }
        return FactoryDefinition(decorating: inner.definition, execution: execution) { call in
            let context = call.context
            var box = inner.boxed(try context.box(of: inner, argument: call.argument, inside: call) { call in
                try inner.definition.build(call)
            })
            for (offset, link) in links.enumerated() {
                let wrapped = box
                let wrap = { (linkCall: FactoryCall) in try link.wrap(linkCall, wrapped) }
                do {
                    box = offset == links.count - 1 || link.binding.keepsNoInstance
                        ? try context.frame(link.binding, nil, wrap)
                        : try context.box(of: link.binding, argument: nil, make: wrap)
                } catch var error as ResolutionError
                    where error.reason == .factoryFailed && error.factory == link.binding.definition.name
                {
                    // The decorator's own error: named as a decorator of the binding's chain, not as a factory.
                    error.failedMaker = "decorator '\(link.binding.definition.name)' in the chain of \(inner.key.name)"
                    throw error
                }
            }
            if keptWeakly, let last = links.last { _ = try last.binding.requireClassInstance(box: box) }
            return box
        }
    }
}
