import Foundation

/// Where in the app's source a factory was registered.
public struct CodeLocation: Hashable, Sendable, CustomStringConvertible {
    /// The file as the call site gave it: a literal is kept as it is and
    /// made into a `String` only when read, which is rarely (messages, the
    /// catalog description). Making one at each registration cost about a
    /// tenth of registering a factory. `text` is the file when there is no literal.
    private let literal: StaticString?
    private let text: String
    /// The file, as `#fileID` gives it (`NotesKit/NotesCatalog.swift`).
    public var fileID: String { literal?.description ?? text }
    /// The 1-based line.
    public let line: Int
    /// Creates a location.
    public init(fileID: String, line: Int) {
        self.literal = nil
        self.text = fileID
        self.line = line
    }
    /// Creates a location from the literals a call site passes.
    init(_ fileID: StaticString, _ line: UInt) {
        self.literal = fileID
        self.text = ""
        self.line = Int(line)
    }
    /// `file:line`.
    public var description: String { "\(fileID):\(line)" }

    /// Whether two locations name the same file and line, however each was made.
    public static func == (lhs: CodeLocation, rhs: CodeLocation) -> Bool {
        lhs.line == rhs.line && lhs.fileID == rhs.fileID
    }
    /// Hashes the file and line, as `==` compares them.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(fileID)
        hasher.combine(line)
    }
}

/// A type a factory provides, with the conversion from the factory's product
/// box to a box of that type.
struct ProvidedType: Sendable {
    let key: TypeKey
    /// The provided type itself: activation makes `[type]` from it, the
    /// type a collection of this type's elements is resolved as.
    let type: any Any.Type
    /// Turns the factory's `Instance<Product>` into an `Instance<Provided>`.
    /// `nil` when the product already is the provided type (the common,
    /// compiler-checked case): no conversion, no cast.
    let convert: (@Sendable (AnyObject) -> AnyObject)?
}

/// How a factory gets one of its dependencies.
@usableFromInline
struct DependencySpec: Sendable {
    enum Kind: String, Sendable, Codable, CaseIterable {
        /// Resolved when the factory runs; missing is an error.
        case direct
        /// `T?`: nil when the type is not bound.
        case optional
        /// `Lazy<T>`: resolved on first use, so it may close a cycle.
        case lazy
        /// `[T]`: every element of `T`'s collection, in manifest order; `[]` when it has none.
        case collection
        /// `Lazy<[T]>`: a collection read on first use, so, like a `Lazy`, it may close a cycle.
        /// (`Provider<[T]>` is checked as this too: a collection read later.)
        case lazyCollection = "lazy-collection"
        /// `Provider<T>`: resolved anew at each call, so, like a `Lazy`, it may close a cycle.
        case provider

        /// Whether the need is a collection's elements, taken now or lazily.
        var isCollection: Bool { self == .collection || self == .lazyCollection }
        /// Whether the need is read later (a `Lazy` or a `Provider`), so it is no edge of a cycle.
        var isLazy: Bool { self == .lazy || self == .lazyCollection || self == .provider }
    }
    let key: TypeKey
    let kind: Kind
    /// For optional, lazy and collection needs: makes the wrapper value from a call.
    let makeWrapper: (@Sendable (FactoryCall) throws -> Any)?
    /// The same, for the call of an `async` factory.
    var makeAwaitingWrapper: (@Sendable (AwaitingCall) async throws -> Any)? = nil

    /// Works out what kind of need `D` is, once, at registration.
    static func of<D>(_ type: D.Type) -> DependencySpec {
        if let optional = type as? any OptionalDependency.Type { return optional.dependencySpec }
        if let lazy = type as? any LazyDependency.Type { return lazy.dependencySpec }
        let key = TypeKey(type)
        // Only an array is asked whether it is one: a conformance the runtime
        // has not yet looked up for a type costs a search of every
        // conformance record, which registering 1,000 factories would pay
        // once per dependency type. The name is made for the key anyway.
        if key.isArray, let collection = type as? any CollectionDependency.Type { return collection.dependencySpec }
        return DependencySpec(key: key, kind: .direct, makeWrapper: nil)
    }

    /// For `Lazy<[T]>`, `Provider<[T]>` and `[T]?`, whose spec is this one: a need of `T`'s
    /// collection (checked as `[T]` is: never missing, each element a
    /// dependency), made by this spec's wrapper. Any other wrapper as it is.
    func wrappingACollection<Value>(of _: Value.Type) -> DependencySpec {
        guard key.isArray, let collection = Value.self as? any CollectionDependency.Type else { return self }
        return DependencySpec(
            key: collection.dependencySpec.key, kind: kind.isLazy ? .lazyCollection : .collection,
            makeWrapper: makeWrapper,
            makeAwaitingWrapper: makeAwaitingWrapper)
    }
}

/// The parameters type a factory declares, decoded from a binding's `parameters`.
struct ParametersSpec: Sendable {
    let typeName: String
    /// Decodes a binding's parameters (their JSON text) into the type, with `JSONDecoder`.
    let decode: @Sendable (Data, JSONDecoder) throws -> any Sendable
    /// What is known of the type's fields under `JSONDecoder`'s default
    /// strategies, found by a dry run of its `init(from:)` when it is registered,
    /// and whether they are every key the type reads (see ``ParameterShapeProbe/shape(of:decoding:)``).
    let shape: (fields: [CatalogDescription.ParameterField]?, isClosed: Bool)
    /// The dry run again, for a catalog whose ``ParameterDecoding`` is not the default.
    let probe: @Sendable (ParameterDecoding) -> (fields: [CatalogDescription.ParameterField]?, isClosed: Bool)

    static func of<P: Decodable & Sendable>(_ type: P.Type) -> ParametersSpec {
        ParametersSpec(
            typeName: TypeKey.qualifiedName(of: type),
            decode: { json, decoder in try decoder.decode(P.self, from: json) },
            shape: ParameterShapeProbe.shape(of: type),
            probe: { ParameterShapeProbe.shape(of: type, decoding: $0) }
        )
    }

    /// The type as a decoder with `decoding`'s strategies reads it, for the catalog description.
    func described(for decoding: ParameterDecoding) -> CatalogDescription.Parameters {
        let shape = decoding == .default ? shape : probe(decoding)
        return .init(type: typeName, fields: shape.fields, closed: shape.isClosed ? true : nil)
    }
}

/// Everything the catalog knows of one factory.
///
/// A class, though immutable: the catalog, a validation run and every
/// compiled binding share one, where copying a struct of this many
/// references (names, closures, arrays) would retain and release each of
/// them every time.
final class FactoryDefinition: Sendable {
    let name: String
    let provides: [ProvidedType]
    /// What the factory needs, in closure-parameter order; `nil` when the
    /// factory resolves by hand and its needs are unknown to static checks.
    let dependencies: [DependencySpec]?
    let defaultLifetime: Lifetime?
    let productTypeName: String
    let productIsClass: Bool?
    let parameters: ParametersSpec?
    let argument: TypeKey?
    let registeredAt: CodeLocation
    /// Makes the product into uninitialized memory for a `Product`, with no
    /// box: how transients are made when the product is the bound type
    /// (see ``TransientLifetime``).
    /// Not optional: an optional closure is stored in its most general form,
    /// and calling it from specialized code would allocate a reabstraction
    /// thunk each time. `buildsInto` says whether it is real.
    let buildInto: @Sendable (FactoryCall, ProductMemory) throws -> Void
    /// Whether there is a real `buildInto`.
    let buildsInto: Bool
    /// Makes the product, boxed as `Instance<Product>`. For an `async`
    /// factory it throws: only ``buildAwaiting`` can make the product.
    let build: @Sendable (FactoryCall) throws -> AnyObject
    /// Where the closure runs: anywhere, on the main actor, or awaited.
    let execution: FactoryExecution
    /// Makes an `async` factory's product, boxed, awaiting its needs;
    /// ``AwaitedMaking/never`` for the others. Not optional: unwrapping it
    /// copied it once more, an outlined copy each awaited product (65
    /// instructions, Benchmarks/README.md "Stop 65").
    let buildAwaiting: AwaitedMaking
    /// For a factory of one provided type `T`: makes `[T]` for a collection
    /// of `T`'s elements, specialized for `T` where a registration knew it
    /// statically. Nil where none did (activation then makes an
    /// unspecialized one, see ``CollectionMaker``). Kept here rather than
    /// in ``ProvidedType``, which validation and activation copy several
    /// times per binding, each copy retaining what it holds.
    let collection: CollectionMaker?

    /// The definition of a factory whose product is `Product`; it provides
    /// that type alone unless `provides` says otherwise (several types).
    /// `buildInto` is taken as it is, never through an optional: a closure
    /// passed through an optional parameter of this generic initializer is
    /// reabstracted, and every transient built into memory then calls it
    /// through two thunks (892 instructions a transient under callgrind, not 858).
    init<Product>(
        name: String, product: Product.Type, provides: [ProvidedType]? = nil, dependencies: [DependencySpec]?,
        defaultLifetime: Lifetime?, parameters: ParametersSpec? = nil, argument: TypeKey? = nil,
        registeredAt: CodeLocation, collection: CollectionMaker? = nil,
        buildInto: @escaping @Sendable (FactoryCall, ProductMemory) throws -> Void, buildsInto: Bool = true,
        execution: FactoryExecution = .synchronous,
        buildAwaiting: AwaitedMaking = .never,
        build: @escaping @Sendable (FactoryCall) throws -> AnyObject
    ) {
        let key = TypeKey(product)  // its name is the product's: one demangling, not two
        self.name = name
        self.provides = provides ?? [ProvidedType(key: key, type: product, convert: nil)]
        self.dependencies = dependencies
        self.defaultLifetime = defaultLifetime
        self.productTypeName = key.qualifiedName
        self.productIsClass = TypeConformance.isClass(product)
        self.parameters = parameters
        self.argument = argument
        self.registeredAt = registeredAt
        self.buildInto = buildInto
        self.buildsInto = buildsInto
        self.build = build
        self.execution = execution
        self.buildAwaiting = buildAwaiting
        self.collection = collection
    }

    /// The definition a decorated binding is compiled with: `inner`'s in
    /// everything (name, needs, argument, place, where it runs), but whose
    /// product, always boxed, is `build`'s: the inner product wrapped by its
    /// chain (see ``DecoratorChain``), and which runs as `execution` says (a
    /// main-actor link makes the chain main-actor, an `async` one awaited:
    /// then `buildAwaiting` makes it). Made at activation, once per decorated binding.
    init(
        decorating inner: FactoryDefinition, execution: FactoryExecution, buildAwaiting: AwaitedMaking = .never,
        build: @escaping @Sendable (FactoryCall) throws -> AnyObject
    ) {
        name = inner.name
        provides = inner.provides
        dependencies = inner.dependencies
        defaultLifetime = inner.defaultLifetime
        productTypeName = inner.productTypeName
        productIsClass = inner.productIsClass
        parameters = inner.parameters
        argument = inner.argument
        registeredAt = inner.registeredAt
        buildInto = Self.alwaysBoxed
        buildsInto = false
        self.build = build
        self.execution = execution
        self.buildAwaiting = buildAwaiting
        collection = nil
    }

    /// The `buildInto` of a factory whose product is always boxed (an
    /// `async`, main-actor or several-types one), passed with
    /// `buildsInto: false`, so the engine never calls it.
    static let alwaysBoxed: @Sendable (FactoryCall, ProductMemory) throws -> Void = { _, _ in
        fatalError("Patchbay: this factory's product is always boxed")
    }
}
