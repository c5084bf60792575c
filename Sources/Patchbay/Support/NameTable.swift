import Foundation

/// A table from the app's own names (of factories, of types) to values:
/// open addressing, hashed with FNV-1a over the name's UTF-8 bytes in
/// Unicode's canonical composed form (NFC), and matched with `String`'s `==`.
///
/// Names match as `String`s do, by canonical equivalence, as a dictionary
/// would match them: `"caf\u{E9}"` and `"cafe\u{301}"` are one name, and so
/// are the Kelvin sign `"\u{212A}"` and `"K"`. So equal names must hash
/// alike, and the hash is taken over the canonical form, as `String`'s own
/// hashing does. An ASCII name is its own canonical form (nearly every
/// name): its bytes are hashed as they are; only a name with another byte
/// is normalized first.
///
/// Why not `[String: Value]`: a `String` key is hashed with SipHash-1-3
/// after a check that the text is in normal form, and activation hashes one
/// or two names for each binding; FNV-1a over a short ASCII name is far
/// cheaper (the benchmark package's README has the figures).
///
/// What SipHash's per-process seed protects against is keys chosen to
/// collide. Here every key is a name in the app's code: a manifest, the
/// untrusted input, only looks names up, so it cannot make the runs of
/// filled slots longer; the table is kept at most half full.
struct NameTable<Value> {
    fileprivate struct Entry {
        let name: String
        let hash: UInt64
        var value: Value
    }
    /// Index into `entries` plus one; 0 for an empty slot. The count is a power of two.
    private var slots: [Int32]
    private var entries: [Entry] = []

    /// An empty table with room for `capacity` names before it grows.
    init(capacity: Int = 0) {
        var size = 8
        while size < 2 * capacity { size *= 2 }
        slots = Array(repeating: 0, count: size)
        entries.reserveCapacity(capacity)
    }

    /// How many names the table holds.
    var count: Int { entries.count }

    /// The value of `name`, if it is in the table.
    subscript(name: String) -> Value? {
        guard let entry = find(name, hash: Self.hash(name)).entry else { return nil }
        return entries[entry].value
    }

    /// Calls `body` with the value of `name`, made `initial` first when the
    /// name is new: one hash of the name to read and write it in place.
    mutating func update<Result>(
        _ name: String, initial: @autoclosure () -> Value, _ body: (inout Value) -> Result
    ) -> Result {
        let hash = Self.hash(name)
        let found = find(name, hash: hash)
        if let entry = found.entry { return body(&entries[entry].value) }
        var value = initial()
        let result = body(&value)
        entries.append(Entry(name: name, hash: hash, value: value))
        if 2 * entries.count > slots.count {
            grow()
        } else { slots[found.slot] = Int32(entries.count) }
        return result
    }

    /// The entry holding `name`, or the empty slot where it would go.
    private func find(_ name: String, hash: UInt64) -> (entry: Int?, slot: Int) {
        let mask = slots.count - 1
        var slot = Self.home(of: hash) & mask
        while true {
            let stored = Int(slots[slot])
            if stored == 0 { return (nil, slot) }
            let entry = entries[stored - 1]
            if entry.hash == hash, entry.name == name { return (stored - 1, slot) }
            slot = (slot + 1) & mask
        }
    }

    /// Doubles the slots and places every entry again.
    private mutating func grow() {
        slots = Array(repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for (index, entry) in entries.enumerated() {
            var slot = Self.home(of: entry.hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(index + 1)
        }
    }

    /// The first slot to try for a hash (before masking). A product's low
    /// bits depend only on its factors' low bits, so FNV's high bits are
    /// folded in.
    private static func home(of hash: UInt64) -> Int {
        Int(truncatingIfNeeded: hash ^ (hash >> 29))
    }

    /// FNV-1a, 64 bits, over the UTF-8 bytes of the name's canonical
    /// composed form (NFC), so that names `==` calls equal hash alike.
    static func hash(_ name: String) -> UInt64 {
        var (asciiHash, allBits) = (fnvOffsetBasis, UInt8(0))
        for byte in name.utf8 {
            allBits |= byte
            asciiHash = fnvStep(asciiHash, byte)
        }
        if allBits < 0x80 { return asciiHash }
        // Not ASCII: the bytes of the canonical form, from Foundation (the
        // standard library's own normalizer is underscored). Unicode keeps a
        // character's composition stable once assigned, so the two agree.
        return name.precomposedStringWithCanonicalMapping.utf8.reduce(fnvOffsetBasis, fnvStep)
    }

    private static var fnvOffsetBasis: UInt64 { 0xcbf2_9ce4_8422_2325 }

    /// One byte of FNV-1a.
    @inline(__always)
    private static func fnvStep(_ hash: UInt64, _ byte: UInt8) -> UInt64 {
        (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
}

extension NameTable: Sendable where Value: Sendable {}
extension NameTable.Entry: Sendable where Value: Sendable {}
