// The catalog the bad-manifest corpus is checked against: small, and shaped so
// that every diagnostic code can be produced by some manifest. Its types are
// nested in `Corpus`, so their short names (`OrderStore`) stay clear of the
// other fixtures'; the generic `Thing` is top-level, so that its qualified
// name is `PatchbayTests.Thing<Swift.Int>`.
import Foundation
@testable import Patchbay

/// A generic product, to check that generic type names resolve.
struct Thing<Value: Sendable>: Sendable {
    let value: Value
}

enum Corpus {
    protocol OrderStore: AnyObject, Sendable {}
    protocol Connection: AnyObject, Sendable {}
    protocol PriceFeed: Sendable {}
    protocol Courier: Sendable {}
    protocol Route: Sendable {}
    protocol RequestContext: AnyObject, Sendable {}
    protocol AuditLog: AnyObject, Sendable {}
    protocol Notifier: Sendable {}
    /// The element type of the corpus's collections.
    protocol Interceptor: Sendable {}
    enum Retail { protocol Catalog: Sendable {} }
    enum Wholesale { protocol Catalog: Sendable {} }

    final class Object: OrderStore, Connection, RequestContext, AuditLog {}
    struct Value: PriceFeed, Courier, Route, Notifier, Interceptor, Retail.Catalog, Wholesale.Catalog {}
    /// Runs the interceptors it was given.
    final class Pipeline: Sendable { init(_ interceptors: [any Interceptor]) {} }
    struct RetryOptions: Decodable, Sendable { var attempts: Int }
    struct Cart: Sendable {}
    final class Checkout: Sendable { init(cart: Cart) {} }
    final class CheckoutScreen: Sendable { init(checkout: Checkout) {} }

    struct SQLOptions: Decodable, Sendable {
        var path: String
        var poolSize: Int?
    }

    struct WebhookOptions: Decodable, Sendable {
        var url: String
        var retries: Int
    }

    /// Options whose decoder checks a range: only the real type knows it.
    struct PoolOptions: Decodable, Sendable {
        var size: Int
        enum CodingKeys: String, CodingKey { case size }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            size = try container.decode(Int.self, forKey: .size)
            guard (1...64).contains(size) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .size, in: container, debugDescription: "size must be from 1 to 64")
            }
        }
    }

    /// Nested options: an object with required keys, an array, an optional boolean.
    struct RelayOptions: Decodable, Sendable {
        struct Server: Decodable, Sendable {
            var host: String
            var port: Int
        }
        var server: Server
        var headers: [String]
        var secure: Bool?
    }
}

extension FactoryCatalog {
    /// The bad-manifest corpus's catalog: 23 factories and 5 decorators.
    static var corpus: FactoryCatalog {
        var catalog = FactoryCatalog()
        // OrderStore: one needs a Connection and takes parameters, one needs nothing.
        catalog.register("sql-orders", provides: (any Corpus.OrderStore).self, parameters: Corpus.SQLOptions.self) {
            (_: Corpus.SQLOptions, _: any Corpus.Connection) in Corpus.Object()
        }
        catalog.register("memory-orders", provides: (any Corpus.OrderStore).self) { Corpus.Object() }
        catalog.register("pg-connection", provides: (any Corpus.Connection).self) { Corpus.Object() }
        // A value-type product: `weak` is an error.
        catalog.register("fixed-prices", provides: (any Corpus.PriceFeed).self) { Corpus.Value() }
        // A cycle: Courier needs Route needs Courier.
        catalog.register("courier", provides: (any Corpus.Courier).self) { (_: any Corpus.Route) in Corpus.Value() }
        catalog.register("route", provides: (any Corpus.Route).self) { (_: any Corpus.Courier) in Corpus.Value() }
        // Captive: bind audit-log singleton and request-context scoped.
        catalog.register("request-context", provides: (any Corpus.RequestContext).self) { Corpus.Object() }
        catalog.register("audit-log", provides: (any Corpus.AuditLog).self) { (_: any Corpus.RequestContext) in
            Corpus.Object()
        }
        catalog.register("webhook", provides: (any Corpus.Notifier).self, parameters: Corpus.WebhookOptions.self) {
            _ in Corpus.Value()
        }
        catalog.register("pooled-orders", provides: (any Corpus.OrderStore).self, parameters: Corpus.PoolOptions.self) {
            _ in Corpus.Object()
        }
        catalog.register("relay", provides: (any Corpus.Notifier).self, parameters: Corpus.RelayOptions.self) {
            _ in Corpus.Value()
        }
        // A resolve-time argument: nothing can depend on checkout.
        catalog.register("checkout", provides: Corpus.Checkout.self, argument: Corpus.Cart.self) { cart in
            Corpus.Checkout(cart: cart)
        }
        catalog.register("checkout-screen", provides: Corpus.CheckoutScreen.self) { (checkout: Corpus.Checkout) in
            Corpus.CheckoutScreen(checkout: checkout)
        }
        // Two types whose short name is `Catalog`.
        catalog.register("retail-catalog", provides: (any Corpus.Retail.Catalog).self) { Corpus.Value() }
        catalog.register("wholesale-catalog", provides: (any Corpus.Wholesale.Catalog).self) { Corpus.Value() }
        // Generic products: `Thing<Int>` and `Thing<String>`.
        catalog.register("int-thing", provides: Thing<Int>.self) { Thing(value: 1) }
        catalog.register("string-thing", provides: Thing<String>.self) { Thing(value: "one") }
        catalog.register("thing-holder", provides: (any Corpus.Courier).self) { (_: Thing<Int>) in Corpus.Value() }
        // Collections: a pipeline needs every Interceptor; one interceptor takes
        // parameters, one a resolve-time argument, and one needs the pipeline (a cycle).
        catalog.register("pipeline", provides: Corpus.Pipeline.self) { (interceptors: [any Corpus.Interceptor]) in
            Corpus.Pipeline(interceptors)
        }
        catalog.register("retry-interceptor", provides: (any Corpus.Interceptor).self, parameters: Corpus.RetryOptions.self) {
            _ in Corpus.Value()
        }
        catalog.register("logging-interceptor", provides: (any Corpus.Interceptor).self) { Corpus.Value() }
        catalog.register("tenant-interceptor", provides: (any Corpus.Interceptor).self, argument: String.self) { _ in
            Corpus.Value()
        }
        catalog.register("nested-interceptor", provides: (any Corpus.Interceptor).self) { (_: Corpus.Pipeline) in
            Corpus.Value()
        }
        // Decorators: of OrderStore (one needing an AuditLog, one taking parameters, one for tests
        // only, one needing the type it decorates), and one of Notifier.
        catalog.registerDecorator("audited-orders", decorates: (any Corpus.OrderStore).self) {
            (inner: any Corpus.OrderStore, _: any Corpus.AuditLog) in inner
        }
        catalog.registerDecorator("retrying-orders", decorates: (any Corpus.OrderStore).self,
                                  parameters: Corpus.RetryOptions.self) { (inner: any Corpus.OrderStore, _: Corpus.RetryOptions) in inner }
        catalog.registerDecorator("recording-orders", decorates: (any Corpus.OrderStore).self, environments: ["test"]) {
            (inner: any Corpus.OrderStore) in inner
        }
        catalog.registerDecorator("looping-orders", decorates: (any Corpus.OrderStore).self) {
            (inner: any Corpus.OrderStore, _: any Corpus.OrderStore) in inner
        }
        catalog.registerDecorator("quiet-notifier", decorates: (any Corpus.Notifier).self) { (inner: any Corpus.Notifier) in inner }
        return catalog
    }
}
