// AtomicReference's safe members, the ones files without unsafe code call:
// a retained load, publish once, exchange, compare-and-exchange, and that
// what they hand out stays alive while another thread replaces it.
import Dispatch
import Testing
@testable import Patchbay

@Suite struct AtomicReferenceTests {
    final class Box: Sendable {
        let number: Int
        init(_ number: Int) { self.number = number }
    }

    @Test func publishOnceKeepsTheFirstValue() {
        let reference = AtomicReference<Box>()
        #expect(reference.value == nil)
        #expect(reference.initialize(Box(1)).number == 1)
        #expect(reference.initialize(Box(2)).number == 1)
        #expect(reference.value?.number == 1)
    }

    @Test func exchangeAndCompareExchangeReplaceByIdentity() {
        let reference = AtomicReference<Box>()
        let first = Box(1), second = Box(2)
        #expect(reference.exchange(first) == nil)
        #expect(!reference.compareExchange(expected: second, desired: Box(3)))
        #expect(reference.value === first)
        #expect(reference.compareExchange(expected: first, desired: second))
        #expect(reference.value === second)
        #expect(reference.exchange(nil) === second)
        #expect(reference.compareExchange(expected: nil, desired: first))
        #expect(reference.value === first)
    }

    @Test func theReferenceReleasesWhatItHoldsWhenItGoes() {
        weak var held: Box?
        do {
            let reference = AtomicReference<Box>()
            let box = Box(1)
            held = box
            reference.initialize(box)
        }
        #expect(held == nil)
    }

    /// Readers load while a writer replaces the value again and again: each
    /// load is a live object (a freed one would crash here, or fail under
    /// the sanitizers), and every replaced value is released in the end.
    @Test func retainedLoadsSurviveConcurrentReplacement() {
        let reference = AtomicReference<Box>()
        reference.initialize(Box(0))
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for round in 1...20_000 {
                if worker == 0 {
                    _ = reference.exchange(Box(round))
                } else {
                    if (reference.value?.number ?? -1) < 0 { Issue.record("a load found no live value") }
                }
            }
        }
        #expect(reference.value?.number == 20_000)
    }
}
