/// The bindings a resolution is making, outermost first: a stack in plain
/// memory, kept for the context's life and grown when a path goes deeper.
///
/// The bindings are unretained: the activation the resolution holds keeps
/// them (an ``Injectable`` type's binding is kept for the process). An array
/// would retain and release each one, and check its buffer's uniqueness, on
/// every factory a resolve runs. Each entry keeps its binding's storage's
/// identity too, so the cycle check compares plain words and touches no binding.
struct BindingPath {
    private struct Entry {
        let binding: Unmanaged<CompiledBinding>
        /// The binding's storage's identity: the instances it yields (see ``CompiledBinding/sharesInstance(with:)``).
        let instances: ObjectIdentifier
    }

    private var entries: UnsafeMutablePointer<Entry>
    private var capacity = 16
    /// How many bindings are on the path.
    private(set) var count = 0

    init() {
        entries = .allocate(capacity: capacity)
    }

    /// Frees the stack; call when its context goes.
    func free() { entries.deallocate() }

    /// The innermost binding.
    var last: CompiledBinding? { count == 0 ? nil : entries[count - 1].binding.takeUnretainedValue() }

    /// Puts `binding` on the path while its factory runs.
    @inline(__always)
    mutating func push(_ binding: CompiledBinding) {
        if count == capacity { grow() }
        entries[count] = Entry(binding: Unmanaged.passUnretained(binding), instances: binding.instanceIdentity)
        count += 1
    }

    /// Takes the innermost binding off the path.
    @inline(__always)
    mutating func pop() { count -= 1 }

    private mutating func grow() {
        let larger = UnsafeMutablePointer<Entry>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: entries, count: count)
        entries.deallocate()
        entries = larger
        capacity *= 2
    }

    /// Whether a binding on the path yields the same instance as `binding`
    /// (it, or one of its storage): a request for it now is a cycle.
    @inline(__always)
    func holdsInstance(of binding: CompiledBinding) -> Bool {
        guard count > 0 else { return false }
        let instances = binding.instanceIdentity
        for index in 0..<count where entries[index].instances == instances { return true }
        return false
    }

    /// The bindings, outermost first.
    var all: [CompiledBinding] { (0..<count).map { entries[$0].binding.takeUnretainedValue() } }
}
