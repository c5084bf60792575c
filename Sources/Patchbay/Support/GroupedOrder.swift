/// The places `0..<count` grouped by a small key (a type's or a factory's
/// number), each group in its places' order: a stable counting sort, linear
/// in `count` plus `keyCount`.
///
/// Why: a large manifest binds each type in many injectors, and lists its
/// bindings injector by injector. Walked in manifest order, each binding
/// lands in a different type's record, so at 100,000 bindings every record is
/// out of cache by the time its type comes round again; walked in this order,
/// a type's (or factory's) bindings are filed one after another while its
/// record is at hand. Where manifest order matters (a collection's elements),
/// it still holds within a group.
///
/// - Parameter key: A place's group, in `0..<keyCount`; any other goes in a
///   last group of its own, so a stray number changes order, never what is done.
func groupedOrder(count: Int, keyCount: Int, key: (Int) -> Int) -> [Int] {
    let last = max(keyCount, 0)
    var starts = [Int](repeating: 0, count: last + 2)
    var keys = [Int](repeating: 0, count: count)
    for place in 0..<count {
        let group = key(place)
        keys[place] = group >= 0 && group < last ? group : last
        starts[keys[place] + 1] += 1
    }
    for group in 0...last { starts[group + 1] += starts[group] }
    var order = [Int](repeating: 0, count: count)
    for place in 0..<count {
        order[starts[keys[place]]] = place
        starts[keys[place]] += 1
    }
    return order
}
