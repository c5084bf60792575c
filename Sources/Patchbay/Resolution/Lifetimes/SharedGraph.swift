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
    /// One instance: the product object, the storage that made it (so a
    /// storage freed with its activation, whose address a new one may
    /// reuse, never matches), and how to box the object again.
    private struct Entry {
        weak var storage: GraphLifetime?
        weak var object: AnyObject?
        let boxType: any ProductBox.Type
    }

    private let entries = Locked<[ObjectIdentifier: Entry]>([:])

    /// Keeps `box`'s product, weakly, as `storage`'s instance; a value product is not kept.
    func note(_ box: AnyObject, of storage: GraphLifetime) {
        guard let product = box as? any ProductBox, let object = product.object else { return }
        let entry = Entry(storage: storage, object: object, boxType: type(of: product))
        entries.withLock { $0[ObjectIdentifier(storage)] = entry }
    }

    /// Whether `object` is one of the instances kept here, still alive.
    func holds(_ object: AnyObject) -> Bool {
        entries.withLock { $0.values.contains { $0.object === object } }
    }

    /// `storage`'s instance boxed as its factory boxes it, when still alive.
    func instance(of storage: GraphLifetime) -> AnyObject? {
        let entry = entries.withLock { $0[ObjectIdentifier(storage)] }
        guard let entry, entry.storage === storage, let object = entry.object else { return nil }
        return entry.boxType.box(object)
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
