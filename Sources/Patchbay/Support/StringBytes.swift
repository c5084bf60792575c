extension String {
    /// Whether the string's UTF-8 holds `byte` (an ASCII character).
    func containsASCII(_ byte: UInt8) -> Bool { utf8.contains(byte) }
}
