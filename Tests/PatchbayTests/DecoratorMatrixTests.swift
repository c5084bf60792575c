// Decorators of a protocol whose product is a value: a small generated
// matrix of lifetime × chain length (0 to 3) × what the chain's first link
// needs (nothing, a bound type, an unbound one) × the environments rule of
// its second link (none, allowed here, refused here). Every chain the
// validator accepts, live and offline, resolves in the order written; every
// one it refuses, it refuses for the reason expected, the same offline, and
// activation refuses it with the same codes.
//
// The validator/engine matrix (ValidatorEngineMatrixTests.swift) crosses
// these dimensions with lifetimes, arguments, injectors and need kinds, but
// its products and links are all classes of concrete types. This one stays
// for what it does not reach: an existential (`any TaggedStore`) decorated,
// a struct product wrapped by class links, so a `weak` binding is accepted
// because its chain's last link, not its factory, makes a class instance.
import Foundation
import Testing
@testable import Patchbay

@Suite struct DecoratorMatrixTests {
    /// What the chain's first link needs.
    enum Need: CaseIterable, Sendable { case nothing, bound, unbound }
    /// The environments rule of the chain's second link.
    enum Rule: CaseIterable, Sendable { case none, allowed, refused }

    @Test(arguments: Lifetime.allCases, 0...3)
    func everyChainGetsOneVerdict(_ lifetime: Lifetime, length: Int) throws {
        for need in Need.allCases {
            for rule in Rule.allCases { try check(lifetime, length: length, need: need, rule: rule) }
        }
    }

    private func check(_ lifetime: Lifetime, length: Int, need: Need, rule: Rule) throws {
        // A weak instance must be a class: the base store is a struct, its decorators are not.
        if lifetime == .weak, length == 0 { return }
        let links = [need == .nothing ? "counted" : "timed", rule == .none ? "first" : "recording", "second"]
        let chain = Array(links.prefix(length))
        let clock = need == .bound ? #",{ "protocol": "TagClock", "factory": "some-clock" }"# : ""
        let json = DecoratorTests.manifest(
            "[" + chain.map { "\"\($0)\"" }.joined(separator: ", ") + "]", lifetime: lifetime.rawValue,
            environment: rule == .refused ? "production" : "test", more: clock)
        let label = "\(lifetime) \(chain) need \(need) rule \(rule)"

        // A binding refused on its own (a link not allowed here) is broken, never in effect, so its
        // needs are not judged, as for a factory that is not allowed: one problem, one diagnostic.
        let refusedHere = length >= 2 && rule == .refused
        let expected: [DiagnosticCode] = refusedHere ? [.environmentNotAllowed]
            : length >= 1 && need == .unbound ? [.missingDependency] : []
        let catalog = DecoratorTests.catalog()
        let live = DecoratorTests.errors(json, by: ManifestValidator(catalog: catalog)).map(\.code)
        let offline = DecoratorTests.errors(json, by: ManifestValidator(description: catalog.describe())).map(\.code)
        #expect(live == expected, "\(label)")
        #expect(offline == live, "\(label)")

        let manifest = try ManifestLoader(environment: [:]).load(data: Data(json.utf8))
        if expected.isEmpty {
            let container = try Container(catalog: catalog, manifest: manifest)
            let tags = try Scope().run { try container.resolve((any TaggedStore).self).tags }
            #expect(tags == ["base"] + chain, "\(label)")
        } else {
            let error = try #require(throws: ManifestError.self, "\(label)") {
                try Container(catalog: catalog, manifest: manifest)
            }
            #expect(error.diagnostics.errors.map(\.code) == live, "\(label)")
        }
    }
}
