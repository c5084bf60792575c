import Foundation

/// The keys of a manifest's top-level object: the one place each is spelled.
///
/// The parser reads members by these cases, and a key that is none of them
/// is unknown, with "did you mean" suggestions from `allCases`; messages name
/// keys through them too.
package enum ManifestKey: String, CaseIterable, Sendable, CustomStringConvertible {
    /// The JSON Schema editors validate against; ignored by the loader.
    case schema = "$schema"
    /// The format version.
    case format
    /// A label shown in diagnostics and `explain` output.
    case environment
    /// The parent manifest's path.
    case extends
    /// The fallback order of custom injectors.
    case injectors
    /// The binding objects, each read by ``BindingKey``.
    case bindings
    /// Edits of inherited chains of decorators, each read by ``DecorateKey``.
    case decorate

    /// The key as the manifest spells it.
    package var description: String { rawValue }

    /// Every key's spelling, for matching keys as written.
    static let table = KeyTable<ManifestKey>()
}

/// The keys of a binding object: the one place each is spelled.
package enum BindingKey: String, CaseIterable, Sendable, CustomStringConvertible {
    /// The requested type's name.
    case `protocol`
    /// The catalog factory that serves it.
    case factory
    /// How long an instance lives.
    case lifetime
    /// The injector the binding belongs to.
    case injector
    /// The object decoded into the factory's parameter type.
    case parameters
    /// The element type's name, instead of `protocol`: the binding is one
    /// element of that type's collection, served as `[T]` in manifest order.
    /// Last, since the parser files a binding's members by comparing their
    /// keys with these in order, and most bindings are not elements.
    case collection
    /// The decorators around the factory's product, in order, each read by ``DecoratorKey``.
    case decorators

    /// The key as the manifest spells it.
    package var description: String { rawValue }

    /// Every key's spelling, for matching keys as written.
    static let table = KeyTable<BindingKey>()
}

/// The keys of a decorator object in a binding's `decorators`: the one place each is spelled.
package enum DecoratorKey: String, CaseIterable, Sendable, CustomStringConvertible {
    /// The catalog decorator's name.
    case decorator
    /// The object decoded into the decorator's parameter type.
    case parameters

    /// The key as the manifest spells it.
    package var description: String { rawValue }

    /// Every key's spelling, for matching keys as written.
    static let table = KeyTable<DecoratorKey>()
}

/// The keys of an entry of a manifest's `decorate`: the one place each is spelled.
package enum DecorateKey: String, CaseIterable, Sendable, CustomStringConvertible {
    /// The bound type whose chains the entry edits.
    case `protocol`
    /// The one injector whose binding it edits; every injector's when absent.
    case injector
    /// Decorators taken out of the chain, by name.
    case remove
    /// Decorators appended to the chain, outermost last, each read by ``DecoratorKey``.
    case add

    /// The key as the manifest spells it.
    package var description: String { rawValue }

    /// Every key's spelling, for matching keys as written.
    static let table = KeyTable<DecorateKey>()
}

/// A key enum's spellings as one run of UTF-8, made once, so that a member's
/// key is matched as written in the file: the parser files every binding's
/// members without making a string of each key.
struct KeyTable<Key: RawRepresentable & CaseIterable & Sendable>: Sendable where Key.RawValue == String {
    let bytes: [UInt8]
    /// Each key, in `allCases` order, with its spelling's place in `bytes`.
    let entries: [(key: Key, span: Range<Int>)]

    init() {
        var bytes: [UInt8] = []
        entries = Key.allCases.map { key in
            bytes += key.rawValue.utf8
            return (key, bytes.count - key.rawValue.utf8.count..<bytes.count)
        }
        self.bytes = bytes
    }

    // Matched against a file's bytes by `JSONLayout.forEachMember`, in the
    // scanner's file, which borrows the file's bytes once per object.
}
