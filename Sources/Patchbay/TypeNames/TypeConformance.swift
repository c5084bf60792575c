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

}

extension CompiledBinding {
    /// The product box `made`, made for this `weak` binding, seen as a
    /// ``ProductBox`` whose object a weak reference can hold; throws
    /// `weak-value-type` (naming the registration) when the product is not
    /// a class instance: the check the validator could not make when the
    /// product type alone did not tell (see ``TypeConformance/isClass(_:)``).
    /// The engine's frame wraps the error as `factory-failed`, with the path.
    func requireClassInstance(box made: AnyObject) throws(RegistrationError) -> any ProductBox {
        let product = made as! any ProductBox  // every product box is an `Instance`
        guard product.object == nil else { return product }
        throw RegistrationError.weakValueType(
            factory: definition.name, product: TypeKey.shortName(of: product.valueType), at: definition.registeredAt,
            chainOf: definition.isDecorator ? key.name : nil)
    }
}
