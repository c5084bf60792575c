// A large manifest's plain bindings, made on every core.

extension ManifestParser {
    /// The plain bindings of `elements` (see `appendPlainBinding(_:decoded:to:)`), each
    /// with its origin, made in runs on up to `threads` threads: a plain binding is made
    /// from its decoded values and its place alone, and reports nothing. Nil in its
    /// run where an element is not plain, which the parser's loop reads from its place,
    /// reporting what it finds in order; nil for the whole when the manifest is too small
    /// to share out (see `ParallelMap.shares(of:cores:)`), one thread is asked for, or
    /// the bindings were not decoded one for one.
    static func plainBindings(
        _ elements: [JSONPlace], decoded: [BindingDocument]?, prefix: String, in source: SourceOrigin.File,
        threads: Int
    ) -> (runs: [[Binding?]], run: Int)? {
        let shares = ParallelMap.shares(of: elements.count, cores: threads)
        guard let decoded, decoded.count == elements.count, shares > 1 else { return nil }
        let run = (elements.count + shares - 1) / shares
        let runs = ParallelMap.map(count: shares, jobs: shares) { share -> [Binding?] in
            let offsets = share * run..<min(elements.count, (share + 1) * run)
            var bindings: [Binding] = []
            var made: [Binding?] = []
            made.reserveCapacity(offsets.count)
            for offset in offsets {
                guard elements[offset].kind == .object,
                      appendPlainBinding(elements[offset], decoded: decoded[offset], to: &bindings)
                else {
                    made.append(nil)
                    continue
                }
                var binding = bindings.removeLast()
                binding.origin = SourceOrigin(source, pointer: prefix + String(offset), node: elements[offset].node)
                made.append(binding)
            }
            return made
        }
        return (runs, run)
    }
}
