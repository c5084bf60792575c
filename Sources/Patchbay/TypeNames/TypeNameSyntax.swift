/// Type names as Swift source writes them, read and printed again: how the
/// runtime's name of a parameterized protocol becomes the name manifests use,
/// and how the spellings a manifest may write for one type become one key.
///
/// The runtime names `any Repository<String>` as
/// `any Repository<Self.Repository.Item == String>`, and with several primary
/// associated types it lists them sorted by name, not in the protocol's order
/// (`protocol P<Zed, Alpha>`: `any P<Int, String>` prints as
/// `P<Self.P.Alpha == String, Self.P.Zed == Int>`). The positional order
/// cannot be recovered from that name, so the names are:
///
/// - one primary associated type: positional, as Swift writes it,
///   `Repository<String>`;
/// - several: labelled, sorted by label, `P<Alpha == String, Zed == Int>`:
///   `any P<Int, String>` and `any P<String, Int>` never share a name.
///
/// A manifest may also write `any ` in front, the runtime's own
/// `Self.P.Item ==` labels, the labels in any order, and sugar in the
/// arguments (`[Int]`, `[String: Int]`, `Int?`): ``lookupKey(_:)`` reads each
/// of them as the one name they mean. What this reader does not know (an
/// attribute, a parameter pack) it leaves as text: such a name is compared as
/// written, with its spaces made even.
package enum TypeNameSyntax {
    /// The name manifests use for a type the runtime names `runtimeName`:
    /// no `any `, a parameterized protocol's arguments as above. A name
    /// with neither `any ` nor `==` in it is returned as it is, unread.
    static func canonical(_ runtimeName: String) -> String {
        // Registration asks this of every type: the first byte before
        // `hasPrefix`, which does not stop early when it already differs.
        let startsWithAny = runtimeName.utf8.first == UInt8(ascii: "a") && runtimeName.hasPrefix("any ")
        guard startsWithAny || runtimeName.utf8.contains(UInt8(ascii: "=")) else { return runtimeName }
        guard let node = parse(runtimeName) else {
            return startsWithAny ? String(runtimeName.dropFirst(4)) : runtimeName
        }
        return print(node, asKey: false)
    }

    /// The key under which every spelling of one type meets: `any ` and
    /// sugar removed, a single labelled argument made positional, labels
    /// sorted, a composition's members sorted, spaces made even, and
    /// `Swift.Array`, `Swift.Dictionary` and `Swift.Optional` written
    /// without their module (so that `[Swift.Int]` meets `Swift.Array<Swift.Int>`).
    static func lookupKey(_ name: String) -> String { reprinted(name, asKey: true) }

    /// The name as the short names read: what "did you mean" compares.
    package static func suggestionForm(_ name: String) -> String { reprinted(name, asKey: false) }

    /// `name` read and printed again; a name this reader does not know, with its spaces made even.
    private static func reprinted(_ name: String, asKey: Bool) -> String {
        parse(name).map { print($0, asKey: asKey) } ?? evenSpaces(name)
    }

    /// A nested type's name without its module: `GOuter.Inner<Int>` for
    /// `Mod.GOuter.Inner<Swift.Int>` (short name `Inner<Int>`), as Swift
    /// source in the module writes it; nil for a type that is not nested.
    static func withoutModule(_ qualified: String, short: String) -> String? {
        guard case .path(let segments)? = parse(qualified), segments.count > 2,
              case .path(let shortSegments)? = parse(short), let last = shortSegments.last
        else { return nil }
        return print(.path(Array(segments.dropFirst().dropLast()) + [last]), asKey: false)
    }

    /// The name before `<` of a generic name (`GPair` of `GPair<Int, String>`); nil for any other name.
    static func genericHead(_ name: String) -> String? {
        guard case .path(let segments)? = parse(name), let last = segments.last, last.arguments != nil else { return nil }
        return segments.map(\.name).joined(separator: ".")
    }

    // MARK: - The tree

    indirect enum Node: Equatable {
        /// `Swift.Array<Swift.Int>`: dotted segments, each with its generic arguments.
        case path([Segment])
        /// `[T]`.
        case array(Node)
        /// `[K: V]`.
        case dictionary(Node, Node)
        /// `T?` or `T!`.
        case optional(Node)
        /// `(a: A, B)`: a tuple, or parentheses around one type.
        case tuple([Element])
        /// `(A, B) async throws -> C`.
        case function([Element], effects: [String], result: Node)
        /// `A & B`.
        case composition([Node])
        /// `(any P).Type`: a member of a parenthesized type.
        case member(Node, String)
    }

    struct Segment: Equatable {
        var name: String
        var arguments: [Element]?
    }

    /// A type with an optional label: a tuple element or function parameter
    /// (`label: Type` or `Type`), or a generic argument (`Int`, or `Item == Int`,
    /// `Self.P.Item == Int` as the runtime prints it).
    struct Element: Equatable {
        var label: String?
        var type: Node
    }

    // MARK: - Printing

    static func print(_ node: Node, asKey: Bool) -> String {
        switch node {
        case .path(let segments):
            var segments = segments
            if asKey, segments.count == 2, segments[0].name == "Swift", segments[0].arguments == nil,
               ["Array", "Dictionary", "Optional"].contains(segments[1].name)
            {
                segments.removeFirst()
            }
            return segments.map { segment in
                segment.name + (segment.arguments.map { "<" + printArguments($0, asKey: asKey) + ">" } ?? "")
            }.joined(separator: ".")
        case .array(let element):
            return "Array<\(print(element, asKey: asKey))>"
        case .dictionary(let key, let value):
            return "Dictionary<\(print(key, asKey: asKey)), \(print(value, asKey: asKey))>"
        case .optional(let wrapped):
            return "Optional<\(print(wrapped, asKey: asKey))>"
        case .tuple(let elements):
            // Parentheses around one type group it: the type itself.
            if elements.count == 1, elements[0].label == nil { return print(elements[0].type, asKey: asKey) }
            return "(" + printElements(elements, asKey: asKey) + ")"
        case .function(let parameters, let effects, let result):
            return "(" + printElements(parameters, asKey: asKey) + ")"
                + effects.map { " " + $0 }.joined() + " -> " + print(result, asKey: asKey)
        case .composition(let members):
            let printed = members.map { print($0, asKey: asKey) }
            return (asKey ? printed.sorted() : printed).joined(separator: " & ")
        case .member(let base, let name):
            return "(" + print(base, asKey: asKey) + ")." + name
        }
    }

    private static func printArguments(_ arguments: [Element], asKey: Bool) -> String {
        guard arguments.allSatisfy({ $0.label != nil }) else {
            return printElements(arguments, labelledBy: " == ", asKey: asKey)
        }
        // Labelled: one is positional (there is one primary associated type);
        // several are sorted by label, as the runtime lists them.
        if arguments.count == 1 { return print(arguments[0].type, asKey: asKey) }
        return arguments.sorted { $0.label! < $1.label! }
            .map { $0.label! + " == " + print($0.type, asKey: asKey) }.joined(separator: ", ")
    }

    /// `a: A, B`: a tuple's elements or a function's parameters, or (labelled by `==`) generic arguments.
    private static func printElements(_ elements: [Element], labelledBy mark: String = ": ", asKey: Bool) -> String {
        elements.map { ($0.label.map { $0 + mark } ?? "") + print($0.type, asKey: asKey) }.joined(separator: ", ")
    }

    /// Runs of spaces made one, none at the ends.
    static func evenSpaces(_ text: String) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).joined(separator: " ")
    }

    // MARK: - Parsing

    /// The tree of `text`, or nil when it is not a type this reader knows.
    static func parse(_ text: String) -> Node? {
        var parser = Parser(tokens: tokens(of: text))
        guard let node = parser.type(), parser.next == nil else { return nil }
        return node
    }

    /// Identifiers, `==`, `->`, and one-character punctuation; nil-free: an
    /// unknown character is part of an identifier (the parser then decides).
    static func tokens(of text: String) -> [String] {
        // Nearly every name is one plain identifier: read as bytes, not as the Characters below, which
        // were a tenth of checking 440,000 bindings of unknown types.
        if !text.isEmpty, text.utf8.allSatisfy({ $0 == UInt8(ascii: "_") || ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") || $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            return [text]
        }
        var tokens: [String] = []
        var identifier = ""
        var characters = Array(text)[...]
        func flush() {
            if !identifier.isEmpty { tokens.append(identifier) }
            identifier = ""
        }
        while let character = characters.popFirst() {
            switch character {
            case " ", "\t", "\n", "\r":
                flush()
            case "=" where characters.first == "=", "-" where characters.first == ">":
                flush()
                tokens.append(String(character) + String(characters.removeFirst()))
            case "<", ">", "[", "]", "(", ")", ",", ":", "&", "?", "!", ".", "=", "-":
                flush()
                tokens.append(String(character))
            default:
                identifier.append(character)
            }
        }
        flush()
        return tokens
    }

    private struct Parser {
        let tokens: [String]
        var index = 0
        /// How deep the nesting is, at most 64: a hostile name of a million `[` must not overflow the stack.
        var depth = 0

        var next: String? { index < tokens.count ? tokens[index] : nil }

        mutating func take(_ token: String) -> Bool {
            guard next == token else { return false }
            index += 1
            return true
        }

        /// `Type := ('any' | 'some')? Postfix ('&' Postfix)*`
        mutating func type() -> Node? {
            depth += 1
            defer { depth -= 1 }
            guard depth <= 64 else { return nil }
            if next == "any" || next == "some", index + 1 < tokens.count, isIdentifierOrOpen(tokens[index + 1]) {
                index += 1
            }
            guard let first = postfix() else { return nil }
            var members = [first]
            while take("&") {
                _ = (next == "any") ? take("any") : false
                guard let member = postfix() else { return nil }
                members.append(member)
            }
            return members.count == 1 ? first : .composition(members)
        }

        /// `Postfix := Primary ('?' | '!' | '.' Identifier)*`
        mutating func postfix() -> Node? {
            guard var node = primary() else { return nil }
            while let token = next {
                if token == "?" || token == "!" {
                    index += 1
                    node = .optional(node)
                } else if token == ".", case .tuple = node, index + 1 < tokens.count, isIdentifier(tokens[index + 1]) {
                    node = .member(node, tokens[index + 1])
                    index += 2
                } else {
                    break
                }
            }
            return node
        }

        /// A path, `[T]`, `[K: V]`, or a parenthesized list (a tuple or a function's parameters).
        mutating func primary() -> Node? {
            if take("[") {
                guard let first = type() else { return nil }
                if take(":") {
                    guard let value = type(), take("]") else { return nil }
                    return .dictionary(first, value)
                }
                return take("]") ? .array(first) : nil
            }
            if take("(") {
                var elements: [Element] = []
                if !take(")") {
                    repeat {
                        guard let element = element() else { return nil }
                        elements.append(element)
                    } while take(",")
                    guard take(")") else { return nil }
                }
                var effects: [String] = []
                while let token = next, token == "async" || token == "throws" || token == "rethrows" {
                    effects.append(token)
                    index += 1
                }
                if take("->") {
                    guard let result = type() else { return nil }
                    return .function(elements, effects: effects, result: result)
                }
                return effects.isEmpty ? .tuple(elements) : nil
            }
            return path()
        }

        /// `label: Type` or `Type`.
        mutating func element() -> Element? {
            if let token = next, isIdentifier(token), index + 1 < tokens.count, tokens[index + 1] == ":" {
                index += 2
                return type().map { Element(label: token, type: $0) }
            }
            return type().map { Element(label: nil, type: $0) }
        }

        /// `Segment ('.' Segment)*`, each `Identifier ('<' Argument (',' Argument)* '>')?`
        mutating func path() -> Node? {
            var segments: [Segment] = []
            repeat {
                guard let name = next, isIdentifier(name) else { return nil }
                index += 1
                var segment = Segment(name: name, arguments: nil)
                if take("<") {
                    var arguments: [Element] = []
                    repeat {
                        guard let argument = argument() else { return nil }
                        arguments.append(argument)
                    } while take(",")
                    guard take(">") else { return nil }
                    segment.arguments = arguments
                }
                segments.append(segment)
            } while next == "." && index + 1 < tokens.count && isIdentifier(tokens[index + 1]) && take(".")
            return .path(segments)
        }

        /// `Type` or `Type '==' Type`, whose label is the left side's last name
        /// (`Self.Mod.P.Item == Int` and `Item == Int` alike).
        mutating func argument() -> Element? {
            guard let type = type() else { return nil }
            guard take("==") else { return Element(label: nil, type: type) }
            guard case .path(let segments) = type, segments.allSatisfy({ $0.arguments == nil }),
                  let right = self.type()
            else { return nil }
            return Element(label: segments.last!.name, type: right)
        }

        func isIdentifier(_ token: String) -> Bool {
            guard let first = token.unicodeScalars.first else { return false }
            return !"<>[](),:&?!.=-".unicodeScalars.contains(first) && token != "==" && token != "->"
        }

        func isIdentifierOrOpen(_ token: String) -> Bool { isIdentifier(token) || token == "(" || token == "[" }
    }
}
