// Free functions for default arguments of initializers, so a type can be made
// by hand in tests and by the container in the app:
//
//     init(users: any UserRepository = inject(), clock: any Clock = inject((any Clock).self, ifFailUse: SystemClock())) { ... }

/// Resolves `T` from the default container.
///
/// Stops the program with the ``ResolutionError`` message, at the call,
/// when it cannot be resolved (a default argument cannot throw); use
/// ``PatchbaySystem/container`` and `resolve` to handle errors.
///
/// For a dependency that may be unbound, use ``injectIfBound(_:from:file:line:)``
/// or an ``Injected`` property of an optional type.
/// - Parameters:
///   - type: The type to resolve; inferred from the context when omitted.
///   - injector: The injector to search first.
///   - file: Where the call is, for messages; leave the default.
///   - line: Where the call is, for messages; leave the default.
public func inject<T>(
    _ type: T.Type = T.self, from injector: InjectorName = .primary, file: StaticString = #fileID, line: UInt = #line
) -> T {
    do {
        return try PatchbaySystem.resolveContainer(nil, for: T.self).resolve(T.self, from: injector)
    } catch {
        fatalError(error.requested(at: CodeLocation(file, line)).description, file: file, line: line)
    }
}

/// Resolves `T` from the default container, or returns `nil` when no
/// injector binds it: for a default argument of an optional dependency.
///
///     init(analytics: (any Analytics)? = injectIfBound()) { ... }
///
/// Only "not bound" gives `nil`. A bound type whose factory (or one of its
/// dependencies) fails, or no default container at all, stops the program
/// with the full ``ResolutionError`` message at the call, as ``inject(_:from:file:line:)``
/// does: a `try?` would hide a broken factory behind the same `nil`.
/// - Parameters:
///   - type: The type to resolve; inferred from the context when omitted.
///   - injector: The injector to search first.
///   - file: Where the call is, for messages; leave the default.
///   - line: Where the call is, for messages; leave the default.
public func injectIfBound<T>(
    _ type: T.Type = T.self, from injector: InjectorName = .primary, file: StaticString = #fileID, line: UInt = #line
) -> T? {
    do {
        return try PatchbaySystem.resolveContainer(nil, for: T.self).resolveIfBound(T.self, from: injector)
    } catch {
        fatalError(error.requested(at: CodeLocation(file, line)).description, file: file, line: line)
    }
}

/// Resolves `T` from the default container, or uses `fallback` when that fails
/// for any reason (not bound, no container, a factory error).
///
///     init(clock: any Clock = inject((any Clock).self, ifFailUse: SystemClock())) { ... }
///
/// The type is required: without it Swift would take it from the fallback
/// (`SystemClock`), a type nobody binds, and the fallback would always win.
/// - Parameters:
///   - type: The type to resolve.
///   - injector: The injector to search first.
///   - fallback: The value to use when resolving fails.
public func inject<T>(
    _ type: T.Type, from injector: InjectorName = .primary, ifFailUse fallback: @autoclosure () -> T
) -> T {
    (try? PatchbaySystem.container?.resolve(T.self, from: injector)) ?? fallback()
}
