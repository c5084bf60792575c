import Foundation
import Testing
@testable import Patchbay

/// The tests' JSON Schema checker: each keyword it implements both accepts
/// and rejects, so the schema tests that use it can fail.
struct JSONSchemaCheckerTests {
    private func checker(_ text: String) throws -> JSONSchemaChecker { try JSONSchemaChecker(data: Data(text.utf8)) }
    private func value(_ text: String) throws -> JSONValue { try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) }

    private func expect(
        _ schema: String, accepts valid: [String], rejects invalid: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let checker = try checker(schema)
        for text in valid {
            #expect(try checker.errors(value(text)) == [], "\(schema) should accept \(text)", sourceLocation: sourceLocation)
        }
        for text in invalid {
            #expect(try !checker.accepts(value(text)), "\(schema) should reject \(text)", sourceLocation: sourceLocation)
        }
    }

    @Test func type() throws {
        try expect(#"{"type": "integer"}"#, accepts: ["1", "2.0"], rejects: ["1.5", "\"1\"", "true", "null"])
        try expect(#"{"type": "number"}"#, accepts: ["1", "1.5"], rejects: ["\"1\""])
        try expect(#"{"type": ["string", "null"]}"#, accepts: ["\"a\"", "null"], rejects: ["0", "{}"])
        try expect(#"{"type": "boolean"}"#, accepts: ["false"], rejects: ["0"])
        try expect(#"{"type": "array"}"#, accepts: ["[]"], rejects: ["{}"])
        try expect(#"{"type": "object"}"#, accepts: ["{}"], rejects: ["[]"])
    }

    @Test func enumAndConst() throws {
        try expect(#"{"enum": ["a", 1, null]}"#, accepts: ["\"a\"", "1.0", "null"], rejects: ["\"b\"", "2"])
        try expect(#"{"const": 1}"#, accepts: ["1"], rejects: ["2", "\"1\""])
        try expect(#"{"const": {"a": [1]}}"#, accepts: [#"{"a": [1]}"#], rejects: [#"{"a": [2]}"#, #"{"a": [1], "b": 0}"#])
    }

    @Test func objects() throws {
        let schema = #"{"properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": false}"#
        try expect(schema, accepts: [#"{"a": "x"}"#, "3"], rejects: ["{}", #"{"a": 1}"#, #"{"a": "x", "b": 1}"#])
        try expect(#"{"additionalProperties": {"type": "integer"}}"#, accepts: [#"{"b": 1}"#], rejects: [#"{"b": "1"}"#])
        try expect(#"{"maxProperties": 0}"#, accepts: ["{}"], rejects: [#"{"a": 1}"#])
    }

    @Test func arrays() throws {
        try expect(#"{"items": {"type": "string"}}"#, accepts: ["[]", #"["a"]"#], rejects: [#"["a", 1]"#])
        try expect(#"{"uniqueItems": true}"#, accepts: ["[1, 2]"], rejects: ["[1, 1.0]"])
        try expect(#"{"minItems": 1}"#, accepts: ["[0]"], rejects: ["[]"])
    }

    @Test func stringsAndNumbers() throws {
        try expect(#"{"minLength": 1}"#, accepts: ["\"a\"", "5"], rejects: ["\"\""])
        try expect(#"{"pattern": "^a+$"}"#, accepts: ["\"aa\""], rejects: ["\"ab\""])
        try expect(#"{"minimum": 1}"#, accepts: ["1", "\"0\""], rejects: ["0", "0.5"])
    }

    @Test func combinatorsAndReferences() throws {
        let conditional = #"""
            {"allOf": [{"if": {"properties": {"kind": {"const": "n"}}, "required": ["kind"]},
                        "then": {"required": ["number"]}, "else": {"required": ["text"]}}]}
            """#
        try expect(conditional, accepts: [#"{"kind": "n", "number": 1}"#, #"{"text": ""}"#],
            rejects: [#"{"kind": "n"}"#, #"{"kind": "t"}"#])
        let referring = ##"{"$defs": {"name": {"type": "string"}}, "items": {"$ref": "#/$defs/name"}}"##
        try expect(referring, accepts: [#"["a"]"#], rejects: ["[1]"])
        try expect("false", accepts: [], rejects: ["1"])
        let exactlyOne = #"{"oneOf": [{"required": ["a"]}, {"required": ["b"]}]}"#
        try expect(exactlyOne, accepts: [#"{"a": 1}"#, #"{"b": 1}"#], rejects: ["{}", #"{"a": 1, "b": 2}"#])
    }

    @Test func unknownKeywordsAreErrorsNotPasses() throws {
        #expect(throws: JSONSchemaChecker.Unsupported.self) { try checker(#"{"anyOf": []}"#).errors(.null) }
        #expect(throws: JSONSchemaChecker.Unsupported.self) { try checker(#"{"$ref": "other.json"}"#).errors(.null) }
        #expect(throws: JSONSchemaChecker.Unsupported.self) { try checker(##"{"$ref": "#/nowhere"}"##).errors(.null) }
    }
}
