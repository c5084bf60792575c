/// Scopes for objects that already exist: Impose 3's `scoped(by:)`,
/// `scopedUsingSameContext` and `@Scoped`.
///
/// An object made while resolving in a scope (or inside ``Scope/run(_:)``)
/// belongs to it from the start. One made elsewhere, by hand or before its
/// scope existed, is given to a scope with ``Scope/adopt(_:file:line:)``, and
/// ``Scope/of(_:)`` says which scope an object's properties resolve in, so
/// another object can be made in the same one.
extension Scope {
    /// Makes the `@Injected`, `@SafelyInjected` and ``Lazy`` properties of
    /// `object` resolve in this scope, and returns the object.
    ///
    ///     let model = scope.adopt(CheckoutModel())   // its @Injected session is this scope's
    ///
    /// Only the object's own stored properties are adopted (through
    /// `Mirror`, superclasses' included), not the objects they refer to.
    /// Adopt an object before the first read of those properties: a
    /// property already read has its value, which cannot move to another
    /// scope, so adopting it stops the program naming the property. The
    /// scope is held weakly, as a scope an object is made in is.
    @discardableResult
    public func adopt<Object>(_ object: Object, file: StaticString = #fileID, line: UInt = #line) -> Object {
        for (label, property) in Self.scopedProperties(of: object) where !property.adopt(self) {
            fatalError(
                "Scope.adopt: \(type(of: object)).\(label.drop { $0 == "_" }) was read before the object was "
                    + "adopted, so it keeps the value it resolved then; adopt the object right after making it",
                file: file, line: line)
        }
        return object
    }

    /// The scope the `@Injected`, `@SafelyInjected` and ``Lazy`` properties
    /// of `object` resolve in: the one it was adopted by or made in; `nil`
    /// when it has none of those properties, or was made in no scope (and
    /// so resolves in its reader's), or its scope has gone.
    ///
    ///     let details = try Scope.of(model)!.resolve(DetailsModel.self, from: container)   // the same scope
    public static func of(_ object: Any) -> Scope? {
        for (_, property) in scopedProperties(of: object) {
            if let scope = property.scope { return scope }
        }
        return nil
    }

    /// The object's stored properties that resolve in a scope, with their names.
    static func scopedProperties(of object: Any) -> [(String, any ScopedProperty)] {
        var found: [(String, any ScopedProperty)] = []
        var mirror: Mirror? = Mirror(reflecting: object)
        while let current = mirror {
            for child in current.children {
                if let property = child.value as? any ScopedProperty { found.append((child.label ?? "", property)) }
            }
            mirror = current.superclassMirror
        }
        return found
    }
}

/// A property that resolves in a scope: `@Injected`, `@SafelyInjected`, ``Lazy``.
protocol ScopedProperty {
    /// Resolves in `scope` from now on; false when it has already resolved.
    func adopt(_ scope: Scope) -> Bool
    /// The scope it resolves in, if any is known and still there.
    var scope: Scope? { get }
}

extension Injected: ScopedProperty {
    func adopt(_ scope: Scope) -> Bool { storage.adopt(scope) }
    var scope: Scope? { storage.scope }
}

extension SafelyInjected: ScopedProperty {
    func adopt(_ scope: Scope) -> Bool { storage.adopt(scope) }
    var scope: Scope? { storage.scope }
}
