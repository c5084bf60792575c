/// The places `0..<count` grouped by a small key (a type's or a factory's
/// number), each group in its places' order: a stable counting sort, linear
/// in `count` plus `keyCount`.
///
/// Why: a large manifest binds each type in many injectors, and lists its
/// bindings injector by injector. Walked in manifest order, each binding
/// lands in a different type's record, so at 100,000 bindings every record is
/// out of cache by the time its type comes round again; walked in this order,
/// a type's (or factory's) bindings are filed one after another while its
/// record is at hand, and how many there are is known before the first.
/// Where manifest order matters (a collection's elements), it still holds
/// within a group.
struct GroupedOrder {
    /// The places, group by group.
    let places: [Int]
    /// How many places each group holds, by key; the last is the group of strays.
    private let sizes: [Int]

    /// - Parameter key: A place's group, in `0..<keyCount`; any other goes in a
    ///   last group of its own, so a stray number changes order, never what is done.
    init(count: Int, keyCount: Int, key: (Int) -> Int) {
        let last = max(keyCount, 0)
        var sizes = [Int](repeating: 0, count: last + 1)
        var keys = [Int](repeating: 0, count: count)
        for place in 0..<count {
            let group = key(place)
            keys[place] = group >= 0 && group < last ? group : last
            sizes[keys[place]] += 1
        }
        var next = [Int](repeating: 0, count: last + 1)
        for group in 0..<last { next[group + 1] = next[group] + sizes[group] }
        var places = [Int](repeating: 0, count: count)
        for place in 0..<count {
            places[next[keys[place]]] = place
            next[keys[place]] += 1
        }
        (self.places, self.sizes) = (places, sizes)
    }

    /// How many places are in `key`'s group.
    func size(of key: Int) -> Int { sizes[key >= 0 && key < sizes.count - 1 ? key : sizes.count - 1] }
}
