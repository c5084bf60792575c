@testable import Patchbay
import Testing

/// The name table activation looks the manifest's names up in.
struct NameTableTests {
    @Test func findsEveryNameItHoldsAndNoOther() {
        var table = NameTable<Int>()
        let names = (0..<5_000).map { "Name\($0)" } + ["", "a", "Café", "日本語", String(repeating: "long", count: 50)]
        for (index, name) in names.enumerated() {
            table.update(name, initial: index) { _ in }
        }
        #expect(table.count == names.count)
        for (index, name) in names.enumerated() {
            #expect(table[name] == index, "\(name)")
        }
        for missing in ["Name5000", "name1", "Name 1", "Cafe", "b", "Name1 "] {
            #expect(table[missing] == nil, "\(missing)")
        }
    }

    @Test func updateChangesAValueInPlaceAndMakesANewOneFromItsInitialValue() {
        var table = NameTable<[Int]>(capacity: 2)
        for value in 0..<10 {
            table.update("even", initial: []) { if value % 2 == 0 { $0.append(value) } }
            table.update("odd", initial: [-1]) { if value % 2 == 1 { $0.append(value) } }
        }
        #expect(table["even"] == [0, 2, 4, 6, 8])
        #expect(table["odd"] == [-1, 1, 3, 5, 7, 9])
        #expect(table.update("even", initial: []) { $0.count } == 5)
        #expect(table.count == 2)
    }

    /// Names differing only in bytes past the first, or by their order, do not collide into one.
    @Test func namesOfOneLengthAndLettersStayApart() {
        var table = NameTable<String>()
        let names = ["ab", "ba", "abc", "acb", "bac", "bca", "cab", "cba", "G1", "G10", "G100", "G01"]
        for name in names { table.update(name, initial: name) { _ in } }
        for name in names { #expect(table[name] == name) }
    }

    /// Names are matched as `String`s are, by canonical equivalence, as the
    /// dictionary this table replaced matched them: a name written with a
    /// combining accent is the one written with the accented letter, and a
    /// Kelvin sign is a K.
    @Test(arguments: [
        ("caf\u{E9}", "cafe\u{301}"), ("\u{212A}", "K"), ("Gr\u{F6}\u{DF}e", "Gro\u{308}\u{DF}e"),
        ("\u{1E9B}\u{323}", "\u{17F}\u{323}\u{307}"),
    ])
    func canonicallyEquivalentNamesAreOneName(_ stored: String, _ asked: String) {
        #expect(stored == asked)  // the premise: `String` calls them equal
        var table = NameTable<Int>()
        for index in 0..<100 { table.update("name\(index)", initial: index) { _ in } }
        table.update(stored, initial: -1) { _ in }
        #expect(table[asked] == -1)
        #expect(table.update(asked, initial: -2) { $0 } == -1)
        #expect(table.count == 101)

        var reversed = NameTable<Int>()
        reversed.update(asked, initial: 1) { _ in }
        #expect(reversed[stored] == 1)
    }

    /// A catalog tells two spellings of one factory name apart no more than
    /// `String` does: registering both is a duplicate, and either finds it.
    @Test func aFactoryNameInAnotherCanonicalSpellingIsTheSameFactory() throws {
        var catalog = FactoryCatalog()
        catalog.register("caf\u{E9}", provides: (any Database).self) { FakeDatabase(label: "composed") }
        #expect(catalog.contains(factory: "cafe\u{301}"))
        var other = FactoryCatalog()
        other.register("cafe\u{301}", provides: (any Database).self) { FakeDatabase(label: "decomposed") }
        let decomposed = try #require(other.definition(named: "caf\u{E9}"))
        #expect(throws: RegistrationError.self) { try catalog.add(decomposed) }
        #expect(catalog.factoryNames.count == 1)

        // A manifest may spell it either way, and activation picks that factory.
        let container = try Container(catalog: catalog, manifest: manifest([bind("Database", to: "cafe\u{301}")]))
        #expect((try container.resolve((any Database).self) as? FakeDatabase)?.label == "composed")
    }
}
