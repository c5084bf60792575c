/// "Did you mean ...?" among a fixed list of names, prepared once so that a
/// lookup costs the same however many names there are: a manifest is
/// untrusted input, and one with 400,000 misspelt names must not cost
/// 400,000 passes over the catalog.
///
/// It suggests what ``EditDistance`` suggests (the rule is written there),
/// at most three names, nearest first. The index holds hashes of each name,
/// of each way of deleting the letters the rule lets it lose, and of each of
/// its beginnings and endings (for each of those, only the three nearest
/// names), in a hash table. A lookup hashes the same of the word, each in
/// constant time, and checks the names they lead to by the rule: a probe per
/// letter of the word (per pair of letters, for a word of up to
/// ``EditDistance/deepestDeletionLength`` letters).
package struct SuggestionIndex: Sendable {
    /// The most suggestions a lookup gives: the index keeps that many names per beginning and ending.
    package static let maximumLimit = 3

    /// The names, each once, in the order first given.
    private let names: [String]
    /// Each name as compared (``EditDistance/folded(_:)``); empty when too long to compare.
    private let folded: [[Unicode.Scalar]]
    /// The names under each key, the nearest first, key after key.
    private let owners: [Int32]
    /// Each key's run of ``owners``, in an open-addressing table: a key
    /// (never 0, which marks an empty slot), where its run starts, and its length.
    private let slots: [(key: UInt64, start: Int32, count: Int32)]

    /// Prepares the index of `names` (repeats are kept once).
    package init(_ names: some Sequence<String>) {
        var unique: [String] = []
        var seen: Set<String> = []
        for name in names where seen.insert(name).inserted { unique.append(name) }
        // A name too long to compare keeps its place but is never found.
        let folded = unique.map { EditDistance.folded($0) ?? [] }
        // The names shortest first, then by name: under a beginning or an
        // ending, the nearest of the names that share it.
        let byNearness = unique.indices.sorted {
            folded[$0].count != folded[$1].count ? folded[$0].count < folded[$1].count : unique[$0] < unique[$1]
        }
        var entries: [(key: UInt64, rank: Int32, capped: Bool)] = []
        for (rank, offset) in byNearness.enumerated() where !folded[offset].isEmpty {
            let letters = folded[offset], hashes = Hashes(letters), rank = Int32(rank)
            hashes.forEachDeletion { entries.append(($0, rank, false)) }
            entries.append((hashes.beginning(letters.count, as: .name), rank, false))
            for length in 1..<letters.count {
                entries.append((hashes.beginning(length, as: .beginning), rank, true))
                entries.append((hashes.ending(length, as: .ending), rank, true))
            }
        }
        entries.sort { ($0.key, $0.rank) < ($1.key, $1.rank) }
        var owners: [Int32] = []
        owners.reserveCapacity(entries.count)
        var runs: [(key: UInt64, start: Int32, count: Int32)] = []
        for entry in entries {
            if runs.last?.key != entry.key { runs.append((entry.key, Int32(owners.count), 0)) }
            // A beginning such as `n` is shared by many names: only the nearest can be suggested.
            if entry.capped, runs[runs.count - 1].count >= Self.maximumLimit { continue }
            owners.append(Int32(byNearness[Int(entry.rank)]))
            runs[runs.count - 1].count += 1
        }
        var slots = Array(repeating: (key: UInt64(0), start: Int32(0), count: Int32(0)),
            count: 1 << (Int.bitWidth - (max(2, runs.count * 2) - 1).leadingZeroBitCount))  // the least power of two not below both
        for run in runs {
            var slot = Int(truncatingIfNeeded: run.key >> 1) & (slots.count - 1)
            while slots[slot].key != 0 { slot = (slot + 1) & (slots.count - 1) }
            slots[slot] = run
        }
        self.names = unique
        self.folded = folded
        self.owners = owners
        self.slots = slots
    }

    /// The names close enough to `word` to suggest, nearest first (then by
    /// name), at most `limit` (and never more than ``maximumLimit``).
    package func suggestions(for word: String, limit: Int = maximumLimit) -> [String] {
        guard !owners.isEmpty, let letters = EditDistance.folded(word), !letters.isEmpty else { return [] }
        let hashes = Hashes(letters)
        var found: [Int32] = []
        func collect(_ key: UInt64) {
            var slot = Int(truncatingIfNeeded: key >> 1) & (slots.count - 1)
            while slots[slot].key != 0 {
                if slots[slot].key == key {
                    let run = slots[slot]
                    found += owners[Int(run.start)..<Int(run.start + run.count)]
                    return
                }
                slot = (slot + 1) & (slots.count - 1)
            }
        }
        // Names a few deletions away; names that begin or end with the word;
        // names the word begins or ends with.
        hashes.forEachDeletion(collect)
        collect(hashes.beginning(letters.count, as: .beginning))
        collect(hashes.ending(letters.count, as: .ending))
        for length in 1..<letters.count {
            collect(hashes.beginning(length, as: .name))
            collect(hashes.ending(length, as: .name))
        }
        // Each checked by the rule, not trusted: two strings can share a hash.
        var ranked: [(name: String, distance: Int)] = []
        found.sort()
        for (place, owner) in found.enumerated() where (place == 0 || found[place - 1] != owner) && names[Int(owner)] != word {
            if let distance = EditDistance.rank(of: folded[Int(owner)], for: letters) {
                ranked.append((names[Int(owner)], distance))
            }
        }
        return EditDistance.nearest(ranked, limit: min(limit, Self.maximumLimit))
    }

    /// What a key stands for: what is left of a name after deletions (none
    /// included); a name itself, for a word that begins or ends with it
    /// (not what is left of one, which would bring hundreds of names that
    /// lose a letter or two to become `P1`); or a beginning or an ending of a
    /// longer name.
    private enum Kind: UInt64 {
        case whole = 1, name, beginning, ending
    }

    /// Polynomial hashes of every beginning and ending of a run of letters,
    /// from which the hash of any beginning, ending or deletion of letters is
    /// had in constant time.
    private struct Hashes {
        let count: Int
        /// `prefix[i]`: the hash of the first `i` letters.
        var prefix: [UInt64]
        /// `suffix[i]`: the hash of the letters from `i` on.
        var suffix: [UInt64]
        /// `powers[k]`: the base to the `k`th.
        var powers: [UInt64]

        init(_ letters: [Unicode.Scalar]) {
            count = letters.count
            prefix = [UInt64](repeating: 0, count: count + 1)
            suffix = [UInt64](repeating: 0, count: count + 1)
            powers = [UInt64](repeating: 1, count: count + 1)
            for i in 0..<count {
                prefix[i + 1] = prefix[i] &* Self.base &+ UInt64(letters[i].value) &+ 1
                powers[i + 1] = powers[i] &* Self.base
            }
            for i in stride(from: count - 1, through: 0, by: -1) {
                suffix[i] = suffix[i + 1] &+ (UInt64(letters[i].value) &+ 1) &* powers[count - 1 - i]
            }
        }

        /// The hash of the letters from `start` up to `end`.
        private func hash(_ start: Int, _ end: Int) -> UInt64 { prefix[end] &- prefix[start] &* powers[end - start] }

        /// Calls `body` with the hash of the whole run, and of the run with
        /// each choice of the letters the rule lets it lose deleted.
        func forEachDeletion(_ body: (UInt64) -> Void) {
            body(Self.finish(prefix[count], length: count, kind: .whole))
            for i in 0..<count {
                // The letters before `i`, shifted past those after it, then those after it.
                body(Self.finish(prefix[i] &* powers[count - 1 - i] &+ suffix[i + 1], length: count - 1, kind: .whole))
            }
            guard EditDistance.deletions(count) >= 2 else { return }
            for i in 0..<count {
                for j in (i + 1)..<count {
                    let kept = prefix[i] &* powers[count - 2 - i] &+ hash(i + 1, j) &* powers[count - 1 - j] &+ suffix[j + 1]
                    body(Self.finish(kept, length: count - 2, kind: .whole))
                }
            }
        }

        /// The first `length` letters, as `kind`.
        func beginning(_ length: Int, as kind: Kind) -> UInt64 { Self.finish(prefix[length], length: length, kind: kind) }

        /// The last `length` letters, as `kind` (`suffix` is their hash as a run of their own).
        func ending(_ length: Int, as kind: Kind) -> UInt64 {
            Self.finish(suffix[count - length], length: length, kind: kind)
        }

        /// An odd multiplier for the polynomial hash.
        static let base: UInt64 = 0x100_0000_01B3

        /// Mixes the length and the kind in, and spreads the bits (SplitMix64's finalizer).
        static func finish(_ hash: UInt64, length: Int, kind: Kind) -> UInt64 {
            var z = hash ^ (UInt64(length) &* 0x9E37_79B9_7F4A_7C15) ^ (kind.rawValue &* 0xD6E8_FEB8_6659_FD93)
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            // 0 marks an empty slot of the table.
            return (z ^ (z >> 31)) | 1
        }
    }
}
