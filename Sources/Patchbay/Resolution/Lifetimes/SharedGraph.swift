/// The `graph` instances of one resolution as a ``Lazy`` made in it keeps
/// them: weakly, as Swinject's graph storage does. Read later, the `Lazy`
/// begins a resolution that shares each instance still alive and makes anew
/// each one that has gone; one it makes is kept here too, for the other
/// `Lazy` values of the same resolution.
///
/// Weakly, because the usual reason for a `Lazy` is a cycle (a child that
/// reads its parent later): a strong reference here would make the parent,
/// the child and the `Lazy` keep each other alive. So only a class instance
/// is shared: a value has no identity to share and no reference to hold
/// weakly, and is made anew, as a value of any lifetime would be copied.
final class SharedGraph: Sendable {
    /// One instance, and the storage that made it (so a storage freed with
    /// its activation, whose address a new one may reuse, never matches).
    private struct Entry {
        weak var storage: GraphLifetime?
        let instance: WeakInstance
    }

    private let entries = Locked<[ObjectIdentifier: Entry]>([:])

    /// Keeps `box`'s product, weakly, as `storage`'s instance; a value product is never found.
    func note(_ box: AnyObject, of storage: GraphLifetime) {
        entries.withLock { $0[ObjectIdentifier(storage)] = Entry(storage: storage, instance: WeakInstance(box)) }
    }

    /// Whether `object` is one of the instances kept here, still alive.
    func holds(_ object: AnyObject) -> Bool {
        entries.withLock { $0.values.contains { $0.instance.object === object } }
    }

    /// `storage`'s instance boxed as its factory boxes it, when still alive.
    func instance(of storage: GraphLifetime) -> AnyObject? {
        let entry = entries.withLock { $0[ObjectIdentifier(storage)] }
        guard let entry, entry.storage === storage else { return nil }
        return entry.instance.box
    }
}

/// A factory's product box (an ``Instance``) seen without its type: what
/// ``SharedGraph`` keeps weakly and boxes again.
protocol ProductBox: AnyObject {
    /// The product, when it is a class instance.
    var object: AnyObject? { get }
    /// A box of `object`, when it is of this box's product type.
    static func box(_ object: AnyObject) -> AnyObject?
    /// The product's own type.
    var valueType: Any.Type { get }
}

extension Instance: ProductBox {
    var object: AnyObject? { type(of: value as Any) is AnyClass ? value as AnyObject : nil }

    static func box(_ object: AnyObject) -> AnyObject? { (object as? Value).map { Instance($0) } }

    var valueType: Any.Type { type(of: value as Any) }
}

/// A product box's object, held weakly (a `weak` binding's instance in its
/// cell, a `graph` instance a ``Lazy`` shares): the bare object, which a
/// weak reference can hold, with the type of the box it came in, to box it
/// again, so each provided type's view of it is that same object. A value
/// product has no object, and is never found.
struct WeakInstance {
    weak var object: AnyObject?
    var boxType: (any ProductBox.Type)?

    init(_ made: AnyObject? = nil) {
        let product = made as? any ProductBox
        (object, boxType) = (product?.object, product.map { type(of: $0) })
    }

    var box: AnyObject? { object.flatMap { boxType?.box($0) } }
}
