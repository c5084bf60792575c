extension String {
    /// Whether the string's UTF-8 holds `byte` (an ASCII character).
    ///
    /// Scans the string's contiguous bytes when it has them, as native
    /// strings do, rather than iterating `utf8` through the view's index,
    /// which is several times slower a byte: validation asks this of every
    /// type name.
    func containsASCII(_ byte: UInt8) -> Bool {
        utf8.withContiguousStorageIfAvailable { $0.contains(byte) } ?? utf8.contains(byte)
    }
}
