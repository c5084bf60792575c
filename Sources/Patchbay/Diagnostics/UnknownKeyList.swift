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
    /// "999980 more unknown binding keys in this object are not listed (only the first 20 are); ...".
    /// - Parameters:
    ///   - count: How many are not listed.
    ///   - what: What a key is, singular: "binding key", "parameter".
    ///   - fix: What to do, after a semicolon.
    static func rest(_ count: Int, what: String, fix: String) -> String {
        "\(count) more unknown \(what)\(count == 1 ? " in this object is" : "s in this object are") not listed "
            + "(only the first \(listedPerObject) are); \(fix)"
    }
}
