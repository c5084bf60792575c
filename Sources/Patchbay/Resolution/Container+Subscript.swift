// Swifjection's `injector[T.self]`: the optional read of a type, `nil` only
// when nothing binds it.

extension Container {
    /// The value of `type` from the `primary` injector, or `nil` when no
    /// injector binds it: `try container[Clock.self]` (Swifjection's
    /// `injector[T.self]`).
    ///
    /// Only "not bound" gives `nil` (and a ``FailableInjectable`` that
    /// declines): a bound type whose factory, or a dependency, fails throws
    /// its ``ResolutionError``, never hidden, as ``resolveIfBound(_:from:)`` does.
    public subscript<T>(_ type: T.Type) -> T? {
        get throws(ResolutionError) { try resolveIfBound(type) }
    }
}

extension Resolver {
    /// The dependency, or `nil` when no injector binds it: `try resolver[Clock.self]`,
    /// as ``resolveIfBound(_:)``.
    public subscript<T>(_ type: T.Type) -> T? {
        get throws { try resolveIfBound(type) }
    }
}
