// The strongly connected components of the dependency graph, for the
// `dependency-cycle` rule: every loop lies inside one component, so one loop
// drawn per component names every knot to untie, in time linear in the
// bindings and needs. (Reporting every elementary loop is exponential in the
// worst case, and following each back edge of a search drew n² loops of up to
// n names each: 37 s and 2.8 GB for a catalog of 800 factories.)

/// The components of a graph given as adjacency lists, by Tarjan's
/// algorithm, with an explicit stack: a manifest is untrusted input, and a
/// chain of 70,000 bindings must not exhaust the call stack.
struct StronglyConnectedComponents {
    /// The components that hold a loop (two nodes or more, or one that needs
    /// itself), each sorted, in the order of their smallest node.
    let cyclic: [[Int]]
    /// The component of each node: the same number for nodes of one component.
    private let component: [Int]

    init(edges: [[Int]]) {
        let count = edges.count
        var index = [Int](repeating: -1, count: count)  // the order of discovery; -1 not yet seen
        var low = [Int](repeating: 0, count: count)  // the smallest index reachable through the search tree and back
        var onStack = [Bool](repeating: false, count: count)
        var component = [Int](repeating: -1, count: count)
        var stack: [Int] = []
        var frames: [(node: Int, next: Int)] = []
        var discovered = 0, components = 0
        var cyclic: [[Int]] = []

        func visit(_ node: Int) {
            index[node] = discovered
            low[node] = discovered
            discovered += 1
            stack.append(node)
            onStack[node] = true
            frames.append((node, 0))
        }

        for root in 0..<count where index[root] < 0 {
            visit(root)
            while let (node, next) = frames.last {
                if next < edges[node].count {
                    frames[frames.count - 1].next += 1
                    let target = edges[node][next]
                    if index[target] < 0 {
                        visit(target)
                    } else if onStack[target] {
                        low[node] = min(low[node], index[target])
                    }
                    continue
                }
                frames.removeLast()
                if let parent = frames.last?.node { low[parent] = min(low[parent], low[node]) }
                guard low[node] == index[node] else { continue }
                // `node` is the root of a component: it and everything above it on the stack.
                var members: [Int] = []
                while true {
                    let member = stack.removeLast()
                    onStack[member] = false
                    component[member] = components
                    members.append(member)
                    if member == node { break }
                }
                components += 1
                if members.count > 1 || edges[node].contains(node) { cyclic.append(members.sorted()) }
            }
        }
        self.cyclic = cyclic.sorted { $0[0] < $1[0] }
        self.component = component
    }

    /// Whether two nodes are in one component: an edge between them lies on a loop.
    func sameComponent(_ first: Int, _ second: Int) -> Bool { component[first] == component[second] }

    /// A shortest loop through the smallest node of `members` (one of
    /// ``cyclic``), staying inside the component: found breadth-first, so in
    /// time linear in the component's edges. It starts at that node and does
    /// not repeat it at the end.
    func loop(through members: [Int], edges: [[Int]]) -> [Int] {
        let start = members[0], inside = component[start]
        var parent: [Int: Int] = [start: start]
        var queue = [start], head = 0
        while head < queue.count {
            let node = queue[head]
            head += 1
            for target in edges[node] where component[target] == inside {
                if target == start {
                    var loop = [node]
                    while loop[loop.count - 1] != start { loop.append(parent[loop[loop.count - 1]]!) }
                    return loop.reversed()
                }
                if parent[target] == nil {
                    parent[target] = node
                    queue.append(target)
                }
            }
        }
        return [start]  // unreachable for a cyclic component: every member reaches every other
    }
}
