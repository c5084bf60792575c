import Foundation
@testable import Patchbay
import Testing

/// Activating a new manifest in a running container.
struct ActivationTests {
    private func catalog(_ counter: Counter) -> FactoryCatalog {
        var catalog = FactoryCatalog()
        catalog.register("red", provides: (any Widget).self) { Part(tag: "red", serial: counter.increment()) }
        catalog.register("blue", provides: (any Widget).self) { Part(tag: "blue", serial: counter.increment()) }
        catalog.register("wrapper", provides: (any Gadget).self) { (widget: any Widget) in
            Part(tag: "wraps \(widget.tag)")
        }
        catalog.register("db", provides: (any Database).self) { FakeDatabase(label: "db") }
        return catalog
    }

    private let red = manifest([bind("Widget", to: "red", .singleton), bind("Gadget", to: "wrapper")])
    private let blue = manifest([bind("Widget", to: "blue", .singleton), bind("Gadget", to: "wrapper")])

    @Test func laterResolvesUseTheNewManifest() throws {
        let counter = Counter()
        let container = try Container(catalog: catalog(counter), manifest: red)
        let old = try container.resolve((any Widget).self)
        #expect(old.tag == "red")
        #expect(container.binding(for: (any Widget).self)?.factory == "red")

        try container.activate(blue)
        #expect(container.manifest == blue)
        #expect(container.binding(for: (any Widget).self)?.factory == "blue")
        #expect(try container.resolve((any Widget).self).tag == "blue")
        #expect(try container.resolve((any Gadget).self).tag == "wraps blue", "dependencies come from the new manifest")

        // What was handed out before stays valid and unchanged.
        #expect(old.tag == "red")
        #expect(old.serial == 1)
    }

    @Test func singletonsAreKeptByAnUnchangedBindingAndMadeAnewAfterAChange() throws {
        let counter = Counter()
        let container = try Container(catalog: catalog(counter), manifest: red)
        let first = try container.resolve((any Widget).self)
        #expect(try container.resolve((any Widget).self) === first)

        // The same manifest again: a new activation that keeps the unchanged binding's singleton.
        try container.activate(red)
        #expect(try container.resolve((any Widget).self) === first)
        #expect(counter.value == 1)

        // Another factory, then red again: red's singleton was replaced, so it is made anew.
        try container.activate(blue)
        try container.activate(red)
        let second = try container.resolve((any Widget).self)
        #expect(second !== first)
        #expect(try container.resolve((any Widget).self) === second)
        #expect(first.serial == 1, "the old singleton is still usable")
    }

    @Test func aBadManifestThrowsEveryProblemAndLeavesTheOldOneActive() throws {
        let counter = Counter()
        let container = try Container(catalog: catalog(counter), manifest: red)
        let singleton = try container.resolve((any Widget).self)

        let bad = manifest([
            bind("Widget", to: "green"),  // unknown factory
            bind("Gizmo", to: "red"),  // unknown protocol
            bind("Database", to: "db", parameters: .object(["path": .string("/x")])),  // takes no parameters
            bind("Gadget", to: "wrapper", .singleton),
            bind("Gadget", to: "wrapper", .transient),  // duplicate binding
        ])
        let error = try #require(throws: ManifestError.self) { try container.activate(bad) }
        let codes = Set(errorCodes(error))
        #expect(codes.isSuperset(of: [.unknownFactory, .unknownProtocol, .invalidParameters, .duplicateBinding]), "\(error)")
        #expect(error.diagnostics.errors.count >= 5, "every problem, not only the first: \(error)")
        #expect(error.description.contains("green"))
        #expect(error.description.contains("Gizmo"))

        // The old manifest is still in force, untouched.
        #expect(container.manifest == red)
        #expect(container.binding(for: (any Widget).self)?.factory == "red")
        #expect(try container.resolve((any Widget).self) === singleton, "the old singletons are kept")
        #expect(try container.resolve((any Gadget).self).tag == "wraps red")
        #expect(counter.value == 1)
    }

    @Test func aContainerCannotBeMadeWithABadManifest() throws {
        let error = try #require(throws: ManifestError.self) {
            try Container(catalog: catalog(Counter()), manifest: manifest([
                bind("Widget", to: "green"), bind("Gadget", to: "wrapper"),
            ]))
        }
        // The unknown factory only: Widget is bound, badly, so the wrapper's need is not also reported.
        #expect(errorCodes(error) == [.unknownFactory], "\(error)")
    }

    @Test func oneResolveReadsOneManifestEvenIfAnotherIsActivatedMeanwhile() throws {
        let holder = Box<Container>()
        let blue = self.blue
        var catalog = catalog(Counter())
        catalog.registerResolving("switching-wrapper", provides: (any Sprocket).self) { resolver in
            // Activate another manifest in the middle of building this graph.
            try holder.value!.activate(blue)
            return Part(tag: "wraps \(try resolver.resolve((any Widget).self).tag)")
        }
        let start = manifest([bind("Widget", to: "red"), bind("Sprocket", to: "switching-wrapper")])
        let container = try Container(catalog: catalog, manifest: start)
        holder.value = container
        #expect(try container.resolve((any Sprocket).self).tag == "wraps red")
        #expect(try container.resolve((any Widget).self).tag == "blue")
    }

    @Test func oneManifestIsNotJudgedForUnusedFactories() throws {
        // 'blue' and 'db' are unbound here, but may be bound in another
        // environment, which activation cannot see: `check` judges that over a folder.
        let container = try Container(catalog: catalog(Counter()), manifest: red)
        #expect(container.warnings.isEmpty)
    }

    @Test func resetDoesNotUndoAnActivationMadeMeanwhile() throws {
        // reset() recompiles the manifest it read; if another manifest is
        // activated while it compiles, the newer one must stay in force. The
        // parameters decoder (user code run during compilation) holds reset
        // at that point, deterministically.
        let gate = ParameterGate()
        var catalog = catalog(Counter())
        catalog.register("gated", provides: (any Widget).self, parameters: GatedOptions.self) { options in
            Part(tag: options.tag)
        }
        let first = manifest([bind("Widget", to: "gated", .singleton, parameters: .object(["tag": .string("first")]))])
        let container = try Container(catalog: catalog, manifest: first)
        #expect(try container.resolve((any Widget).self).tag == "first")

        GatedOptions.gate.value = gate
        defer { GatedOptions.gate.value = nil }
        let resetDone = DispatchSemaphore(value: 0)
        Thread {
            container.reset()
            resetDone.signal()
        }.start()
        gate.entered.wait()  // reset is compiling the first manifest now
        GatedOptions.gate.value = nil
        try container.activate(blue)
        gate.proceed.signal()
        resetDone.wait()

        #expect(container.manifest == blue, "the activation made during reset stays in force")
        #expect(container.binding(for: (any Widget).self)?.factory == "blue")
        #expect(try container.resolve((any Widget).self).tag == "blue")
    }
}

/// Parameters whose decoder stops at a gate, to hold a compilation in place.
struct GatedOptions: Decodable, Sendable {
    static let gate = Box<ParameterGate>()
    var tag: String

    private enum CodingKeys: String, CodingKey { case tag }

    init(from decoder: any Decoder) throws {
        tag = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .tag)
        if let gate = Self.gate.value {
            gate.entered.signal()
            gate.proceed.wait()
        }
    }
}

final class ParameterGate: Sendable {
    let entered = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
}
