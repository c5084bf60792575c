/// The arguments of one subcommand, parsed the way swift-argument-parser
/// tools parse them: `--flag value`, `--flag=value`, boolean `--flag`, `--`
/// ending the options, and operands anywhere else.

import Patchbay
struct CommandArguments {
    private(set) var options: [String: String] = [:]
    private(set) var flags: Set<String> = []
    private(set) var operands: [String] = []

    /// A mistake in the arguments: the command prints it with the usage and exits 2.
    struct Problem: Error, CustomStringConvertible {
        /// Quotes what was typed, escaped: an argument may hold a line break or a terminal escape.
        let description: String
        init(description: String) { self.description = description.escapingControlCharacters }
    }

    /// Parses `arguments` knowing which options take a value and which are flags.
    init(_ arguments: [String], valued: Set<String>, boolean: Set<String>) throws(Problem) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "--" {
                operands += rest
                break
            }
            guard argument.hasPrefix("-"), argument != "-" else {
                operands.append(argument)
                continue
            }
            var name = argument
            var inline: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            if valued.contains(name) {
                guard let value = inline ?? rest.popFirst() else {
                    throw Problem(description: "missing value for '\(name)'")
                }
                options[name] = value
            } else if boolean.contains(name), inline == nil {
                flags.insert(name)
            } else {
                let suggestion = EditDistance.suggestions(for: name, among: valued.union(boolean)).first
                throw Problem(description: "unknown option '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? ""))
            }
        }
    }

    /// A limit: a whole number, 0 meaning none (nil); `fallback` when the option is not given.
    func count(_ name: String, default fallback: Int) throws(Problem) -> Int? {
        guard let value = options[name] else { return fallback }
        guard let number = Int(value), number >= 0 else {
            throw Problem(description: "invalid value '\(value)' for '\(name)'; use a whole number, or 0 for no limit")
        }
        return number == 0 ? nil : number
    }

    /// A value constrained to a few choices.
    func choice(_ name: String, among choices: [String], default fallback: String) throws(Problem) -> String {
        guard let value = options[name] else { return fallback }
        guard choices.contains(value) else {
            throw Problem(description: "invalid value '\(value)' for '\(name)'; use "
                + choices.map { "'\($0)'" }.joined(separator: ", "))
        }
        return value
    }
}
