/// `weak`: shared while someone outside the container holds it, and made
/// again after it is released. Only for class instances (rule
/// `weak-value-type`), which a weak reference can hold.
///
/// Inside test overrides (and ``Container/isolated(_:)``) a request gets
/// the override block's own instance, kept like a singleton's, so one made
/// with overridden dependencies never reaches code outside.
final class WeakLifetime: LifetimeStorage {
    /// The instance, kept as the bare object, which a weak reference can
    /// hold, with the type of the box it came in, to box it again: the
    /// product is a class (rule `weak-value-type`, checked on the value when
    /// the catalog could not tell), so each provided type's view of it is that same object.
    private struct Kept {
        weak var object: AnyObject?
        var boxType: (any ProductBox.Type)?

        var box: AnyObject? { object.flatMap { boxType?.box($0) } }
    }
    private let kept = Locked(Kept())

    static var sharesInstances: Bool { true }
    var sharedCell: InstanceCell? { nil }

    func place(
        of binding: CompiledBinding, scope: @autoclosure () -> Scope?, overrides: OverrideTable?,
        path: @autoclosure () -> [String]
    ) -> InstancePlace {
        overrides.map { .cell($0.cell(for: self)) } ?? .weakBox(self)
    }

    /// The live instance's box, if any.
    var current: AnyObject? { kept.withLock { $0.box } }

    /// The instance, made by `make` if none is alive: the one driver. A
    /// synchronous request makes it holding the lock, so two first requests
    /// share one; an awaited one, which must not hold a lock across `await`,
    /// makes it first and passes a `make` that returns it, and the first to
    /// finish is kept, as if a synchronous request had made its own meanwhile.
    func value(of binding: CompiledBinding, orMake make: () throws -> AnyObject) throws -> AnyObject {
        try kept.withLock { kept in
            if let box = kept.box { return box }
            let made = try make()
            let product = try binding.requireClassInstance(box: made)
            kept.object = product.object
            kept.boxType = type(of: product)
            return made
        }
    }
}
