extension String {
    /// Whether the string's UTF-8 holds `byte` (an ASCII character).
    ///
    /// Scans the string's contiguous bytes when it has them, as native
    /// strings do: iterating `utf8` goes through the view's index, at about
    /// 25 instructions a byte, which made this check a visible part of
    /// validating 1,000 type names.
    func containsASCII(_ byte: UInt8) -> Bool {
        utf8.withContiguousStorageIfAvailable { $0.contains(byte) } ?? utf8.contains(byte)
    }
}
