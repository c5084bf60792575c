/// `${NAME}` and `${NAME:-default}` inside `parameters` values, from the
/// process environment. `$${` is a literal `${`.
///
/// Only `parameters` values are interpolated: an environment variable can
/// never choose a factory, a protocol, a lifetime or an injector.
struct Interpolation {
    /// The variables to read; the process environment unless a test injects others.
    let environment: [String: String]
    /// Whether a variable that is unset and has no default leaves its string
    /// as written (recorded in ``InterpolationRecord/unset``) rather than
    /// being a problem: `patchbay check` runs where production's secrets are not.
    var allowsUnset = false

    /// A problem with one string value.
    enum Problem: Equatable {
        case missing(variable: String)
        case malformed(String)
        /// The text grew past the room left under the manifest's size limit; nothing after it is interpolated.
        case overLimit
    }

    /// A problem with the string at `pointer` (relative to the value interpolated).
    struct Located {
        /// The string's JSON Pointer.
        var pointer: String
        /// The string's position; nil in a value made in code.
        var position: SourcePosition?
        /// What is wrong with it.
        var problem: Problem
    }

    /// Interpolates every string inside `parameters`, in document order, and
    /// notes in `record` what it did. Each changed string is a replacement in
    /// `parameters`, at its old position. Parameters that cannot hold one
    /// (``mayRefer(_:)``) need not be given: the loader skips them.
    ///
    /// - Parameter room: How many bytes the strings may still grow by, all told, before the manifest
    ///   passes its size limit: what a value or default adds counts as if written in the file, so that
    ///   `${X}` written 10,000 times cannot make a 40 KB file a gigabyte of text. The growth of each
    ///   string is taken from it; a string that would pass it is ``Problem/overLimit``, and the walk stops.
    func apply(to parameters: inout BindingParameters, record: inout InterpolationRecord, room: inout Int) -> [Located] {
        var problems: [Located] = []
        visit(parameters.place, pointer: "", in: &parameters, problems: &problems, record: &record, room: &room)
        return problems
    }

    /// Whether `parameters` may hold a reference: most hold no `$`, written
    /// or escaped (`\u0024`), which one pass over their bytes says.
    static func mayRefer(_ parameters: BindingParameters) -> Bool {
        parameters.place.mayHold(UInt8(ascii: "$"), UInt8(ascii: "\\"))
    }

    /// Interpolates the strings under `value`. Recursion is bounded by the
    /// document's depth, which the scanner has limited.
    private func visit(
        _ value: JSONPlace, pointer: String, in parameters: inout BindingParameters, problems: inout [Located],
        record: inout InterpolationRecord, room: inout Int
    ) {
        guard room >= 0 else { return }  // over the limit already: reported once
        switch value.kind {
        case .string:
            // `$` may be escaped (`\u0024`): only a string with neither needs decoding.
            guard value.mayHold(UInt8(ascii: "$"), UInt8(ascii: "\\")), let text = value.stringValue,
                  text.contains("$") else { return }
            var read: [String] = []
            switch interpolate(text, room: room, read: &read) {
            case .success(let result):
                room -= max(0, result.utf8.count - text.utf8.count)
                if let name = Self.wholeReference(text) {
                    // Whether the variable or the manifest's default gave the value: a message blames the one that did.
                    record.wholeValues[pointer] = WholeReference(variable: name, fromDefault: environment[name] == nil)
                }
                if !read.isEmpty { record.fromEnvironment[pointer] = read }
                if result != text { parameters.replace(value, with: .string(result)) }
            case .failure(let found) where found.list == [.overLimit]:
                room = -1
                problems.append(Located(pointer: pointer, position: value.position, problem: .overLimit))
            case .failure(let found):
                let unset = found.list.compactMap { if case .missing(let name) = $0 { name } else { nil } }
                if allowsUnset, unset.count == found.list.count {
                    record.unset[pointer] = UnsetReference(variables: unset, position: value.position)
                    return
                }
                // Reported here once; the parameter check must not judge the text left as written a second time.
                record.refused.insert(pointer)
                problems += found.list.map { Located(pointer: pointer, position: value.position, problem: $0) }
            }
        case .array, .object:
            for (offset, child) in value.children.enumerated() {
                let segment = value.kind == .array ? String(offset) : JSONPointer.escape(child.key)
                visit(child, pointer: pointer + "/" + segment, in: &parameters, problems: &problems, record: &record,
                    room: &room)
            }
        default:
            break
        }
    }

    /// The variable's name when `text` is exactly one reference, `${NAME}` or `${NAME:-default}`.
    static func wholeReference(_ text: String) -> String? {
        guard text.hasPrefix("${"), text.hasSuffix("}") else { return nil }
        let body = text.dropFirst(2).dropLast()
        guard !body.contains("}"), !body.contains("$") else { return nil }
        let name = body.range(of: ":-").map { String(body[..<$0.lowerBound]) } ?? String(body)
        return isValidName(name) ? name : nil
    }

    struct Problems: Error { var list: [Problem] }

    /// Interpolates one string, which may grow by at most `room` bytes: past that, the one problem is
    /// ``Problem/overLimit``, found before the text is built any longer.
    func interpolate(_ text: String, room: Int = .max) -> Result<String, Problems> {
        var read: [String] = []
        return interpolate(text, room: room, read: &read)
    }

    /// As above; `read` gets the names of the variables whose values the text takes from the
    /// environment (set there, not defaulted), each once, in order: what a factory's failure names,
    /// never the values.
    private func interpolate(_ text: String, room: Int, read: inout [String]) -> Result<String, Problems> {
        guard text.contains("$") else { return .success(text) }
        let most = text.utf8.count.addingReportingOverflow(room)
        let limit = most.overflow ? Int.max : most.partialValue
        var output = ""
        var problems: [Problem] = []
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            output += rest[..<dollar]
            let after = rest[dollar...]
            if after.hasPrefix("$${") {
                output += "${"
                rest = after.dropFirst(3)
            } else if after.hasPrefix("${") {
                let body = after.dropFirst(2)
                guard let close = body.firstIndex(of: "}") else {
                    problems.append(.malformed("unterminated '${' in \"\(MessageText.name(text))\"; close it with '}' or write '$${' for a literal '${'"))
                    return .failure(Problems(list: problems))
                }
                let expression = body[..<close]
                rest = body[body.index(after: close)...]
                let separator = expression.range(of: ":-")
                let name = String(expression[..<(separator?.lowerBound ?? expression.endIndex)])
                let fallback = separator.map { String(expression[$0.upperBound...]) }
                guard Self.isValidName(name) else {
                    problems.append(.malformed("'${\(MessageText.name(String(expression)))}' is not a valid reference; names are "
                        + "ASCII letters (A-Z, a-z), digits and '_', not starting with a digit (write '$${' for a literal '${')"))
                    continue
                }
                if let fallback, fallback.contains("${") {
                    // A default is literal text up to the first '}': a reference inside it would be
                    // cut in two and kept as text, which no author means. Refused, quoted, and
                    // reading resumes after it so its tail is not a second problem.
                    let end = Self.endOfNested(body, firstClose: close)
                    rest = body[end...]
                    // Quoted cut short: a hostile string may be megabytes long.
                    let shown = after[..<end]
                    problems.append(.malformed("'\(shown.count > 80 ? String(shown.prefix(80)) + "..." : String(shown))' puts '${' inside the default of ${\(name)}, "
                        + "which is not supported: a default is plain text up to the first '}'; write the default "
                        + "value itself (${\(name):-value})"))
                    continue
                }
                if environment[name] != nil, !read.contains(name) { read.append(name) }
                if let value = environment[name] ?? fallback {
                    guard value.utf8.count <= limit - output.utf8.count else { return .failure(Problems(list: [.overLimit])) }
                    output += value
                } else {
                    problems.append(.missing(variable: name))
                }
            } else {
                output += "$"
                rest = after.dropFirst()
            }
        }
        guard rest.utf8.count <= limit - output.utf8.count else { return .failure(Problems(list: [.overLimit])) }
        output += rest
        return problems.isEmpty ? .success(output) : .failure(Problems(list: problems))
    }

    /// Where a reference whose default holds `${` ends: after the `}` that
    /// balances its opening, else after its first `}` (`firstClose`). `body`
    /// follows the opening `${`. The search is bounded, so a string of many
    /// unbalanced openings costs linear time, not quadratic.
    private static func endOfNested(_ body: Substring, firstClose: Substring.Index) -> Substring.Index {
        var depth = 1
        var index = body.startIndex
        var looked = 0
        while index < body.endIndex, looked < 1_024 {
            looked += 1
            if body[index...].hasPrefix("${") {
                depth += 1
                index = body.index(index, offsetBy: 2)
                continue
            }
            let next = body.index(after: index)
            if body[index] == "}" {
                depth -= 1
                if depth == 0 { return next }
            }
            index = next
        }
        return body.index(after: firstClose)
    }

    static func isValidName(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return name.utf8.allSatisfy(TypeKey.isIdentifierByte)
    }
}
