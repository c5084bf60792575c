/// Reads the names of a single-protocol existential (`any Clock`) straight
/// from the protocol's descriptor in the binary, instead of asking the
/// runtime to demangle them.
///
/// Why: registering a factory needs the names of the types it provides, and
/// those are nearly always protocols. The runtime's `_typeName` builds a
/// demangling tree for the metadata and prints it, about 3,600 instructions
/// the first time for each type in a process (measured with callgrind): for
/// 1,000 factories, a fifth of an app's whole register-and-resolve at launch.
/// The protocol descriptor already holds both names as C strings; reading
/// them is a few dozen instructions.
///
/// The layouts read here are Swift's stable ABI (`swift/ABI/Metadata.h`,
/// `docs/ABI/TypeMetadata.rst`), the same on Linux and Apple platforms.
/// Only the plainest form is read: existential metadata of exactly one
/// Swift protocol, no superclass or `AnyObject` bound beyond the
/// protocol's own, declared directly in a module, with plain ASCII
/// identifiers for names. Anything else (nested or private protocols,
/// compositions, Objective-C protocols, classes, generics...) returns
/// nil, and ``TypeKey`` asks the runtime. `TypeKeyTests` holds the result
/// to the runtime's answer for every form.
enum ProtocolTypeName {
    /// `MetadataKind::Existential`: 3, marked runtime-private and non-heap.
    private static let existentialKind: UInt = 0x303
    /// `ExistentialTypeFlags::HasSuperclassMask`: `any Base & P` stores the class first.
    private static let hasSuperclassFlag: UInt32 = 0x4000_0000
    /// `ExistentialTypeFlags::ClassConstraintMask`: set when the existential
    /// is not class-bound (`ProtocolClassConstraint::Any`).
    private static let existentialIsAnyFlag: UInt32 = 0x8000_0000
    /// `ProtocolContextDescriptorFlags::HasClassConstraint`, the first of a
    /// protocol descriptor's kind-specific flags (bit 16 of its flags): set
    /// when the protocol is not class-bound.
    private static let protocolIsAnyFlag: UInt32 = 0x1_0000
    /// `ContextDescriptorKind` values, the low five bits of a context's flags.
    private static let moduleKind: UInt32 = 0
    private static let protocolKind: UInt32 = 3

    /// The module-qualified name (`NotesKit.Clock`) and the protocol's own
    /// name (`Clock`), or nil when `type` is not of the plain form described
    /// above.
    static func names(of type: Any.Type) -> (qualified: String, name: String)? {
        let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
        // TargetExistentialTypeMetadata: kind (a word), flags (32 bits),
        // number of protocols (32 bits), then the protocol references.
        guard metadata.load(as: UInt.self) == existentialKind else { return nil }
        let flags = metadata.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt32.self)
        let protocolCount = metadata.load(fromByteOffset: MemoryLayout<UInt>.size + 4, as: UInt32.self)
        guard protocolCount == 1, flags & hasSuperclassFlag == 0 else { return nil }
        let reference = metadata.load(fromByteOffset: MemoryLayout<UInt>.size + 8, as: UInt.self)
        // With Objective-C interop, a set low bit marks an Objective-C protocol.
        guard reference & 1 == 0, let descriptor = UnsafeRawPointer(bitPattern: reference) else { return nil }
        // A class-bound existential of a protocol that is not class-bound is
        // `any P & AnyObject`: another type than `any P`, with the same one
        // protocol in its metadata, which the runtime names "P & AnyObject".
        if flags & existentialIsAnyFlag == 0, descriptor.load(as: UInt32.self) & protocolIsAnyFlag != 0 {
            return nil
        }
        guard contextKind(descriptor) == protocolKind, let module = parent(of: descriptor),
            contextKind(module) == moduleKind
        else { return nil }
        // Both a module's and a protocol's descriptor keep their name third,
        // after their flags and parent.
        guard let moduleName = identifier(at: relativeTarget(of: module + 8)),
            let name = identifier(at: relativeTarget(of: descriptor + 8))
        else { return nil }
        // Made in one piece: appending the parts cost twice this.
        let qualified = String(unsafeUninitializedCapacity: moduleName.count + 1 + name.count) { buffer in
            var end = buffer.initialize(fromContentsOf: moduleName)
            buffer[end] = UInt8(ascii: ".")
            end = buffer[(end + 1)...].initialize(fromContentsOf: name)
            return end
        }
        return (qualified, String(decoding: name, as: UTF8.self))
    }

    /// The kind of a context descriptor (`ContextDescriptorFlags`, low five bits).
    private static func contextKind(_ descriptor: UnsafeRawPointer) -> UInt32 {
        descriptor.load(as: UInt32.self) & 0x1F
    }

    /// A context descriptor's parent: a relative pointer after the flags.
    /// Nil when it is indirect (its low bit set: it points to a pointer to
    /// the parent, which arm64e may sign): a protocol's module is in its own
    /// binary, so its parent pointer is direct, and anything else goes to the runtime.
    private static func parent(of descriptor: UnsafeRawPointer) -> UnsafeRawPointer? {
        let field = descriptor + 4
        let offset = field.load(as: Int32.self)
        guard offset != 0, offset & 1 == 0 else { return nil }
        return field + Int(offset)
    }

    /// What a 32-bit relative direct pointer at `field` points to.
    private static func relativeTarget(of field: UnsafeRawPointer) -> UnsafeRawPointer? {
        let offset = field.load(as: Int32.self)
        return offset == 0 ? nil : field + Int(offset)
    }

    /// The bytes of the C string at `address`, when it is a plain ASCII identifier not
    /// starting with a digit or with `__` (the runtime's own modules, such as
    /// `__C` for imported C declarations, print differently).
    private static func identifier(at address: UnsafeRawPointer?) -> UnsafeBufferPointer<UInt8>? {
        guard let address else { return nil }
        let bytes = address.assumingMemoryBound(to: UInt8.self)
        var count = 0
        while bytes[count] != 0 {
            guard TypeKey.isIdentifierByte(bytes[count]), count < 1_024 else { return nil }
            count += 1
        }
        guard count > 0, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[0]),
            !(count >= 2 && bytes[0] == UInt8(ascii: "_") && bytes[1] == UInt8(ascii: "_"))
        else { return nil }
        // The descriptor lives in the binary's read-only data as long as the process.
        return UnsafeBufferPointer(start: bytes, count: count)
    }
}
