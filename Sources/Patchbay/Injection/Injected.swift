/// A dependency resolved on first access and kept.
///
///     final class SignupService {
///         @Injected var users: any UserRepository
///         @Injected(from: .secondary) var fallback: any UserRepository
///         @Injected(container: tenantContainer) var clock: any Clock
///     }
///
/// Resolution happens on the first read of the property; the value is then
/// kept. It resolves from what made the object: inside an object a factory
/// made, from that resolution's container, injector, test overrides and
/// scope; inside an object made by hand, from ``PatchbaySystem/container``'s
/// `primary` injector, in the current ``Scope`` if one is open. A container
/// or injector named in the attribute wins. Reads are thread-safe. A property
/// getter cannot throw, so a failure stops the program with the full
/// ``ResolutionError`` message (in debug and release alike), which names the
/// property's declaration (its file and line), as does the thrown error;
/// read `try $users.resolve()` to handle the error instead. A getter cannot
/// know the line that read it: that line is in the backtrace the trap
/// prints, in the frame below the property's getter
/// (`SignupService.users.getter`).
///
/// A property of an optional type is `nil` when no injector binds the type:
///
///     @Injected var analytics: (any Analytics)?
///
/// Only "not bound" gives `nil`. If the type is bound but its factory fails,
/// that is an error, never hidden: the program stops with its message (use
/// `try $analytics.resolve()` to handle it).

@propertyWrapper
public struct Injected<Value>: Sendable {
    /// The value once resolved, published once: copies of the wrapper share it.
    @usableFromInline let cell: InstanceCell
    /// What the first read resolves from, and where the property is declared.
    let deferred: DeferredResolution

    /// Resolves `Value` from `injector` of `container`.
    /// - Parameters:
    ///   - injector: The injector to search first; when `nil`, the one that
    ///     served the factory that made the object, else `primary`.
    ///   - container: The container to resolve from; when `nil`, the one
    ///     that made the object, else ``PatchbaySystem/container``.
    ///   - file: Where the property is declared, for messages; leave the default.
    ///   - line: Where the property is declared, for messages; leave the default.
    public init(
        from injector: InjectorName? = nil, container: Container? = nil,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        cell = InstanceCell()
        deferred = DeferredResolution(.current, container: container, injector: injector, declaredAt: (file, line))
    }

    /// The dependency, resolved on first access.
    // Inlinable, so that a later access is specialized in the app's module:
    // an acquiring load of the cell's word, and a downcast of its box to
    // the product type.
    @inlinable
    public var wrappedValue: Value {
        if let box = cell.current as? Instance<Value> { return box.value }
        return firstAccess()
    }

    /// A wrapper that already holds `value` and resolves nothing: for a test
    /// that gives one instance its own dependency, whatever the container
    /// binds (`nil` for an optional one: explicitly none).
    ///
    ///     let service = SignupService()
    ///     service.$users = Injected(InMemoryUserRepository())
    public init(_ value: Value, file: StaticString = #fileID, line: UInt = #line) {
        cell = InstanceCell(keeping: value)
        deferred = DeferredResolution(.outside, declaredAt: (file, line))
    }

    /// The wrapper itself, for `try $property.resolve()`; set it to give this
    /// one instance its own dependency (`$users = Injected(fake)`).
    public var projectedValue: Injected<Value> {
        get { self }
        set { self = newValue }
    }

    /// The dependency, resolved on first call and kept.
    /// - Throws: ``ResolutionError`` when it cannot be resolved.
    public func resolve() throws(ResolutionError) -> Value {
        if let value = cell.kept(as: Value.self) { return value }
        // Resolved holding nothing, so a factory that reads another wrapper
        // (or this one, in a cycle that resolution will report) cannot
        // deadlock. If two threads race here, both resolve and the first to
        // publish wins; both return that one value.
        do {
            if let optional = Value.self as? any OptionalInjectable.Type {
                return cell.keep(try optional.resolveIfBound(deferred) as! Value)
            }
            return cell.keep(try deferred.resolve(Value.self)!)
        } catch {
            let site = deferred.declaredAt!
            throw error.requested(at: CodeLocation(site.file, site.line), declaration: true)
        }
    }

    /// Whether the dependency has been resolved yet.
    public var isResolved: Bool { cell.current != nil }

    /// The first access of `@Injected`: resolve, or stop with the error's message.
    @usableFromInline @inline(never)
    func firstAccess() -> Value {
        do {
            return try resolve()
        } catch {
            // Stops at the property's declaration, not in this file. Not
            // preconditionFailure: -O builds would drop the message. A getter
            // has no caller's #line to take, so the message says where the
            // reader is found: the backtrace's next frame down.
            let site = deferred.declaredAt!
            fatalError(error.description + Self.readerHint, file: site.file, line: site.line)
        }
    }

    /// Appended to a trap's message: where to find the code that read the property.
    static var readerHint: String {
        " The code that read the property is the frame below the property's getter in the backtrace."
    }
}

extension Injected: ScopedProperty {}

/// An optional dependency, `nil` when no injector binds it, is an
/// `@Injected` property of an optional type.
@available(*, deprecated, renamed: "Injected", message: "write @Injected var name: T? (nil when T is not bound)")
public typealias SafelyInjected<Value> = Injected<Value?>

/// Lets `@Injected` of `T?` resolve `T` when bound and give `nil` when not.
protocol OptionalInjectable {
    static func resolveIfBound(_ deferred: DeferredResolution) throws(ResolutionError) -> Any
}

extension Optional: OptionalInjectable {
    static func resolveIfBound(_ deferred: DeferredResolution) throws(ResolutionError) -> Any {
        try deferred.resolve(Wrapped.self, ifBound: true) as Any
    }
}
