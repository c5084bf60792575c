@testable import Patchbay
import Testing

/// A type's two names. Registration reads the short name off the qualified
/// one when that is a plain `Module.Name`, instead of asking the runtime a
/// second time: these tests hold that shortcut to the runtime's answer.
struct TypeKeyTests {
    struct Outer { struct Inner {} }
    struct Box<Value> {}
    enum Flavor { case plain }
    struct Café {}
    struct _Under_score9 {}
    fileprivate struct Hidden {}
    protocol Second {}
    class Base {}
    private protocol Private {}
    fileprivate protocol FilePrivate: AnyObject {}

    /// Types of every form a catalog may be asked to provide.
    static let types: [Any.Type] = [
        (any Database).self, (any Database & Second).self, (any Database)?.self, FakeDatabase.self,
        Outer.self, Outer.Inner.self, Box<Int>.self, Box<any Database>.self, Flavor.self, Café.self,
        _Under_score9.self, Hidden.self, Int.self, String?.self, [Int].self, [String: Int].self,
        (Int, String).self, ((Int) -> String).self, Any.self, AnyObject.self, Int.Type.self,
        (any Database.Type).self, Void.self, (any Second).self, (any Private).self, (any FilePrivate).self,
        (any Database & Sendable).self, (any Base & Second).self, (any Error).self, (any Sendable).self,
        (any CustomStringConvertible).self, (any Hashable).self, (any Encodable & Decodable).self,
        (any TopLevelClassBound).self, (any _UnderscoredProtocol9).self, (any Greeting & AnyObject).self,
        (any TopLevelClassBound & AnyObject).self, (any Database & AnyObject).self,
    ]

    @Test(arguments: types.indices)
    func everyKeyHasTheRuntimesShortName(_ index: Int) {
        let type = Self.types[index]
        func key<T>(_: T.Type) -> TypeKey { TypeKey(T.self) }
        let made = _openExistential(type, do: key)
        #expect(made.name == TypeKey.shortName(of: type), "\(made.qualifiedName)")
        #expect(made.qualifiedName == TypeKey.qualifiedName(of: type))
    }

    /// `any P & AnyObject` of a protocol that is not class-bound is a type
    /// of its own, though its metadata lists the one protocol: a factory
    /// that provides it does not provide `P`, and a manifest names it as
    /// the runtime does.
    @Test func aClassBoundCompositionIsNotTheProtocolItself() throws {
        #expect(TypeKey((any Greeting & AnyObject).self).name == "Greeting & AnyObject")
        var catalog = FactoryCatalog()
        catalog.register("class-greeting", provides: (any Greeting & AnyObject).self) { ClassGreeting() }
        let asProtocol = manifest([bind("Greeting", to: "class-greeting")])
        #expect(throws: ManifestError.self) { try Container(catalog: catalog, manifest: asProtocol) }
        let asComposition = manifest([bind("Greeting & AnyObject", to: "class-greeting")])
        let container = try Container(catalog: catalog, manifest: asComposition)
        #expect(try container.resolve((any Greeting & AnyObject).self) is ClassGreeting)
    }

    @Test func thePlainFormIsReadOffTheQualifiedName() {
        #expect(TypeKey.shortName(fromQualified: "PatchbayTests.Database") == "Database")
        #expect(TypeKey.shortName(fromQualified: "Swift.Int") == "Int")
        #expect(TypeKey.shortName(fromQualified: "M.a_9") == "a_9")
    }

    @Test(arguments: [
        "Database", "PatchbayTests.TypeKeyTests.Outer", "Swift.Optional<Swift.Int>", ".Database", "Database.",
        "PatchbayTests.Database & PatchbayTests.Second", "(Swift.Int, Swift.String)", "PatchbayTests.Café",
        "", "M..N", "M.N ",
    ])
    func everyOtherFormGoesToTheRuntime(_ qualified: String) {
        #expect(TypeKey.shortName(fromQualified: qualified) == nil)
    }
}

protocol TopLevelClassBound: AnyObject {}
/// A class conforming to `Greeting`, a protocol that is not class-bound.
final class ClassGreeting: Greeting { let text = "class" }
protocol _UnderscoredProtocol9 {}
