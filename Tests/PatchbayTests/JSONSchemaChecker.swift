// A small JSON Schema (draft 2020-12) validator for the tests: enough of the
// draft for the schemas this package writes. A keyword it does not implement
// is an error, never silently accepted, so a schema cannot pass a test by
// using something the checker ignores.
import Foundation
@testable import Patchbay

struct JSONSchemaChecker {
    /// The whole schema, for `$ref`.
    let root: JSONValue

    /// A schema keyword the checker does not implement, or a `$ref` it cannot follow.
    struct Unsupported: Error, CustomStringConvertible {
        let description: String
    }

    /// Keywords that only annotate.
    static let annotations: Set<String> = ["$schema", "$id", "$comment", "$defs", "title", "description", "default",
        "examples"]

    init(_ schema: JSONValue) { root = schema }

    init(data: Data) throws { root = try JSONDecoder().decode(JSONValue.self, from: data) }

    /// Every violation, each as `pointer: message`; empty when `instance` is valid.
    func errors(_ instance: JSONValue) throws(Unsupported) -> [String] {
        var errors: [String] = []
        try check(instance, against: root, at: "", into: &errors, depth: 0)
        return errors
    }

    /// Whether `instance` is valid.
    func accepts(_ instance: JSONValue) throws(Unsupported) -> Bool { try errors(instance).isEmpty }

    private func check(
        _ value: JSONValue, against schema: JSONValue, at path: String, into errors: inout [String], depth: Int
    ) throws(Unsupported) {
        guard depth < 64 else { throw Unsupported(description: "schema nests or refers deeper than 64 levels") }
        switch schema {
        case .bool(true): return
        case .bool(false):
            errors.append("\(path): no value is allowed here")
            return
        case .object(let keywords):
            for (keyword, argument) in keywords.sorted(by: { $0.key < $1.key }) {
                try apply(keyword, argument, in: keywords, to: value, at: path, into: &errors, depth: depth)
            }
        default:
            throw Unsupported(description: "a schema must be an object or a boolean, found \(schema)")
        }
    }

    private func apply(
        _ keyword: String, _ argument: JSONValue, in keywords: [String: JSONValue], to value: JSONValue,
        at path: String, into errors: inout [String], depth: Int
    ) throws(Unsupported) {
        func fail(_ message: String) { errors.append("\(path): \(message)") }
        switch (keyword, argument) {
        case _ where Self.annotations.contains(keyword): return
        case ("then", _), ("else", _): return  // applied by "if"
        case ("$ref", .string(let reference)):
            try check(value, against: resolve(reference), at: path, into: &errors, depth: depth + 1)
        case ("type", .string(let name)):
            if !Self.has(value, type: name) { fail("expected \(name), found \(value)") }
        case ("type", .array(let names)):
            let names = names.compactMap { if case .string(let name) = $0 { name } else { nil } }
            if !names.contains(where: { Self.has(value, type: $0) }) {
                fail("expected one of \(names), found \(value)")
            }
        case ("enum", .array(let allowed)):
            if !allowed.contains(where: { Self.equal($0, value) }) { fail("\(value) is not one of \(allowed)") }
        case ("const", _):
            if !Self.equal(argument, value) { fail("\(value) is not \(argument)") }
        case ("properties", .object(let properties)):
            guard case .object(let members) = value else { return }
            for (name, subschema) in properties.sorted(by: { $0.key < $1.key }) {
                guard let member = members[name] else { continue }
                try check(member, against: subschema, at: path + "/" + name, into: &errors, depth: depth + 1)
            }
        case ("required", .array(let names)):
            guard case .object(let members) = value else { return }
            for case .string(let name) in names where members[name] == nil { fail("missing required key '\(name)'") }
        case ("additionalProperties", _):
            guard case .object(let members) = value else { return }
            let declared = keywords["properties"]?.objectValue ?? [:]
            for (name, member) in members.sorted(by: { $0.key < $1.key }) where declared[name] == nil {
                var inner: [String] = []
                try check(member, against: argument, at: path + "/" + name, into: &inner, depth: depth + 1)
                if !inner.isEmpty { fail("key '\(name)' is not allowed") }
            }
        case ("items", _):
            guard case .array(let elements) = value else { return }
            for (offset, element) in elements.enumerated() {
                try check(element, against: argument, at: path + "/\(offset)", into: &errors, depth: depth + 1)
            }
        case ("oneOf", .array(let schemas)):
            var matching = 0
            for subschema in schemas {
                var inner: [String] = []
                try check(value, against: subschema, at: path, into: &inner, depth: depth + 1)
                if inner.isEmpty { matching += 1 }
            }
            if matching != 1 { fail("matches \(matching) of the \(schemas.count) schemas of oneOf, not exactly one") }
        case ("not", _):
            var inner: [String] = []
            try check(value, against: argument, at: path, into: &inner, depth: depth + 1)
            if inner.isEmpty { fail("matches the schema of not") }
        case ("allOf", .array(let schemas)):
            for subschema in schemas { try check(value, against: subschema, at: path, into: &errors, depth: depth + 1) }
        case ("if", _):
            var condition: [String] = []
            try check(value, against: argument, at: path, into: &condition, depth: depth + 1)
            if let branch = condition.isEmpty ? keywords["then"] : keywords["else"] {
                try check(value, against: branch, at: path, into: &errors, depth: depth + 1)
            }
        case ("minimum", _):
            guard let bound = Self.number(argument) else { throw Unsupported(description: "minimum \(argument)") }
            if let number = Self.number(value), number < bound { fail("\(number) is less than \(bound)") }
        case ("minLength", .integer(let bound)):
            if case .string(let text) = value, text.unicodeScalars.count < bound { fail("shorter than \(bound)") }
        case ("maxProperties", .integer(let bound)):
            if case .object(let members) = value, members.count > bound { fail("more than \(bound) keys") }
        case ("minItems", .integer(let bound)):
            if case .array(let elements) = value, elements.count < bound { fail("fewer than \(bound) items") }
        case ("maxItems", .integer(let bound)):
            if case .array(let elements) = value, elements.count > bound { fail("more than \(bound) items") }
        case ("uniqueItems", .bool(let unique)):
            guard unique, case .array(let elements) = value else { return }
            for (offset, element) in elements.enumerated()
            where elements[..<offset].contains(where: { Self.equal($0, element) }) {
                fail("item \(offset) repeats an earlier one")
            }
        case ("pattern", .string(let pattern)):
            guard case .string(let text) = value else { return }
            guard let regex = try? NSRegularExpression(pattern: pattern) else {
                throw Unsupported(description: "pattern \(pattern) does not compile")
            }
            if regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) == nil {
                fail("'\(text)' does not match \(pattern)")
            }
        default:
            throw Unsupported(description: "keyword '\(keyword)' with \(argument) is not implemented by the test checker")
        }
    }

    /// The subschema a local reference (`#/$defs/binding`) points to.
    private func resolve(_ reference: String) throws(Unsupported) -> JSONValue {
        guard reference.hasPrefix("#") else { throw Unsupported(description: "only local $ref: \(reference)") }
        var node = root
        for segment in reference.dropFirst().split(separator: "/", omittingEmptySubsequences: true) {
            let key = segment.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            guard case .object(let members) = node, let next = members[key] else {
                throw Unsupported(description: "$ref \(reference) points nowhere")
            }
            node = next
        }
        return node
    }

    private static func has(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object): true
        case ("number", .integer), ("number", .number), ("integer", .integer): true
        case ("integer", .number(let real)): real.rounded() == real
        default: false
        }
    }

    private static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .integer(let whole): Double(whole)
        case .number(let real): real
        default: nil
        }
    }

    /// JSON equality: 1 and 1.0 are equal numbers.
    static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
        if let x = number(a), let y = number(b) { return x == y }
        switch (a, b) {
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy(equal)
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { key, value in y[key].map { equal(value, $0) } ?? false }
        default: return a == b
        }
    }
}
