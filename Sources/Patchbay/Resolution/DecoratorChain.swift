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
    }

    /// The links of `validated`'s chain, each a binding that keeps no
    /// instance: the chain lives as long as the decorated binding's instance.
    static func links(
        of validated: BindingDescription, serving provided: ProvidedType, catalog: FactoryCatalog
    ) -> [Link] {
        validated.decorators.map { link in
            // The index numbers a live catalog's decorators after its factories.
            let decorator = catalog.decorators[link.place - catalog.definitions.count]
            let decorated = decorator.definition.provides[0]
            // What makes the wrap's cast of the box sound; the validator allowed nothing else.
            precondition(decorated.key == provided.key, "Patchbay: a decorator of another type in a chain")
            return Link(
                binding: CompiledBinding(
                    key: decorated.key, injector: validated.injector, definition: decorator.definition,
                    provided: decorated, parameters: link.parameters, storage: TransientLifetime(), described: nil),
                wrap: decorator.wrap)
        }
    }

    /// The definition a decorated binding is compiled with: `inner`'s,
    /// whose product, converted to the bound type, each link wraps in turn,
    /// in the frame of its own binding (its needs resolve from the
    /// binding's injector, a failure names the decorator, and a need that
    /// comes back to the decorated binding is a cycle, since the binding is
    /// on the path while its chain is made). The box it returns is the
    /// bound type's, so the binding converts nothing.
    ///
    /// For a `weak` binding (`keptWeakly`), the last link's product must be a
    /// class instance: checked here, so a value the validator could not
    /// judge (a protocol) is refused naming the decorator that made it.
    static func definition(
        wrapping inner: FactoryDefinition, serving provided: ProvidedType, links: [Link], keptWeakly: Bool
    ) -> FactoryDefinition {
        let convert = provided.convert
        // A synchronous factory with a main-actor link is made on the main actor, whole.
        let onMainActor = links.contains { $0.binding.definition.execution == .mainActor }
        let execution = inner.execution == .synchronous && onMainActor ? .mainActor : inner.execution
        return FactoryDefinition(decorating: inner, execution: execution) { call in
            var box = try inner.build(call)
            if let convert { box = convert(box) }
            for link in links {
                do {
                    box = try call.context.frame(link.binding, nil) { linkCall in try link.wrap(linkCall, box) }
                } catch var error as ResolutionError
                    where error.reason == .factoryFailed && error.factory == link.binding.definition.name
                {
                    // The decorator's own error: named as a decorator of the binding's chain, not as a factory.
                    error.failedMaker = "decorator '\(link.binding.definition.name)' in the chain of \(provided.key.name)"
                    throw error
                }
            }
            if keptWeakly, let last = links.last { _ = try last.binding.requireClassInstance(box: box) }
            return box
        }
    }
}
