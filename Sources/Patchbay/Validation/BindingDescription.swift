/// One binding as validation concluded it: the type it binds, its factory,
/// the lifetime in effect and where that comes from, and the parent bindings
/// it overrides under `extends`. It is the one description of a binding:
/// ``Container/binding(for:from:)`` returns the one the running activation
/// was compiled from, and `patchbay explain` and `graph` read the validator's.
///
///     print(container.binding(for: (any NoteStore).self)!)
///     // NoteStore -> 'file-store' (singleton, primary)
///
/// Validation also describes a binding it found broken (an unknown factory,
/// an unknown protocol), so the tools can explain a manifest being repaired;
/// such a binding is never in effect in a container.
///
/// What validation records is cheap to make for every binding of a large
/// manifest at activation: places in the manifest and the catalog index, and
/// arrays both already hold. Names are read from them when asked for.
public struct BindingDescription: Sendable {
    /// The manifest's bindings, shared with the manifest (no copy).
    let bindings: [Binding]
    /// The binding's place in ``bindings``.
    package let index: Int
    /// The catalog index's types, shared with it; nil without a catalog.
    let types: [CatalogIndex.TypeInfo]?
    /// The bound type: its place in the catalog index; past the catalog's
    /// types (or with no catalog), a name the run numbered as written.
    package let typeID: CatalogIndex.TypeID
    /// The factory's place in the catalog index, which for a live catalog is
    /// its place in registration order; -1 when unknown or without a catalog.
    let factoryPlace: Int
    /// Which of the factory's provided types this binding serves (its place
    /// in `provides`); -1 when the factory does not provide it or is unknown.
    let provided: Int
    /// The lifetime in effect. When the binding names none and no catalog
    /// says the factory's default, this is the transient a binding gets when
    /// neither names one (the package's `lifetimeSource` is then `unknown`:
    /// plain code, not a symbol link, as public documentation cannot link to
    /// package symbols).
    public let lifetime: Lifetime
    /// Where ``lifetime`` comes from.
    package let lifetimeSource: Lifetime.Source
    /// The injector the binding belongs to.
    public let injector: InjectorName
    /// The injector's place in the injector order (`Int.max` when it is not in it): found once,
    /// where the checks, the serving table and compiling each hashed the name again.
    let injectorRank: Int
    /// The decoded parameters (live catalog only). Set after the binding's other checks when its
    /// parameters are checked on every core (see `ValidationRun.checkDeferredParameters()`).
    var parameters: (any Sendable)?
    /// Whether some check failed: the binding counts as bound for its
    /// dependents (no follow-on `missing-dependency`), but is not in effect.
    package internal(set) var isBroken: Bool
    /// The chain of decorators around the factory's product, in order, as
    /// validation concluded it; empty for most bindings.
    var decorators: [DecoratorLink] = []
    /// The places in ``bindings`` of the parent bindings this one replaces
    /// under `extends`, nearest parent first. Empty unless a type is bound
    /// in more than one file, so the usual activation allocates nothing here.
    var overridden: [Int] = []

    // MARK: - What users and the tools read

    /// The manifest's binding this stands for, as the file wrote it
    /// (parameters after `${...}` interpolation). A copy: the properties below read one field of
    /// it where it stands, as a copy of a binding retains and releases a dozen references.
    public var binding: Binding { bindings[index] }

    /// The bound type's short name when the catalog knows the type, else the
    /// protocol name as the binding wrote it.
    public var type: String { catalogType?.short ?? bindings[index].protocolName }

    /// The bound type's module-qualified name, when the catalog knows the type.
    public var qualifiedType: String? { catalogType?.qualified }

    /// The factory's name, as the binding wrote it.
    public var factory: String { bindings[index].factory }

    /// The bindings of parent manifests this one replaces under `extends`, nearest parent first.
    /// For a collection, its first element lists the parents' elements the collection replaces.
    public var overrides: [Binding] { overridden.map { bindings[$0] } }

    /// Whether the binding is an element of its type's collection (see ``Binding/isCollectionElement``).
    public var isCollectionElement: Bool { bindings[index].isCollectionElement }

    /// Whether the catalog knows the binding's type and its factory, and the
    /// factory provides the type; true without a catalog, which cannot say.
    var isKnownToCatalog: Bool { types == nil || provided >= 0 }

    private var catalogType: CatalogIndex.TypeInfo? {
        guard let types, typeID < types.count else { return nil }
        return types[typeID]
    }
}

extension BindingDescription: Hashable {
    /// Equal when they describe the same binding with the same conclusions;
    /// the decoded parameters, which need not be equatable, are left out:
    /// they follow from the binding's.
    public static func == (lhs: BindingDescription, rhs: BindingDescription) -> Bool {
        lhs.binding == rhs.binding && lhs.type == rhs.type && lhs.qualifiedType == rhs.qualifiedType
            && lhs.lifetime == rhs.lifetime && lhs.lifetimeSource == rhs.lifetimeSource
            && lhs.injector == rhs.injector && lhs.isBroken == rhs.isBroken && lhs.overrides == rhs.overrides
    }

    /// Hashes the binding and its injector, which tell descriptions apart.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(binding)
        hasher.combine(injector)
    }
}

extension BindingDescription: CustomStringConvertible {
    /// `NoteStore -> 'file-store' (singleton, primary)`, then ` decorated by 'timing-store'` for a chain;
    /// for an element of a collection, `[Plugin] -> ...`.
    public var description: String {
        "\(isCollectionElement ? "[\(type)]" : type) -> '\(factory)' (\(lifetime), \(injector))"
            + (binding.decorators.isEmpty ? ""
                : " decorated by " + binding.decorators.map { "'\($0.name)'" }.joined(separator: " -> "))
    }
}
