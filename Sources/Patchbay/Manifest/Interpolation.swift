/// `${NAME}` and `${NAME:-default}` inside `parameters` values, from the
/// process environment. `$${` is a literal `${`.
///
/// Only `parameters` values are interpolated: an environment variable can
/// never choose a factory, a protocol, a lifetime or an injector.
struct Interpolation {
    /// The variables to read; the process environment unless a test injects others.
    let environment: [String: String]

    /// A problem with one string value.
    enum Problem: Equatable {
        case missing(variable: String)
        case malformed(String)
    }

    /// Interpolates every string inside `value`, recursively. Problems are
    /// returned with the JSON Pointer (relative to `value`) of the string.
    func apply(to value: JSONValue, pointer: String = "") -> (JSONValue, [(pointer: String, problem: Problem)]) {
        switch value {
        case .string(let text):
            switch interpolate(text) {
            case .success(let result): return (.string(result), [])
            case .failure(let problems): return (value, problems.list.map { (pointer, $0) })
            }
        case .array(let elements):
            var problems: [(String, Problem)] = []
            var result: [JSONValue] = []
            for (offset, element) in elements.enumerated() {
                let (value, found) = apply(to: element, pointer: pointer + "/\(offset)")
                result.append(value)
                problems += found
            }
            return (.array(result), problems)
        case .object(let members):
            var problems: [(String, Problem)] = []
            var result: [String: JSONValue] = [:]
            for key in members.keys.sorted() {
                let (value, found) = apply(to: members[key]!, pointer: pointer + "/" + JSONPositionIndex.escape(key))
                result[key] = value
                problems += found
            }
            return (.object(result), problems)
        default:
            return (value, [])
        }
    }

    struct Problems: Error { var list: [Problem] }

    /// Interpolates one string.
    func interpolate(_ text: String) -> Result<String, Problems> {
        guard text.contains("$") else { return .success(text) }
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
                    problems.append(.malformed("unterminated '${' in \"\(text)\"; close it with '}' or write '$${' for a literal '${'"))
                    return .failure(Problems(list: problems))
                }
                let expression = body[..<close]
                rest = body[body.index(after: close)...]
                let (name, fallback) = split(expression)
                guard Self.isValidName(name) else {
                    problems.append(.malformed("'${\(expression)}' is not a valid reference; names are letters, digits and '_', not starting with a digit (write '$${' for a literal '${')"))
                    continue
                }
                if let value = environment[name] {
                    output += value
                } else if let fallback {
                    output += fallback
                } else {
                    problems.append(.missing(variable: name))
                }
            } else {
                output += "$"
                rest = after.dropFirst()
            }
        }
        output += rest
        return problems.isEmpty ? .success(output) : .failure(Problems(list: problems))
    }

    private func split(_ expression: Substring) -> (name: String, fallback: String?) {
        guard let range = expression.range(of: ":-") else { return (String(expression), nil) }
        return (String(expression[..<range.lowerBound]), String(expression[range.upperBound...]))
    }

    static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || ("a"..."z").contains($0) || ("A"..."Z").contains($0)
            || ("0"..."9").contains($0) }
    }
}
