/// A type the app resolves itself, through `resolve`, `@Injected`
/// or ``Lazy``, rather than as another factory's need.
///
/// Entry points are the roots of the app's dependency graph: nothing in a
/// manifest says which types the app asks for, so the catalog does. Every
/// environment's manifest must then serve each required entry point, and the
/// check and activation say so before the screen that asks for it opens:
///
///     catalog.entryPoint(NoteService.self)                          // resolve, @Injected
///     catalog.entryPoint((any Analytics).self, optional: true)      // resolveIfBound, @Injected var x: T?
///     catalog.entryPoint((any Clock).self, from: .secondary)        // resolve(_:from: .secondary)
struct EntryPoint: Sendable, Hashable {
    /// The type requested.
    let key: TypeKey
    /// The injector it is requested from; resolution falls back from there.
    let injector: InjectorName
    /// Whether the app copes with the type being unbound (`resolveIfBound`, an optional injection).
    let isOptional: Bool
    /// Where the app declared it.
    let declaredAt: CodeLocation
}

extension FactoryCatalog {
    /// Declares a type the app resolves itself: an entry point of its
    /// dependency graph, which every environment's manifest must serve.
    ///
    /// Declare each type your code reads through `resolve` or `@Injected`
    /// (of `T` or `T?`), once, beside the registrations. `patchbay check`, the
    /// live check and activation then refuse a manifest that leaves a required
    /// entry point unbound (`unbound-entry-point`), where the app would
    /// otherwise stop when it first asks for it.
    ///
    ///     catalog.entryPoint(NoteService.self)
    ///
    /// - Parameters:
    ///   - type: The type the app requests, as it requests it (`(any Clock).self`).
    ///   - injector: The injector it requests it from; the binding may come
    ///     from any injector searched from there.
    ///   - optional: True when the app copes with the type being unbound
    ///     (`resolveIfBound`, `@Injected var x: T?`): it is a root of the
    ///     graph, whose dependencies are checked when bound, but may be unbound.
    ///   - fileID: Where it is declared, for messages; leave it to the call site.
    ///   - line: The line it is declared on; leave it to the call site.
    public mutating func entryPoint<T>(
        _ type: T.Type, from injector: InjectorName = .primary, optional: Bool = false,
        fileID: StaticString = #fileID, line: UInt = #line
    ) {
        let entry = EntryPoint(
            key: TypeKey(type), injector: injector, isOptional: optional, declaredAt: CodeLocation(fileID, line))
        if !entryPoints.contains(where: { $0.key == entry.key && $0.injector == injector }) {
            entryPoints.append(entry)
        }
    }

    /// This catalog without its entry points: for a test that builds a
    /// container from a partial manifest on purpose (one binding and its
    /// needs), which the entry-point rule would refuse.
    ///
    ///     let container = try Container(catalog: .notes.ignoringEntryPoints, manifest: clockOnly)
    public var ignoringEntryPoints: FactoryCatalog {
        var copy = self
        copy.entryPoints = []
        return copy
    }

    /// Whether the catalog declares the types the app resolves itself.
    public var declaresEntryPoints: Bool { !entryPoints.isEmpty }
}
