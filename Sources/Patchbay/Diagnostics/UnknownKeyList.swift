/// How unknown keys of one object are reported: the first few each with its own diagnostic (at the key,
/// with a suggestion), and the rest counted in one more, at the first of them.
///
/// A diagnostic, its suggestion and its message cost far more than reading a key: a file of a million
/// unknown keys made a million of each (8 to 17 seconds and 716 MB for `patchbay check`). The cost of
/// an object's unknown keys now stays that of reading them.
enum UnknownKeyList {
    /// How many unknown keys of one object get a diagnostic of their own.
    static let listedPerObject = 20

    /// The message of the diagnostic that counts the unknown keys past the first ``listedPerObject``:
    /// "and 999,980 more unknown binding keys in this object (...)".
    /// - Parameters:
    ///   - count: How many are not listed.
    ///   - what: What a key is, singular: "binding key", "parameter".
    ///   - fix: What to do, after a semicolon.
    static func rest(_ count: Int, what: String, fix: String) -> String {
        "and \(count) more unknown \(what)\(count == 1 ? "" : "s") in this object after the first "
            + "\(listedPerObject), which are listed one by one; \(fix)"
    }
}
