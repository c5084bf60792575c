/// A type that builds itself from the container, with no factory and no
/// binding: Swifjection's `Injectable`.
///
///     struct CheckoutModel: Injectable {
///         let cart: any Cart
///         let prices: any PriceList
///         init(resolver: Resolver) throws {
///             cart = try resolver.resolve()
///             prices = try resolver.resolve()
///         }
///     }
///     let model = try container.resolve(CheckoutModel.self)   // no binding needed
///
/// When no injector binds an `Injectable` type, `resolve`, `@Injected`
/// (of `T` or `T?`) and a ``Resolver`` build a new one each time (like a
/// `transient`), resolving what it needs from the injector it was asked
/// from, inside the same resolution: a loop between such types is a
/// ``ResolutionError/Reason/dependencyCycle`` error, and `graph` and
/// `scoped` instances are shared as usual. A binding of the type, when a
/// manifest has one, wins.
///
/// A manifest cannot name an `Injectable` type: only catalog factories are
/// reachable from a manifest, so what a manifest can make stays what the app
/// registered. For the same reason a factory's typed dependency is checked
/// against the manifest like any other and must be bound: `patchbay check`
/// sees every typed need. Resolve an `Injectable` by hand where a factory
/// needs one (``FactoryCatalog/registerResolving(_:provides:lifetime:environments:file:line:make:)``).
public protocol Injectable: SendableMetatype {
    /// Builds the value, resolving what it needs through `resolver`.
    /// - Throws: Any error; a ``ResolutionError`` from `resolver` is passed on.
    init(resolver: Resolver) throws
}

/// The implicit transient bindings that build `Injectable` types, one per
/// type and injector, made on first use and kept for the process: a type's
/// conformance never changes, and the path and cycle checks of a
/// resolution need one binding object per type to recognise it again.
enum InjectableBindings {
    private struct Key: Hashable {
        let type: ObjectIdentifier
        let injector: InjectorName
    }

    private static let bindings = Locked<[Key: CompiledBinding]>([:])

    /// The binding that builds `type` for a request from `injector`.
    static func binding(for type: any Injectable.Type, from injector: InjectorName) -> CompiledBinding {
        let key = Key(type: ObjectIdentifier(type), injector: injector)
        return bindings.withLock { bindings in
            // Made under the lock: making a binding runs no user code, only builds the closure that will.
            if bindings[key] == nil { bindings[key] = makeBinding(type, from: injector) }
            return bindings[key]!
        }
    }

    private static func makeBinding<T: Injectable>(_ type: T.Type, from injector: InjectorName) -> CompiledBinding {
        let definition = FactoryCatalog.singleType(
            "Injectable \(TypeKey.shortName(of: T.self))", T.self, .transient, specs: nil, #fileID, #line
        ) { call in try Resolver.during(call) { try T(resolver: $0) } }
        return CompiledBinding(
            injector: injector, definition: definition,
            provided: definition.provides[0], parameters: nil, storage: TransientLifetime(), described: nil)
    }
}
