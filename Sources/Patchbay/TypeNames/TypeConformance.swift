/// What the runtime can say about a product type without a value of it,
/// through public casts only.
///
/// Swift has no public answer to "does this metatype conform to this
/// existential?" or "is this existential class-bound?" when the existential
/// reaches generic code as a type parameter: `Product.self is Provided.Type`
/// asks whether `Product` *is* `any P` (never, for a concrete product), not
/// whether it conforms, and `(any P).self is AnyObject.Type` is false even
/// for `protocol P: AnyObject`. Answering those from the type alone means
/// reading the runtime's metadata layouts, which differ across runtimes and
/// grow new kinds (parameterized protocols' extended existentials did).
///
/// So what is known is known, and the rest is `nil`: unknown until the
/// factory makes a value, which is checked then, before it is served
/// (``FactoryCatalog/providedTypes(of:_:factory:at:)`` and
/// ``CompiledBinding/requireClassInstance(_:path:)``). A catalog
/// description records `nil` as unknown, and the offline check says so.
enum TypeConformance {
    /// Whether a `Product` can be used as a `Provided`: `true` when it is
    /// that type or a subclass of it, `false` when both are classes and it
    /// is not, `nil` when only a value can tell (a protocol, a composition,
    /// a parameterized protocol, or a value type: the public casts cannot
    /// tell a struct's metatype from a protocol's).
    static func canConvert<Product, Provided>(_ product: Product.Type, to provided: Provided.Type) -> Bool? {
        if (product as Any.Type) is Provided.Type { return true }  // same type or a subclass
        // Two classes: the cast above is the whole answer. (A class-bound
        // protocol's metatype is not `AnyObject.Type`, so a protocol never
        // lands here.)
        if isClass(product) == true, isClass(provided) == true { return false }
        return nil
    }

    /// `true` when values of `type` are instances of a class (it is one);
    /// `nil` otherwise: a value type, or a protocol whose instances may or
    /// may not be class instances (even a class-bound protocol's metatype
    /// is not `AnyObject.Type`), which only a value can tell.
    static func isClass(_ type: Any.Type) -> Bool? {
        type is AnyObject.Type ? true : nil
    }

    /// Whether `value` is a class instance, which a `weak` reference can
    /// hold: for an existential, whatever the instance inside it is.
    static func isClassInstance<T>(_ value: T) -> Bool {
        type(of: value as Any) is AnyObject.Type
    }

}

extension CompiledBinding {
    /// Throws `factory-failed` (its underlying error `weak-value-type`,
    /// naming the registration) unless `made`, made for this `weak` binding,
    /// is a class instance: the check the validator could not make when the
    /// product type alone did not tell (see ``TypeConformance/isClass(_:)``).
    /// Free when the catalog knew the product is a class.
    /// The same check on a product box, as the engine holds what a factory
    /// made: the box, seen as a ``ProductBox``, whose object a weak
    /// reference can hold. `path` is the requested types' names, outermost
    /// first, ending with this binding's: the error names the whole request
    /// that reached it, as the engine's other errors do.
    func requireClassInstance(box made: AnyObject, path: [String]) throws(ResolutionError) -> any ProductBox {
        let product = made as! any ProductBox  // every product box is an `Instance`
        guard product.object == nil else { return product }
        let problem = RegistrationError.weakValueType(
            factory: definition.name, product: TypeKey.shortName(of: product.valueType), at: definition.registeredAt)
        throw .factoryFailed(problem, making: key.name, by: self, path: path)
    }

    func requireClassInstance<T>(_ made: T, path: [String]) throws(ResolutionError) {
        guard definition.productIsClass != true, !TypeConformance.isClassInstance(made) else { return }
        let problem = RegistrationError.weakValueType(
            factory: definition.name, product: TypeKey.shortName(of: type(of: made as Any)),
            at: definition.registeredAt)
        throw .factoryFailed(problem, making: key.name, by: self, path: path)
    }
}
