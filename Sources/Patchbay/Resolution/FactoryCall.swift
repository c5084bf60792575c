/// What a factory's closure is called with: the resolution it runs in
/// (a ``ResolutionContext``, which tracks the path for cycles and messages
/// and keeps `graph` instances), the binding that chose it, and the
/// resolve-time argument.
///
/// The references are strong `let`s, and a call is passed down as a
/// parameter: its fields are then borrowed from whoever made it, so reading
/// them costs nothing, where an unowned one is retained and released at
/// each read. Whoever makes a call holds what it refers to until it returns.
@usableFromInline
struct FactoryCall {
    /// The resolution this call runs in.
    @usableFromInline let context: ResolutionContext
    /// The binding whose factory runs.
    @usableFromInline let binding: CompiledBinding
    @usableFromInline let argument: ArgumentValue?

    /// The factory's dependency at `index` of `specs`, resolved from the
    /// injector that served the factory, with the same fallback. The
    /// argument goes on to every need, wrapped ones too: validation allowed a
    /// need whose factory takes one only when it takes this same type.
    ///
    /// A plain need is served by the binding activation linked it to (see
    /// ``CompiledBinding/linkedNeed(_:)``), the one the type table gives,
    /// found once; outside test overrides, which the table lookup honours.
    @usableFromInline
    func dependency<D>(_: D.Type, specs: [DependencySpec], index: Int) throws -> D {
        if !context.hasOverrides, let linked = binding.linkedNeed(index) {
            return try context.instanceValue(of: linked, as: D.self, argument: argument)
        }
        if let makeWrapper = specs[index].makeWrapper {
            return try makeWrapper(self) as! D  // an Optional, Lazy or array of a concrete type: a cheap cast
        }
        return try context.resolveValue(D.self, from: binding.injector, argument: argument)
    }

    /// A cursor over the factory's dependencies, in the order of its
    /// closure's parameters.
    @inlinable
    var dependencies: DependencyCursor<Self> { DependencyCursor(call: self) }

    /// The binding's decoded parameters; validation decoded them at activation.
    @usableFromInline
    func parameters<P>(as _: P.Type) -> P {
        binding.parameters as! P
    }

    /// The resolve-time argument; its type was checked before the factory ran.
    @usableFromInline
    func argument<A>(as _: A.Type) -> A { argument!.value as! A }
}

/// Hands out a factory's dependencies one at a time (a synchronous or an
/// `async` factory's: the call type says which), for a registration's
/// closure to pass straight into the user's:
///
///     var needs = call.dependencies
///     return try make(repeat needs.next((each Dependency).self, specs))
///
/// A struct with a mutating `next`, not a local function over a captured
/// counter: a captured `var` is checked for exclusive access at run time on
/// every dependency (a `swift_beginAccess` call). Passing each dependency straight to `make`, rather than
/// gathering a tuple first, spares a copy (a retain and a release) of each.
/// And `specs` is passed to each call, not kept in the cursor, which would
/// retain it even for a factory with no dependencies.
@usableFromInline
struct DependencyCursor<Call> {
    @usableFromInline let call: Call
    @usableFromInline var index = 0

    @inlinable
    init(call: Call) { self.call = call }
}

extension DependencyCursor where Call == FactoryCall {
    /// The next dependency, of type `D`, as `specs` (made at registration) says.
    @inlinable @inline(__always)
    mutating func next<D>(_: D.Type, _ specs: [DependencySpec]) throws -> D {
        defer { index += 1 }
        return try call.dependency(D.self, specs: specs, index: index)
    }
}

extension DependencyCursor where Call == AwaitingCall {
    /// The next need of an `async` factory, awaited.
    @usableFromInline
    mutating func next<D>(_: D.Type, _ specs: [DependencySpec]) async throws -> D {
        defer { index += 1 }
        return try await call.dependency(D.self, spec: specs[index])
    }
}

/// What a factory registered with ``FactoryCatalog/registerResolving(_:provides:lifetime:environments:file:line:make:)``
/// resolves its dependencies through, by hand.
///
/// It resolves from the injector that served the factory, with the same
/// fallback as any dependency, inside the same resolution (so cycles are
/// detected and `graph` instances shared).
public struct Resolver {
    let call: FactoryCall
    /// Ended when the factory returns: a resolver kept past it throws `resolver-expired`.
    let life = ResolverLife()

    /// The injector whose binding chose this factory.
    public var injector: InjectorName { call.binding.injector }

    /// Resolves a dependency.
    /// - Throws: ``ResolutionError`` when it cannot be resolved.
    public func resolve<T>(_ type: T.Type = T.self) throws -> T {
        try context(for: T.self).resolve(type, from: call.binding.injector)!
    }

    /// Resolves a dependency from a given injector (with fallback).
    public func resolve<T>(_ type: T.Type = T.self, from injector: InjectorName) throws -> T {
        try context(for: T.self).resolve(type, from: injector)!
    }

    /// Resolves a dependency, or `nil` when no injector binds it. Errors other
    /// than "not bound" are thrown, never hidden.
    public func resolveIfBound<T>(_ type: T.Type = T.self) throws -> T? {
        try context(for: T.self).resolve(type, from: call.binding.injector, ifBound: true)
    }

    /// The binding's parameters, decoded into the type the factory declared.
    public func parameters<P>(as type: P.Type) -> P? {
        call.binding.parameters as? P
    }

    /// The resolve-time argument, when one of this type was given.
    public func argument<A>(as type: A.Type) -> A? {
        call.argument?.value as? A
    }
}

/// `T?` as a factory parameter: resolved when bound, `nil` when not.
protocol OptionalDependency {
    static var dependencySpec: DependencySpec { get }
}

extension Optional: OptionalDependency {
    static var dependencySpec: DependencySpec {
        DependencySpec(
            key: TypeKey(Wrapped.self), kind: .optional,
            makeWrapper: { call -> Any in
                let value: Wrapped? = try call.context.resolve(
                    Wrapped.self, from: call.binding.injector, argument: call.argument, ifBound: true)
                return value as Any
            },
            makeAwaitingWrapper: { call -> Any in
                let value: Wrapped? = try await call.resolution.resolve(
                    Wrapped.self, from: call.binding.injector, path: AwaitedPath(call), ifBound: true)
                return value as Any
            }).wrappingACollection(of: Wrapped.self)
    }
}
