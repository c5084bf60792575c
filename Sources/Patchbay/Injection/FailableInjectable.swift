/// A type that builds itself from the container and may decline:
/// Swifjection's `init?(injector:)`. `nil` reads as "not bound": where the
/// type is asked for only if bound (``Container/resolveIfBound(_:from:)``,
/// an `@Injected` property of type `T?`, a factory's `T?` need, ``Resolver/resolveIfBound(_:)``,
/// the container's subscript) the answer is `nil`; where it must be there
/// (`resolve`, `@Injected`) it is a ``ResolutionError`` whose reason is
/// ``ResolutionError/Reason/injectableDeclined``.
///
///     struct SyncStatus: FailableInjectable {
///         let account: any Account
///         init?(injector: Resolver) throws {
///             guard let account = try injector.resolveIfBound((any Account).self) else { return nil }
///             self.account = account
///         }
///     }
///     let status = try container.resolveIfBound(SyncStatus.self)   // nil when signed out
///
/// Otherwise it is an ``Injectable``: built anew at each request when no
/// injector binds it, inside the same resolution, and a binding of the type wins.
public protocol FailableInjectable: Injectable {
    /// Builds the value, resolving what it needs through `injector`; `nil` to decline.
    /// - Throws: Any error; a ``ResolutionError`` from `injector` is passed on.
    init?(injector: Resolver) throws
}

extension FailableInjectable {
    /// Builds the value through ``FailableInjectable/init(injector:)``; its `nil` is thrown as
    /// ``ResolutionError/Reason/injectableDeclined``, which a request for the
    /// type only if bound reads as `nil`.
    public init(resolver: Resolver) throws {
        guard let made = try Self(injector: resolver) else {
            let name = TypeKey.shortName(of: Self.self)
            throw ResolutionError(
                .injectableDeclined, type: name, injectors: [resolver.injector],
                path: resolver.call.context.names, factory: "Injectable \(name)",
                detail: "its init?(injector:) returned nil, which reads as not bound: resolveIfBound gives nil "
                    + "for it; resolve it with resolveIfBound, an optional @Injected or as an optional need")
        }
        self = made
    }
}

extension ResolutionContext {
    /// An ``Injectable`` type `T`'s value, built by its own binding; `nil`
    /// when `ifBound` and the type is a ``FailableInjectable`` that declined.
    func injectable<T>(_ type: any Injectable.Type, as _: T.Type, from injector: InjectorName, ifBound: Bool) throws -> T? {
        do {
            return try instance(of: InjectableBindings.binding(for: type, from: injector), as: T.self, argument: nil)
        } catch let error as ResolutionError
            where ifBound && error.reason == .injectableDeclined && error.requestedType == TypeKey.shortName(of: T.self)
        {
            return nil
        }
    }
}
