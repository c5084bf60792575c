// `decorator-does-not-decorate` (issue 55): the message names the link's
// type, the binding's, the injector once, and always says what to do:
// take the link out (of the chain, or of the `decorate` entry's `add`
// that put it there), or use one of the decorators of the binding's type.
import Foundation
import NotesKit
import Testing
@testable import Patchbay

@Suite struct DecoratorOfAnotherTypeTests {
    static func message(_ bindings: String, decorate: String = "[]", catalog: FactoryCatalog = .notes) throws -> String {
        let text = #"{ "format": 1, "bindings": \#(bindings), "decorate": \#(decorate) }"#
        let found = try diagnostics(text, catalog: catalog).filter { $0.code == .decoratorDoesNotDecorate }
        #expect(found.count == 1, "\(found)")
        return try #require(found.first?.message)
    }

    @Test func aTypeWithNoDecoratorsIsToldToTakeTheLinkOut() throws {
        let message = try Self.message(
            #"[{ "protocol": "Logger", "factory": "json-logger", "injector": "x", "decorators": ["timing-store"] }]"#)
        #expect(message == "decorator 'timing-store' decorates NoteStore, not Logger (the type this binding in x "
            + "binds); remove it from the chain (no decorator of the catalog decorates Logger)")
    }

    @Test func aLinkAddedByDecorateIsTakenOutOfAddOrReplacedByADecoratorOfTheType() throws {
        let message = try Self.message(
            #"[{ "protocol": "TaggedStore", "factory": "base-store", "injector": "secondary" }]"#,
            decorate: #"[{ "protocol": "TaggedStore", "add": ["clock-wrapper"] }]"#, catalog: DecoratorTests.catalog())
        #expect(message.hasPrefix("decorator 'clock-wrapper' decorates TagClock, not TaggedStore (the type this binding "
            + "in secondary binds); take it out of 'add', or use a decorator of TaggedStore: 'counted', "), "\(message)")
    }
}
