@testable import Patchbay
import Testing

/// Test overrides: task-local, so code inside `withOverrides` sees them (also
/// as dependencies of other factories) and nothing else does.
struct OverrideTests {
    private func catalog(widgets: Counter = Counter()) -> FactoryCatalog {
        var catalog = FactoryCatalog()
        catalog.register("real-part", provides: (any Widget).self) { Part(tag: "real", serial: widgets.increment()) }
        catalog.register("real-gadget", provides: (any Gadget).self) { Part(tag: "real-gadget") }
        catalog.register("wrapper", provides: (any Sprocket).self) { (widget: any Widget) in
            Part(tag: "wraps \(widget.tag)")
        }
        catalog.register("real-db", provides: (any Database).self) { FakeDatabase(label: "real") }
        catalog.register("repo", provides: (any UserRepository).self) { (db: any Database) in
            FakeUserRepository(label: "repo", database: db)
        }
        catalog.register("signup", provides: SignupService.self) { (users: any UserRepository) in
            SignupService(users: users)
        }
        return catalog
    }

    private func container(widgets: Counter = Counter(), widget: Lifetime = .singleton) throws -> Container {
        try makeContainer(catalog(widgets: widgets), [
            bind("Widget", to: "real-part", widget), bind("Gadget", to: "real-gadget"),
            bind("Sprocket", to: "wrapper"), bind("Database", to: "real-db"), bind("UserRepository", to: "repo"),
            bind("SignupService", to: "signup"),
        ])
    }

    @Test func insideSeesTheOverrideOutsideDoesNot() throws {
        let container = try container()
        let fake = Part(tag: "fake")
        let inside = try container.withOverrides({ $0.override((any Widget).self, with: fake) }) {
            try container.resolve((any Widget).self)
        }
        #expect(inside === fake)
        #expect(try container.resolve((any Widget).self).tag == "real")
    }

    @Test func anOverrideIsSeenByOtherFactories() throws {
        let container = try container()
        let fake = Part(tag: "fake")
        try container.withOverrides({ $0.override((any Widget).self, with: fake) }) { () throws in
            #expect(try container.resolve((any Sprocket).self).tag == "wraps fake")
            #expect(try container.resolve((any Widget).self, from: .secondary) === fake)
            #expect(try container.resolveIfBound((any Widget).self) === fake)
        }
        #expect(try container.resolve((any Sprocket).self).tag == "wraps real")

        // Two levels down: SignupService -> UserRepository -> Database.
        let database = FakeDatabase(label: "fake")
        let signup = try container.withOverrides({ $0.override((any Database).self, with: database) }) {
            try container.resolve(SignupService.self)
        }
        #expect(signup.users.database === database)
        #expect(try container.resolve(SignupService.self).users.database?.label == "real")
    }

    @Test func asyncOverridesWork() async throws {
        let container = try container()
        let fake = Part(tag: "fake")
        let tags = try await container.withOverrides({ $0.override((any Widget).self, with: fake) }) {
            await Task.yield()
            let direct = try container.resolve((any Widget).self).tag
            // A child task inherits the override.
            let child = try await Task { try container.resolve((any Sprocket).self).tag }.value
            return [direct, child]
        }
        #expect(tags == ["fake", "wraps fake"])
        #expect(try container.resolve((any Widget).self).tag == "real")
    }

    @Test func aTypeThatIsNotBoundCanBeOverridden() throws {
        var catalog = FactoryCatalog()
        catalog.register("part", provides: (any Widget).self) { Part() }
        let container = try makeContainer(catalog, [bind("Widget", to: "part")])
        let greeting = try container.withOverrides({ $0.override((any Greeting).self, with: TextGreeting(text: "hi")) }) {
            try container.resolve((any Greeting).self)
        }
        #expect(greeting.text == "hi")
        #expect(try container.resolveIfBound((any Greeting).self) == nil)
    }

    @Test func anOverrideFactoryIsCalledEachTime() throws {
        let container = try container()
        let calls = Counter()
        try container.withOverrides({ $0.override((any Widget).self) { Part(tag: "made", serial: calls.increment()) } }) { () throws in
            #expect(try container.resolve((any Widget).self).serial == 1)
            #expect(try container.resolve((any Widget).self).serial == 2)
        }
        #expect(calls.value == 2)

        // A throwing override is a factory failure.
        let error = #expect(throws: ResolutionError.self) {
            try container.withOverrides({ $0.override((any Widget).self) { throw FixtureError(message: "nope") } }) {
                try container.resolve((any Widget).self)
            }
        }
        #expect(error?.reason == .factoryFailed)
        #expect(error?.underlying as? FixtureError == FixtureError(message: "nope"))
    }

    @Test func overridesNest() throws {
        let container = try container()
        let outer = Part(tag: "outer")
        let inner = Part(tag: "inner")
        let gadget = Part(tag: "outer-gadget")
        try container.withOverrides({
            $0.override((any Widget).self, with: outer)
            $0.override((any Gadget).self, with: gadget)
        }) {
            #expect(try container.resolve((any Widget).self) === outer)
            try container.withOverrides({ $0.override((any Widget).self, with: inner) }) { () throws in
                #expect(try container.resolve((any Widget).self) === inner, "the innermost override wins")
                #expect(try container.resolve((any Gadget).self) === gadget, "outer overrides still apply")
            }
            #expect(try container.resolve((any Widget).self) === outer, "the inner override ends with its block")
        }
        #expect(try container.resolve((any Widget).self).tag == "real")
        #expect(try container.resolve((any Gadget).self).tag == "real-gadget")
    }

    @Test func overridesBelongToOneContainer() throws {
        let first = try container()
        let second = try container()
        let fake = Part(tag: "fake")
        try first.withOverrides({ $0.override((any Widget).self, with: fake) }) { () throws in
            #expect(try first.resolve((any Widget).self) === fake)
            #expect(try second.resolve((any Widget).self).tag == "real")
            try second.withOverrides({ $0.override((any Gadget).self, with: fake) }) { () throws in
                #expect(try first.resolve((any Widget).self) === fake, "the other container's overrides don't hide these")
                #expect(try first.resolve((any Gadget).self).tag == "real-gadget")
                #expect(try second.resolve((any Gadget).self) === fake)
                #expect(try second.resolve((any Widget).self).tag == "real")
            }
        }
    }

    @Test func parallelTasksEachSeeTheirOwnOverride() async throws {
        let container = try container()
        let mismatches = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<100 {
                group.addTask {
                    let mine = Part(tag: "task-\(index)")
                    return try await container.withOverrides({ $0.override((any Widget).self, with: mine) }) {
                        var wrong = 0
                        for _ in 0..<5 {
                            await Task.yield()
                            if try container.resolve((any Widget).self) !== mine { wrong += 1 }
                            if try container.resolve((any Sprocket).self).tag != "wraps task-\(index)" { wrong += 1 }
                        }
                        return wrong
                    }
                }
            }
            // Some tasks without any override, at the same time.
            for _ in 0..<20 {
                group.addTask {
                    await Task.yield()
                    return try container.resolve((any Widget).self).tag == "real" ? 0 : 1
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }

    // Two tests that run in parallel with each other (Swift Testing's default),
    // overriding the same type of one shared container to different values.
    static let shared = Result { try OverrideTests().container(widget: .transient) }

    @Test(arguments: 0..<8)
    func parallelTestsOverridingTheSameTypeDoNotSeeEachOther(index: Int) async throws {
        let container = try Self.shared.get()
        let mine = Part(tag: "test-\(index)")
        try await container.withOverrides({ $0.override((any Widget).self, with: mine) }) {
            for _ in 0..<20 {
                #expect(try container.resolve((any Widget).self) === mine)
                try await Task.sleep(nanoseconds: 100_000)
            }
        }
        #expect(try container.resolve((any Widget).self).tag == "real")
    }

    @Test func resetForgetsSingletonsButNotOverrides() throws {
        let widgets = Counter()
        let container = try container(widgets: widgets)
        let before = try container.resolve((any Widget).self)
        #expect(try container.resolve((any Widget).self) === before)
        container.reset()
        let after = try container.resolve((any Widget).self)
        #expect(after !== before, "reset forgets singletons")
        #expect(widgets.value == 2)

        let fake = Part(tag: "fake")
        try container.withOverrides({ $0.override((any Widget).self, with: fake) }) { () throws in
            container.reset()
            #expect(try container.resolve((any Widget).self) === fake, "reset does not drop overrides in force")
        }
        #expect(try container.resolve((any Widget).self).tag == "real")
        #expect(widgets.value == 3)
    }

    @Test func anOverrideAppliesToSingletonsThatDependOnIt() throws {
        // A singleton that depends on an overridden type: inside the block it
        // should be built with the override, and that instance must not leak
        // out of the block (nor a singleton made outside leak in).
        var catalog = catalog()
        catalog.register("singleton-wrapper", provides: (any Gadget).self, lifetime: .singleton) {
            (widget: any Widget) in
            Part(tag: "wraps \(widget.tag)")
        }
        let container = try makeContainer(catalog, [
            bind("Widget", to: "real-part"), bind("Gadget", to: "singleton-wrapper"),
        ])
        let fake = Part(tag: "fake")
        let inside = try container.withOverrides({ $0.override((any Widget).self, with: fake) }) {
            try container.resolve((any Gadget).self).tag
        }
        #expect(inside == "wraps fake")
        #expect(try container.resolve((any Gadget).self).tag == "wraps real", "the overridden singleton leaked out")
        let again = try container.withOverrides({ $0.override((any Widget).self, with: fake) }) {
            try container.resolve((any Gadget).self).tag
        }
        #expect(again == "wraps fake", "a singleton made outside hides the override")
    }
}
