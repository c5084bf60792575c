/// Scopes for objects that already exist: Impose 3's `scoped(by:)`,
/// `scopedUsingSameContext` and `@Scoped`.
///
/// An object made while resolving in a scope (or inside ``Scope/run(_:)``)
/// belongs to it from the start. One made elsewhere, by hand or before its
/// scope existed, is given to a scope with ``Scope/adopt(_:file:line:)``, and
/// ``Scope/of(_:)`` says which scope an object's properties resolve in, so
/// another object can be made in the same one.
extension Scope {
    /// Makes the `@Injected`, ``Lazy`` and ``Provider``
    /// properties of `object` resolve in this scope, and returns the object.
    ///
    ///     let model = scope.adopt(CheckoutModel())   // its @Injected session is this scope's
    ///
    /// The object's own stored properties are adopted (through `Mirror`,
    /// superclasses' included), and so are the objects it holds, as
    /// Impose's `@Scoped` children follow their parent: each class instance
    /// in a stored property (or an optional one) whose properties were made
    /// by hand outside any scope, not adopted and not yet read, at any
    /// depth. A child made by a container, made in a scope, or already
    /// read keeps what it has, and its own children are left alone.
    ///
    ///     final class CheckoutModel {
    ///         @Injected var session: any Session
    ///         let summary = SummaryModel()   // its @Injected session follows the model's scope
    ///     }
    ///
    /// Adopt an object before the first read of its own properties: a
    /// property already read has its value, which cannot move to another
    /// scope, so adopting it stops the program naming the property. The
    /// scope is held weakly, as a scope an object is made in is.
    @discardableResult
    public func adopt<Object>(_ object: Object, file: StaticString = #fileID, line: UInt = #line) -> Object {
        for (label, property) in Self.scopedProperties(of: object) {
            property.adopt(self)
            guard property.isResolved else { continue }
            fatalError(
                "Scope.adopt: \(type(of: object)).\(label.drop { $0 == "_" }) was read before the object was "
                    + "adopted, so it keeps the value it resolved then; adopt the object right after making it",
                file: file, line: line)
        }
        var visited: Set<ObjectIdentifier> = []
        if type(of: object as Any) is AnyClass { visited.insert(ObjectIdentifier(object as AnyObject)) }
        adoptChildren(of: object, visited: &visited)
        return object
    }

    /// Adopts the hand-made children of `object` (see ``adopt(_:file:line:)``), each once.
    private func adoptChildren(of object: Any, visited: inout Set<ObjectIdentifier>) {
        for child in Self.storedProperties(of: object).map(\.value) where !(child is any ScopedProperty) {
            guard let child = Self.classInstance(child), visited.insert(ObjectIdentifier(child)).inserted else {
                continue
            }
            let properties = Self.scopedProperties(of: child).map(\.1)
            guard !properties.isEmpty, properties.allSatisfy({ $0.deferred.followsOwner && !$0.isResolved }) else {
                continue
            }
            for property in properties { property.adopt(self) }
            adoptChildren(of: child, visited: &visited)
        }
    }

    /// `value` as a class instance, looking through one optional; nil for anything else.
    private static func classInstance(_ value: Any) -> AnyObject? {
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional { return mirror.children.first.flatMap { classInstance($0.value) } }
        return mirror.displayStyle == .class ? value as AnyObject : nil
    }

    /// Resolves `type` in this scope from its container (``init(container:)``),
    /// else from ``PatchbaySystem/container``.
    ///
    ///     let scope = Scope(container: container)
    ///     let model = try scope.resolve(CheckoutModel.self)
    /// - Throws: ``ResolutionError`` when it cannot be resolved, or there is no container.
    public func resolve<T>(_ type: T.Type = T.self, injector: InjectorName = .primary) throws(ResolutionError) -> T {
        try resolve(T.self, from: ObjectOrigin.outside.container(for: T.self, scope: self), injector: injector)
    }

    /// The scope the `@Injected` and ``Lazy`` properties
    /// of `object` resolve in: the one it was adopted by or made in; `nil`
    /// when it has none of those properties, or was made in no scope (and
    /// so resolves in its reader's), or its scope has gone.
    ///
    ///     let details = try Scope.of(model)!.resolve(DetailsModel.self, from: container)   // the same scope
    public static func of(_ object: Any) -> Scope? {
        scopedProperties(of: object).lazy.compactMap(\.1.deferred.scope).first
    }

    /// The object's stored properties that resolve in a scope, with their names.
    static func scopedProperties(of object: Any) -> [(String, any ScopedProperty)] {
        storedProperties(of: object).compactMap { child in
            (child.value as? any ScopedProperty).map { (child.label ?? "", $0) }
        }
    }

    /// The object's stored properties, superclasses' included.
    private static func storedProperties(of object: Any) -> [Mirror.Child] {
        sequence(first: Mirror(reflecting: object), next: \.superclassMirror).flatMap(\.children)
    }
}
