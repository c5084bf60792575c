/// `weak`: shared while someone outside the container holds it, and made
/// again after it is released. Only for class instances (rule
/// `weak-value-type`), which a weak reference can hold. Made as any cell's
/// instance (``InstanceCell/holdsWeakly``): once at a time, no factory run
/// holding a lock, a loop of waits a `dependency-cycle`.
///
/// Inside test overrides (and ``Container/isolated(_:)``) a request gets
/// the override block's own instance, kept like a singleton's, so one made
/// with overridden dependencies never reaches code outside.
final class WeakLifetime: LifetimeStorage {
    /// The instance every request outside overrides shares, while it lives.
    let cell = InstanceCell(holdingWeakly: true)

    static var sharesInstances: Bool { true }
    var sharedCell: InstanceCell? { nil }

    func place(
        of binding: CompiledBinding, scope: @autoclosure () -> Scope?, overrides: OverrideTable?,
        path: @autoclosure () -> [String]
    ) -> InstancePlace {
        .cell(overrides?.cell(for: self) ?? cell)
    }
}

/// A weakly held instance: the bare object, which a weak reference can
/// hold, with the type of the box it came in, to box it again. The product
/// is a class (checked before it is kept), so each provided type's view of
/// it is that same object.
struct WeakInstance {
    weak var object: AnyObject?
    var boxType: (any ProductBox.Type)?

    init(_ made: AnyObject? = nil) {
        let product = made as? any ProductBox
        (object, boxType) = (product?.object, product.map { type(of: $0) })
    }

    var box: AnyObject? { object.flatMap { boxType?.box($0) } }
}
