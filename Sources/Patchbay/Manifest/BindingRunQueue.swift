import Dispatch
import Foundation

/// Runs of a manifest's bindings, decoded while the scanner is still reading the file.
///
/// Decoding waits for no rule but the file's own syntax, so it need not wait for the whole scan:
/// each time the scanner has passed ``bindingsPerRun`` elements of the top-level `bindings`
/// array, it hands their bytes here, and another thread decodes them with a `JSONDecoder` of its
/// own while the scan goes on. The scanning thread decodes what is left when its scan ends. What
/// the runs say is used only once the scanner's map agrees with them, run for run (see
/// ``ManifestDocument/decode(root:cores:scanned:)``); a file whose scan finds a repeated key or a
/// fault is not decoded at all, as before.
///
/// No thread waits for one that may not run: a helper that starts late finds every run taken and
/// leaves, and the scanning thread waits only for runs a helper has taken and is decoding.
final class BindingRunQueue: Sendable {
    /// A run of the `bindings` array's elements: where they stand in the file, how many, and what
    /// `JSONDecoder` made of them (nil when it refused them, or before it is decoded).
    struct Run: Sendable {
        let bytes: Range<Int>
        let count: Int
        var decoded: [BindingDocument]?
    }

    /// The bindings of a run: enough that a decoder's setting up is a small part of its work, few
    /// enough that a helper starts soon after the scan does.
    static let bindingsPerRun = 256

    /// The smallest file worth a helper thread: below 64 KiB (about 600 bindings), handing it
    /// work costs more than the decoding it takes over.
    static let smallestFile = 1 << 16

    /// The runs handed over, in file order; how many were taken, and how many of those are decoded.
    private struct State {
        var runs: [Run] = []
        var taken = 0, decoded = 0
        var isScanning = true
    }

    /// The scanned bytes, indexed from 0 as the scanner's offsets are.
    private let data: Data
    /// Helpers wait on it for runs, the scanning thread for the helpers' runs.
    private let state = WaitableLocked(State())

    private init(data: Data) { self.data = data }

    /// Scans `data` on this thread while `threads - 1` others decode the runs of bindings it passes,
    /// no more than the other active cores; this thread decodes what is left after its scan. Without
    /// another thread, or for a small file, only scans.
    static func scanDecoding(_ data: Data, maxBytes: Int, maxDepth: Int, threads: Int) -> (JSONDocument, [Run]) {
        guard threads > 1, data.count >= smallestFile else {
            return (JSONScanner.scan(data, maxBytes: maxBytes, maxDepth: maxDepth), [])
        }
        let data = data.startIndex == 0 ? data : Data(data)  // the scanner's offsets index from 0
        let queue = BindingRunQueue(data: data)
        // `--jobs N` comes as typed: a thread beyond the cores decodes nothing sooner, and a loop to
        // `Int.max` never ends.
        for _ in 1..<min(threads, ProcessInfo.processInfo.activeProcessorCount) { DispatchQueue.global().async { queue.work() } }
        let document = JSONScanner.scan(data, maxBytes: maxBytes, maxDepth: maxDepth, handingRunsTo: queue)
        // A file that will not be decoded (a fault, a repeated key) leaves its runs undecoded: one
        // thread would have stopped at the scan, and here the scan is most of a file's runs ahead.
        let isDecoded = !document.isUnusable && document.duplicateKeys.isEmpty
        queue.state.withLock { state in
            state.isScanning = false
            if !isDecoded { (state.taken, state.decoded) = (state.runs.count, state.decoded + state.runs.count - state.taken) }
        }
        queue.work()
        // Every run is taken: what is left is to wait for those a helper is decoding.
        let runs = queue.state.wait(until: { $0.decoded == $0.taken }) { $0.runs }
        return (document, isDecoded ? runs : [])
    }

    /// Hands over the run of `count` elements in `bytes`: called by the scanner, on its thread.
    func add(_ bytes: Range<Int>, count: Int) {
        state.withLock { $0.runs.append(Run(bytes: bytes, count: count)) }
    }

    /// Decodes runs until none is left to take, waiting for the scanner's next while it scans.
    private func work() {
        while let (index, range) = take() {
            let documents = BindingDocument.run(data[range])
            state.withLock {
                $0.runs[index].decoded = documents
                $0.decoded += 1
            }
        }
    }

    /// The next run nobody has taken, and its bytes; nil once the scan is over and every run is taken.
    private func take() -> (Int, Range<Int>)? {
        state.wait(until: { $0.taken < $0.runs.count || !$0.isScanning }) { state in
            guard state.taken < state.runs.count else { return nil }
            state.taken += 1
            return (state.taken - 1, state.runs[state.taken - 1].bytes)
        }
    }
}
