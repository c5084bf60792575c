// "Did you mean" through a prepared index (#28): each lookup costs a few
// probes per letter of the word, however many names there are. The index is
// held to its rule by a reference that compares every pair the slow way.
import Foundation
import Testing
@testable import Patchbay

@Suite struct SuggestionIndexTests {
    /// The rule, pair by pair and the slow way, case-insensitively: one
    /// begins or ends with the other; or deleting at most two letters from
    /// each (one from a longer than 24 letters) makes them equal, and at most
    /// a third of the letters differ.
    static func reference(for word: String, among names: [String], limit: Int = 3) -> [String] {
        let wordVariants = variants(word)
        var scored: [(name: String, distance: Int)] = []
        let lowered = word.lowercased()
        for name in Set(names) where name != word {
            let distance = EditDistance.between(word, name)
            let other = name.lowercased()
            let contained = !lowered.isEmpty && (lowered.hasPrefix(other) || lowered.hasSuffix(other)
                || other.hasPrefix(lowered) || other.hasSuffix(lowered))
            let longest = max(lowered.unicodeScalars.count, other.unicodeScalars.count)
            if contained || (distance <= max(1, longest / 3) && !variants(name).isDisjoint(with: wordVariants)) {
                scored.append((name, distance))
            }
        }
        scored.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.name < $1.name }
        return scored.prefix(limit).map(\.name)
    }

    /// Every way of deleting up to two letters (one, from more than 24 letters), lower-cased.
    static func variants(_ text: String) -> Set<[Unicode.Scalar]> {
        var result: Set<[Unicode.Scalar]> = [Array(text.lowercased().unicodeScalars)]
        for _ in 0..<(text.lowercased().unicodeScalars.count <= 24 ? 2 : 1) {
            for letters in result {
                for index in letters.indices {
                    var shorter = letters
                    shorter.remove(at: index)
                    result.insert(shorter)
                }
            }
        }
        return result
    }

    @Test func theIndexFindsWhatTheRuleFinds() {
        var generator = SplitMix(seed: 28)
        let alphabet = Array("abcdeéfgh-.".unicodeScalars)
        func randomName() -> String {
            var scalars = String.UnicodeScalarView()
            let length = Int.random(in: 0..<10, using: &generator) == 0 ? Int.random(in: 20...30, using: &generator)
                : Int.random(in: 1...9, using: &generator)
            for _ in 0..<length { scalars.append(alphabet.randomElement(using: &generator)!) }
            return String(scalars)
        }
        let names = (0..<150).map { _ in randomName() } + ["Logger", "NoteService", "sqlite", "file-store", "production"]
        let index = SuggestionIndex(names)
        var words = (0..<300).map { _ in randomName() }
        // Slips in the names themselves: one to three letters deleted, doubled or swapped.
        for name in names.prefix(150) {
            var letters = Array(name.unicodeScalars)
            for _ in 0..<Int.random(in: 1...3, using: &generator) where letters.count > 1 {
                let at = Int.random(in: 0..<letters.count - 1, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: letters.remove(at: at)
                case 1: letters.insert(letters[at], at: at)
                default: letters.swapAt(at, at + 1)
                }
            }
            var scalars = String.UnicodeScalarView()
            scalars.append(contentsOf: letters)
            words.append(String(scalars))
        }
        // Typos of real names: a letter missing, extra, wrong, swapped; and case.
        words += ["logger", "Loger", "Loggerr", "Lgoger", "NoteServce", "NoteSrevice", "sqlte", "file-stor", "FILE-STORE",
            "prod", "NoteServiceImpl", "store"]
        for word in words {
            let expected = Self.reference(for: word, among: names)
            #expect(index.suggestions(for: word) == expected, "\(word)")
            #expect(EditDistance.suggestions(for: word, among: names) == expected, "\(word)")
        }
        let real = ["Logger", "NoteService", "sqlite", "file-store", "production"]
        #expect(SuggestionIndex(real).suggestions(for: "Loger") == ["Logger"])
        #expect(SuggestionIndex(real).suggestions(for: "NoteSrevice") == ["NoteService"])
        #expect(SuggestionIndex(real).suggestions(for: "prod") == ["production"])
        #expect(SuggestionIndex(real + ["NoteStore"]).suggestions(for: "NoteStorage") == ["NoteStore"])
        #expect(EditDistance.suggestions(for: "sqlte", among: real) == ["sqlite"])
    }

    @Test func nearestFirstThenByName() {
        // One edit each (an insertion, a substitution, a deletion); two letters apart in the middle is too far.
        let index = SuggestionIndex(["file-store", "file-stir", "fil-stor", "fiXle-stXor"])
        #expect(index.suggestions(for: "file-stor") == ["fil-stor", "file-stir", "file-store"])
        #expect(index.suggestions(for: "file-stor", limit: 1) == ["fil-stor"])
        // A beginning or an ending, however far: the nearest three of all the names it begins or ends.
        let many = SuggestionIndex(["store", "file-store", "in-memory-store", "x-store", "memory"] + (0..<1_000).map { "store-\($0)" })
        #expect(many.suggestions(for: "store") == ["store-0", "store-1", "store-2"])
        #expect(many.suggestions(for: "e-store") == ["x-store", "store", "file-store"])
        #expect(many.suggestions(for: "memory-store") == ["in-memory-store", "memory", "store"])
        #expect(many.suggestions(for: "prod").isEmpty)
    }

    @Test func namesTooLongToCompareAreNeitherFoundNorLookedUp() {
        let long = String(repeating: "a", count: EditDistance.longestComparedName + 1)
        let index = SuggestionIndex([long, "short"])
        #expect(index.suggestions(for: long.dropLast() + "b").isEmpty)
        #expect(index.suggestions(for: String(long.dropLast())).isEmpty)
        #expect(index.suggestions(for: "shrt") == ["short"])
        #expect(SuggestionIndex([]).suggestions(for: "x").isEmpty)
    }

    @Test func amongManyLikeNamesTheNearestWins() {
        // Thousands of names a letter or two apart: each lookup still finds its own.
        let names = (0..<3_000).map { "factory-\($0)" }
        let index = SuggestionIndex(names)
        for number in stride(from: 0, to: 3_000, by: 10) {
            let suggestions = index.suggestions(for: "factory-\(number)x", limit: 1)
            #expect(suggestions == ["factory-\(number)"], "\(number): \(suggestions)")
        }
    }
}

