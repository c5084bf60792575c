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

    /// Types of every form a catalog may be asked to provide.
    static let types: [Any.Type] = [
        (any Database).self, (any Database & Second).self, (any Database)?.self, FakeDatabase.self,
        Outer.self, Outer.Inner.self, Box<Int>.self, Box<any Database>.self, Flavor.self, Café.self,
        _Under_score9.self, Hidden.self, Int.self, String?.self, [Int].self, [String: Int].self,
        (Int, String).self, ((Int) -> String).self, Any.self, AnyObject.self, Int.Type.self,
        (any Database.Type).self, Void.self,
    ]

    @Test(arguments: types.indices)
    func everyKeyHasTheRuntimesShortName(_ index: Int) {
        let type = Self.types[index]
        func key<T>(_: T.Type) -> TypeKey { TypeKey(T.self) }
        let made = _openExistential(type, do: key)
        #expect(made.name == TypeKey.shortName(of: type), "\(made.qualifiedName)")
        #expect(made.qualifiedName == TypeKey.qualifiedName(of: type))
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
