// What a migrating user still missed after the first migration table
// (issue #30), row by row. As in MigrationTests, each test is named for the
// library call it stands in for.
import Foundation
import Testing
@testable import Patchbay

@Suite(.bothEngines) struct MigrationGapTests {
    // MARK: KOInject: `dispose()` lets go of the value

    @Test func koInjectDisposeLetsGoOfTheValue() throws {
        var catalog = FactoryCatalog()
        catalog.register("part", provides: (any Widget).self) { Part(tag: "t") }
        let container = try makeContainer(catalog, [bind("Widget", to: "part")])
        let lazy = Lazy((any Widget).self, container: container)
        weak let first = try lazy.get()
        #expect(first != nil, "the Lazy keeps its value")
        lazy.reset()
        #expect(first == nil, "reset lets go of it")
        // Resetting again and again keeps nothing behind.
        var olds: [WeakWidget] = []
        for _ in 0..<100 {
            olds.append(WeakWidget(try lazy.get()))
            lazy.reset()
        }
        #expect(olds.allSatisfy { $0.widget == nil })
    }

    /// A reset while a `get` runs keeps the value it replaced until that `get` returns.
    @Test func koInjectDisposeWaitsForAReaderInFlight() throws {
        let entered = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let calls = Counter()
        var catalog = FactoryCatalog()
        catalog.register("part", provides: (any Widget).self) { () -> any Widget in
            let call = calls.increment()
            if call == 1 {  // the first caller stays inside its `get` until told
                entered.signal()
                proceed.wait()
            }
            return Part(tag: "t", serial: call)
        }
        let container = try makeContainer(catalog, [bind("Widget", to: "part")])
        let lazy = Lazy((any Widget).self, container: container)
        let done = DispatchGroup()
        done.enter()
        Thread {
            _ = try? lazy.get()
            done.leave()
        }.start()
        entered.wait()
        weak let second = try lazy.get()  // published while the first `get` still runs
        #expect(second?.serial == 2)
        lazy.reset()
        #expect(second != nil, "kept while a get that began before the reset runs")
        proceed.signal()
        done.wait()
        #expect(second == nil, "released when the last get in flight returned")
    }
}

/// A weak reference to a widget, to collect many.
struct WeakWidget {
    weak var widget: (any Widget)?
    init(_ widget: any Widget) { self.widget = widget }
}
