#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Answers "can a value of type `Product` be used as a `Provided`?" without
/// having a value, so a registration that claims a type its product does not
/// conform to fails when it is registered, not when it is first resolved.
///
/// Swift has no public API for this when `Provided` is a protocol existential
/// known only to generic code. The runtime does: the existential metatype of
/// `any P` (`any P.Type`) is something a metatype can be cast to, and that
/// cast checks conformance. We ask the runtime for that metatype through
/// `swift_getExistentialMetatypeMetadata`, a stable ABI entry point, looked up
/// with `dlsym` because referencing runtime symbols directly is not allowed.
/// Where the lookup is unavailable (a fully static binary, say) the answer is
/// `nil`: unknown, and the registration is accepted.
enum TypeConformance {
    /// `true` or `false` when known, `nil` when this runtime cannot tell.
    static func canConvert<Product, Provided>(_ product: Product.Type, to provided: Provided.Type) -> Bool? {
        if (product as Any.Type) is Provided.Type { return true }  // same type or a subclass
        guard isExistential(provided) else { return false }
        guard let existentialMetatype = existentialMetatype(of: provided) else { return nil }
        func isInstance<Metatype>(of _: Metatype.Type) -> Bool { (Product.self as Any) is Metatype }
        return _openExistential(existentialMetatype, do: isInstance)
    }

    /// Whether values of `type` are class instances: a class, or an
    /// existential whose protocols are class-bound (`protocol P: AnyObject`).
    static func isClass(_ type: Any.Type) -> Bool {
        if type is AnyObject.Type { return true }
        guard isExistential(type) else { return false }
        // Existential type metadata: kind (word), flags (UInt32); the
        // class-constraint bit is 0x80000000 clear for class-bound.
        let flags = unsafeBitCast(type, to: UnsafeRawPointer.self)
            .load(fromByteOffset: MemoryLayout<Int>.size, as: UInt32.self)
        let isClassConstrained = flags & 0x8000_0000 == 0
        return isClassConstrained
    }

    /// The metadata kind of existential types (`MetadataKind::Existential`).
    private static let existentialKind: UInt = 0x303

    static func isExistential(_ type: Any.Type) -> Bool {
        unsafeBitCast(type, to: UnsafeRawPointer.self).load(as: UInt.self) == existentialKind
    }

    private typealias GetExistentialMetatype = @convention(c) (UnsafeRawPointer) -> UnsafeRawPointer

    private static let getExistentialMetatype: GetExistentialMetatype? = {
        #if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
        guard let handle = dlopen(nil, RTLD_NOW),
              let symbol = dlsym(handle, "swift_getExistentialMetatypeMetadata")
        else { return nil }
        return unsafeBitCast(symbol, to: GetExistentialMetatype.self)
        #else
        return nil
        #endif
    }()

    private static func existentialMetatype(of type: Any.Type) -> Any.Type? {
        guard let get = getExistentialMetatype else { return nil }
        let metadata = get(unsafeBitCast(type, to: UnsafeRawPointer.self))
        return unsafeBitCast(metadata, to: Any.Type.self)
    }
}
