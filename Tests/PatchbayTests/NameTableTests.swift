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
}
