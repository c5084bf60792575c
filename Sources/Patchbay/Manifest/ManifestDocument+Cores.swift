import Foundation

extension ManifestDocument {
    /// The fewest bindings a core is given after the scan: below twice this, one decoder
    /// reads the whole file (when the scan's runs did not decode them), as handing work to
    /// another thread costs more than it saves.
    static let bindingsPerCore = 256

    /// The manifest's values, decoded on every core: the scanner has already
    /// found where each binding starts and ends, so the bindings are decoded
    /// in runs, each by its own `JSONDecoder` on its own thread, and put back
    /// in order. Nil when the file cannot be decoded.
    ///
    /// Decoding is most of an activation's time, and a run of bindings decodes
    /// to the same values alone as in the whole file: a string is a string
    /// wherever it stands. A run that fails leaves the whole file undecoded, as
    /// one failure does the whole-file decode, so the parser reads every value
    /// from its place either way. `environment` and `extends` are decoded from
    /// their places: two strings, not worth a decoder of the whole file.
    ///
    /// `scanned` are the runs decoded while the scan went on (see ``BindingRunQueue``): taken as
    /// they are when they agree with the scanner's map, else decoded again here.
    static func decode(
        root: JSONPlace, cores: Int = ProcessInfo.processInfo.activeProcessorCount, scanned: [BindingRunQueue.Run] = []
    ) -> Self? {
        let layout = root.layout
        let whole = { try? JSONDecoder().decode(Self.self, from: layout.bytes) }
        let document = { (bindings: [BindingDocument]) in
            ManifestDocument(
                environment: root.child(named: ManifestKey.environment.rawValue)?.stringValue,
                extends: root.child(named: ManifestKey.extends.rawValue)?.stringValue, bindings: bindings)
        }
        guard cores > 1, let list = root.child(named: ManifestKey.bindings.rawValue), list.kind == .array else { return whole() }
        let elements = Array(layout.children(of: list.node))
        // Runs already decoded are taken however few the bindings: a file of a few hundred large
        // bindings was decoded a second time, whole.
        if !scanned.isEmpty, let bindings = bindings(of: elements, in: layout, from: scanned) { return document(bindings) }
        guard elements.count >= 2 * bindingsPerCore else { return whole() }
        // One run a core, or two when each has enough (so that a core slowed by other work hands its
        // second run to one that is free): a whole number a core, as three runs on two cores take as
        // long as four.
        let threads = min(cores, elements.count / bindingsPerCore)  // two or more, by the guard
        let runs = threads * min(2, elements.count / (bindingsPerCore * threads))
        let decoded = ParallelMap.map(count: runs, jobs: threads) { run -> [BindingDocument]? in
            let first = elements[run * elements.count / runs], last = elements[(run + 1) * elements.count / runs - 1]
            return BindingDocument.run(layout.bytes[layout.nodes[first].bytes.lowerBound..<layout.nodes[last].bytes.upperBound])
        }
        var bindings: [BindingDocument] = []
        bindings.reserveCapacity(elements.count)
        for run in decoded {
            guard let run else { return nil }
            bindings += run
        }
        // Each run's elements are the scanner's: a count that differs would mean the two disagree on the file.
        guard bindings.count == elements.count else { return whole() }
        return document(bindings)
    }

    /// The bindings the runs decoded while the scan went on, when they are the scanner's elements run
    /// for run, each run starting and ending where the map's elements do; nil when any is not, or was
    /// refused (then the bindings are decoded again, in runs of the map's own).
    static func bindings(
        of elements: [Int], in layout: JSONLayout, from runs: [BindingRunQueue.Run]
    ) -> [BindingDocument]? {
        guard !runs.isEmpty else { return nil }
        var bindings: [BindingDocument] = []
        bindings.reserveCapacity(elements.count)
        var next = 0
        for run in runs {
            guard let decoded = run.decoded, run.count > 0, decoded.count == run.count, next + run.count <= elements.count,
                layout.nodes[elements[next]].bytes.lowerBound == run.bytes.lowerBound,
                layout.nodes[elements[next + run.count - 1]].bytes.upperBound == run.bytes.upperBound
            else { return nil }
            bindings += decoded
            next += run.count
        }
        return next == elements.count ? bindings : nil
    }
}

extension BindingDocument {
    /// The bindings in `elements`, a run of the `bindings` array's elements as the file wrote them
    /// (commas between, no brackets), decoded by a `JSONDecoder` of the run's own; nil when it refuses
    /// them. One run's work on whichever thread takes it, during the scan or after it.
    static func run(_ elements: Data) -> [BindingDocument]? {
        var bytes = Data(capacity: elements.count + 2)
        bytes.append(UInt8(ascii: "["))
        bytes.append(elements)
        bytes.append(UInt8(ascii: "]"))
        return try? JSONDecoder().decode([BindingDocument].self, from: bytes)
    }
}
