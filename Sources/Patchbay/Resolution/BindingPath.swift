/// The bindings a resolution is making, outermost first: a stack in plain
/// memory, kept for the context's life and grown when a path goes deeper.
///
/// The bindings are unretained: the activation the resolution holds keeps
/// them (an ``Injectable`` type's binding is kept for the process). An array
/// would retain and release each one, and check its buffer's uniqueness, on
/// every factory a resolve runs.
struct BindingPath {
    private var bindings: UnsafeMutablePointer<Unmanaged<CompiledBinding>>
    private var capacity = 16
    /// How many bindings are on the path.
    private(set) var count = 0

    init() {
        bindings = .allocate(capacity: capacity)
    }

    /// Frees the stack; call when its context goes.
    func free() { bindings.deallocate() }

    var isEmpty: Bool { count == 0 }

    /// The innermost binding.
    var last: CompiledBinding? { count == 0 ? nil : bindings[count - 1].takeUnretainedValue() }

    /// Puts `binding` on the path while its factory runs.
    @inline(__always)
    mutating func push(_ binding: CompiledBinding) {
        if count == capacity { grow() }
        bindings[count] = Unmanaged.passUnretained(binding)
        count += 1
    }

    /// Takes the innermost binding off the path.
    @inline(__always)
    mutating func pop() { count -= 1 }

    private mutating func grow() {
        let larger = UnsafeMutablePointer<Unmanaged<CompiledBinding>>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: bindings, count: count)
        bindings.deallocate()
        bindings = larger
        capacity *= 2
    }

    /// Whether a binding on the path yields the same instance as `binding`
    /// (it, or one of its storage): a request for it now is a cycle.
    func holdsInstance(of binding: CompiledBinding) -> Bool {
        for index in 0..<count where bindings[index].takeUnretainedValue().sharesInstance(with: binding) {
            return true
        }
        return false
    }

    /// The bindings, outermost first.
    var all: [CompiledBinding] { (0..<count).map { bindings[$0].takeUnretainedValue() } }
}
