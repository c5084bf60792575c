/// What a factory's closure is called with: the resolution it runs in, the
/// binding that chose it, and the resolve-time argument.
///
/// A call runs in one of two ways. Usually in a ``ResolutionContext``, which
/// tracks the path (for cycles and messages) and `graph` instances. Or
/// *light*: a transient whose whole dependency tree is known and has no
/// `graph` binding and no factory that resolves by hand (see
/// ``CompiledBinding/isLight``) is built with no context at all, its plain
/// dependencies read from the fast table. Static validation has ruled out
/// cycles among such factories, so there is nothing to track; an error gets
/// its path as it travels back up through the calls.
///
/// Every reference here is unowned: whoever makes a call keeps what it
/// refers to alive until the call returns, and a call with no owned
/// references is plain data, which costs nothing to copy or destroy.
@usableFromInline
struct FactoryCall {
    /// The resolution this call runs in; nil for a light call.
    @usableFromInline unowned(unsafe) let full: ResolutionContext?
    /// The fast table and container of a light call; nil otherwise.
    @usableFromInline let light: LightResolution?
    /// The binding whose factory runs.
    @usableFromInline unowned(unsafe) let binding: CompiledBinding
    @usableFromInline unowned(unsafe) let argument: ArgumentValue?

    init(context: ResolutionContext, binding: CompiledBinding, argument: ArgumentValue?) {
        self.full = context
        self.light = nil
        self.binding = binding
        self.argument = argument
    }

    @inlinable
    init(light: LightResolution, binding: CompiledBinding) {
        self.full = nil
        self.light = light
        self.binding = binding
        self.argument = nil
    }

    /// The resolution this call runs in. Only light calls have none, and
    /// their factories never ask: they take no wrapped needs and do not resolve by hand.
    var context: ResolutionContext { full! }

    /// One of the factory's dependencies, resolved from the injector that
    /// served the factory, with the same fallback.
    @inlinable @inline(__always)
    func dependency<D>(_: D.Type, specs: [DependencySpec], index: Int) throws -> D {
        if let light { return try light.resolve(D.self) }
        return try fullDependency(D.self, spec: specs[index])
    }

    @usableFromInline
    func fullDependency<D>(_: D.Type, spec: DependencySpec) throws -> D {
        if let makeWrapper = spec.makeWrapper {
            return try makeWrapper(self) as! D  // an Optional or Lazy of a concrete type: a cheap cast
        }
        // The argument goes on to the dependency: validation allowed a
        // dependency that takes one only when it takes this same type.
        return try context.resolve(D.self, from: binding.injector, argument: argument)!
    }

    /// A cursor over the factory's dependencies, in the order of its
    /// closure's parameters.
    @inlinable
    var dependencies: DependencyCursor { DependencyCursor(call: self) }

    /// The binding's decoded parameters; validation decoded them at activation.
    @usableFromInline
    func parameters<P>(as _: P.Type) -> P {
        binding.parameters as! P
    }

    /// The resolve-time argument; its type was checked before the factory ran.
    @usableFromInline
    func argument<A>(as _: A.Type) -> A {
        argument!.value as! A
    }
}

/// Hands out a factory's dependencies one at a time, for a registration's
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
struct DependencyCursor {
    @usableFromInline let call: FactoryCall
    @usableFromInline var index = 0

    @inlinable
    init(call: FactoryCall) {
        self.call = call
    }

    /// The next dependency, of type `D`, as `specs` (made at registration) says.
    @inlinable @inline(__always)
    mutating func next<D>(_: D.Type, _ specs: [DependencySpec]) throws -> D {
        defer { index += 1 }
        return try call.dependency(D.self, specs: specs, index: index)
    }
}

/// A resolution with no context: what a light call reads its dependencies
/// through. Every reference here is kept alive by the resolve that made it
/// (the container by its caller, the activation by the thread's cache, which
/// parks rather than releases it while a light resolution runs).
@usableFromInline
struct LightResolution {
    @usableFromInline let table: FastTable
    @usableFromInline unowned(unsafe) let container: Container
    @usableFromInline let activation: UnsafeMutableRawPointer
    @usableFromInline let cache: UnsafeMutablePointer<ResolveCache>

    @inlinable
    init(
        table: FastTable, container: Container, activation: UnsafeMutableRawPointer,
        cache: UnsafeMutablePointer<ResolveCache>
    ) {
        self.table = table
        self.container = container
        self.activation = activation
        self.cache = cache
    }

    /// Resolves `T` from `primary`: a made singleton or a light transient
    /// from the table, else through a resolution of its own (same activation).
    @inlinable @inline(__always)
    func resolve<T>(_: T.Type) throws(ResolutionError) -> T {
        if let slot = table.slot(of: ObjectIdentifier(T.self)) {
            let binding = slot.pointee.binding.unsafelyUnwrapped
            if let ready = binding._withUnsafeGuaranteedRef({ $0.ready }),
                let box = _stdlib_atomicAcquiringLoadARCRef(object: ready)
            {
                return unboxed(box, as: T.self)
            }
            if binding._withUnsafeGuaranteedRef({ $0.isLight }) {
                return try build(T.self, binding)
            }
        }
        return try container.resolve(T.self, activation: Unmanaged<Activation>.fromOpaque(activation))
    }

    /// Runs a light binding's factory straight into the result, with the
    /// binding on the light path while it runs.
    ///
    /// The product is made in the thread's scratch memory, not in a
    /// `withUnsafeTemporaryAllocation` buffer: this runs as unspecialized
    /// generic code for a factory's dependencies (a parameter pack is walked
    /// at run time, element by element), where that function would look up
    /// the metadata of a `Result<T, Error>` on every call.
    @inlinable @inline(__always)
    func build<T>(_: T.Type, _ binding: Unmanaged<CompiledBinding>) throws(ResolutionError) -> T {
        let depth = cache.pointee.lightDepth
        let used = cache.pointee.scratchUsed
        let size = (MemoryLayout<T>.size + 15) & ~15
        guard depth < ResolveCache.lightPathCapacity, used + size <= ResolveCache.scratchCapacity,
            MemoryLayout<T>.alignment <= 16
        else {
            // Deeper than the path or scratch holds (or over-aligned): built in a context.
            return try container.resolve(T.self, activation: Unmanaged<Activation>.fromOpaque(activation))
        }
        let memory = cache.pointee.scratch + used
        cache.pointee.scratchUsed = used + size
        cache.pointee.lightPath[depth] = binding
        cache.pointee.lightDepth = depth + 1
        defer {
            cache.pointee.lightDepth = depth
            cache.pointee.scratchUsed = used
        }
        // Borrowed, not retained: the activation keeps the binding alive.
        do {
            try binding._withUnsafeGuaranteedRef { binding in
                try binding.buildInto(FactoryCall(light: self, binding: binding), memory)
            }
        } catch {
            throw ResolutionError.failure(error, of: binding.takeUnretainedValue(), lightPath: cache)
        }
        return memory.assumingMemoryBound(to: T.self).move()
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
                let value: Wrapped? = try call.context.resolve(Wrapped.self, from: call.binding.injector, ifBound: true)
                return value as Any
            },
            makeAwaitingWrapper: { call -> Any in
                let value: Wrapped? = try await call.resolution.resolve(
                    Wrapped.self, from: call.binding.injector, path: call.path, ifBound: true)
                return value as Any
            }).wrappingACollection(of: Wrapped.self)
    }
}
