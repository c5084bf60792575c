/// What a factory's closure is called with: the resolution it runs in, the
/// binding that chose it, and the resolve-time argument.
struct FactoryCall {
    let context: ResolutionContext
    let binding: CompiledBinding
    let argument: Any?

    /// One of the factory's dependencies, resolved from the injector that
    /// served the factory, with the same fallback.
    @inline(__always)
    func dependency<D>(_: D.Type, spec: DependencySpec) throws -> D {
        if let makeWrapper = spec.makeWrapper {
            return try makeWrapper(self) as! D  // an Optional or Lazy of a concrete type: a cheap cast
        }
        return try context.resolve(D.self, from: binding.injector)!
    }

    /// The factory's dependencies, in the order of its closure's parameters,
    /// each resolved as its ``DependencySpec`` (made at registration) says.
    func dependencies<each D>(_ types: repeat (each D).Type, specs: [DependencySpec]) throws -> (repeat each D) {
        var index = 0
        func next<X>(_: X.Type) throws -> X {
            defer { index += 1 }
            return try dependency(X.self, spec: specs[index])
        }
        return (repeat try next((each D).self))
    }

    /// The binding's decoded parameters; validation decoded them at activation.
    func parameters<P>(as _: P.Type) -> P {
        binding.parameters as! P
    }

    /// The resolve-time argument; its type was checked before the factory ran.
    func argument<A>(as _: A.Type) -> A {
        argument as! A
    }
}

/// What a factory registered with ``FactoryCatalog/registerResolving(_:provides:lifetime:file:line:make:)``
/// resolves its dependencies through, by hand.
///
/// It resolves from the injector that served the factory, with the same
/// fallback as any dependency, inside the same resolution (so cycles are
/// detected and `graph` instances shared).
public struct Resolver {
    let call: FactoryCall

    /// The injector whose binding chose this factory.
    public var injector: InjectorName { call.binding.injector }

    /// Resolves a dependency.
    /// - Throws: ``ResolutionError`` when it cannot be resolved.
    public func resolve<T>(_ type: T.Type = T.self) throws -> T {
        try call.context.resolve(type, from: call.binding.injector)!
    }

    /// Resolves a dependency from a given injector (with fallback).
    public func resolve<T>(_ type: T.Type = T.self, from injector: InjectorName) throws -> T {
        try call.context.resolve(type, from: injector)!
    }

    /// Resolves a dependency, or `nil` when no injector binds it. Errors other
    /// than "not bound" are thrown, never hidden.
    public func resolveIfBound<T>(_ type: T.Type = T.self) throws -> T? {
        try call.context.resolve(type, from: call.binding.injector, ifBound: true)
    }

    /// The binding's parameters, decoded into the type the factory declared.
    public func parameters<P>(as type: P.Type) -> P? {
        call.binding.parameters as? P
    }

    /// The resolve-time argument, when one of this type was given.
    public func argument<A>(as type: A.Type) -> A? {
        call.argument as? A
    }
}

/// `T?` as a factory parameter: resolved when bound, `nil` when not.
protocol OptionalDependency {
    static var dependencySpec: DependencySpec { get }
}

extension Optional: OptionalDependency {
    static var dependencySpec: DependencySpec {
        DependencySpec(key: TypeKey(Wrapped.self), kind: .optional) { call -> Any in
            let value: Wrapped? = try call.context.resolve(Wrapped.self, from: call.binding.injector, ifBound: true)
            return value as Any
        }
    }
}
