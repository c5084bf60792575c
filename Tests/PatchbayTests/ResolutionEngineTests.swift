// The resolution engine on chains of transients, the shape the removed
// light path used to build on its own: fresh instances, whole error paths,
// cycles through a factory that calls the container found on the first loop,
// a factory resolving from another container served by that container, and
// a manifest swapped part-way never freed under a running resolution.
import Foundation
import Testing
@testable import Patchbay

protocol LightTop: AnyObject, Sendable { var middle: any LightMiddle { get } }
protocol LightMiddle: AnyObject, Sendable { var bottom: any LightBottom { get } }
protocol LightBottom: AnyObject, Sendable { var serial: Int { get } }
protocol LightShared: AnyObject, Sendable { var serial: Int { get } }

final class LightTopImpl: LightTop {
    let middle: any LightMiddle
    init(middle: any LightMiddle) { self.middle = middle }
}
final class LightMiddleImpl: LightMiddle {
    let bottom: any LightBottom
    init(bottom: any LightBottom) { self.bottom = bottom }
}
final class LightBottomImpl: LightBottom, LightShared {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

@Suite struct ResolutionEngineTests {
    /// The light chain: top needs middle needs bottom, all transient.
    func chainCatalog(bottom: @escaping @Sendable () throws -> any LightBottom) -> FactoryCatalog {
        var catalog = FactoryCatalog()
        catalog.register("top", provides: (any LightTop).self) { (middle: any LightMiddle) in
            LightTopImpl(middle: middle)
        }
        catalog.register("middle", provides: (any LightMiddle).self) { (bottom: any LightBottom) in
            LightMiddleImpl(bottom: bottom)
        }
        catalog.register("bottom", provides: (any LightBottom).self) { try bottom() }
        return catalog
    }

    let chain = [bind("LightTop", to: "top"), bind("LightMiddle", to: "middle"), bind("LightBottom", to: "bottom")]

    /// A factory that resolves from another container by hand gets
    /// that container's binding, resolved in that container's activation.
    @Test func aFactoryResolvingFromAnotherContainerGetsThatContainersBinding() throws {
        var otherCatalog = FactoryCatalog()
        otherCatalog.register("other-bottom", provides: (any LightBottom).self) { LightBottomImpl(serial: 999) }
        let other = try makeContainer(otherCatalog, [bind("LightBottom", to: "other-bottom", .graph)])
        let container = try makeContainer(
            chainCatalog { LightBottomImpl(serial: try other.resolve((any LightBottom).self).serial + 1) }, chain)
        #expect(try container.resolve((any LightTop).self).middle.bottom.serial == 1000)
        #expect(try container.resolve((any LightBottom).self).serial == 1000)
        // A type only the other container binds, made there as a singleton on first use.
        var sharedCatalog = FactoryCatalog()
        sharedCatalog.register("shared", provides: (any LightShared).self) { LightBottomImpl(serial: 7) }
        let sharing = try makeContainer(sharedCatalog, [bind("LightShared", to: "shared", .singleton)])
        let asking = try makeContainer(
            chainCatalog { LightBottomImpl(serial: try sharing.resolve((any LightShared).self).serial) }, chain)
        #expect(try asking.resolve((any LightTop).self).middle.bottom.serial == 7)
    }

    @Test func aTransientChainIsMadeWithFreshInstancesEachTime() throws {
        let serials = Counter()
        let container = try makeContainer(chainCatalog { LightBottomImpl(serial: serials.increment()) }, chain)
        let first = try container.resolve((any LightTop).self)
        let second = try container.resolve((any LightTop).self)
        #expect(first !== second)
        #expect(first.middle !== second.middle)
        #expect(first.middle.bottom.serial == 1)
        #expect(second.middle.bottom.serial == 2)
    }

    @Test func aTransientTreeOverASingletonSharesTheSingleton() throws {
        let catalog = chainCatalog { LightBottomImpl(serial: 0) }
        let container = try makeContainer(catalog, [
            bind("LightTop", to: "top"), bind("LightMiddle", to: "middle"), bind("LightBottom", to: "bottom", .singleton),
        ])
        let top = try container.resolve((any LightTop).self)
        #expect(top.middle.bottom === (try container.resolve((any LightTop).self)).middle.bottom)
    }

    @Test func aFailureDeepInATransientTreeNamesTheWholePath() throws {
        let container = try makeContainer(chainCatalog { throw FixtureError(message: "no bottom") }, chain)
        let error = try #require(throws: ResolutionError.self) { try container.resolve((any LightTop).self) }
        #expect(error.reason == .factoryFailed)
        #expect(error.factory == "bottom")
        #expect(error.dependencyPath == ["LightTop", "LightMiddle", "LightBottom"])
        #expect(error.underlying as? FixtureError == FixtureError(message: "no bottom"))
        // The same from one level down, and the path does not keep anything from before.
        let again = try #require(throws: ResolutionError.self) { try container.resolve((any LightMiddle).self) }
        #expect(again.dependencyPath == ["LightMiddle", "LightBottom"])
    }

    @Test func aFailureInASingletonBelowATransientTreeNamesTheWholePath() throws {
        let container = try makeContainer(chainCatalog { throw FixtureError(message: "no bottom") }, [
            bind("LightTop", to: "top"), bind("LightMiddle", to: "middle"), bind("LightBottom", to: "bottom", .singleton),
        ])
        let error = try #require(throws: ResolutionError.self) { try container.resolve((any LightTop).self) }
        #expect(error.factory == "bottom")
        #expect(error.dependencyPath == ["LightTop", "LightMiddle", "LightBottom"])
    }

    @Test func aCycleThroughAFactoryThatCallsTheContainerIsFoundOnTheFirstLoop() throws {
        let holder = Box<Container>()
        let calls = Counter()
        var catalog = FactoryCatalog()
        // No declared needs: its body calls the container, which the catalog cannot see.
        catalog.register("bottom", provides: (any LightBottom).self) { () throws -> any LightBottom in
            calls.increment()
            _ = try holder.value!.resolve((any LightShared).self)
            return LightBottomImpl(serial: 0)
        }
        catalog.register("shared", provides: (any LightShared).self) { () throws -> any LightShared in
            LightBottomImpl(serial: try holder.value!.resolve((any LightBottom).self).serial)
        }
        let container = try makeContainer(catalog, [
            bind("LightBottom", to: "bottom"), bind("LightShared", to: "shared"),
        ])
        holder.value = container
        let error = try #require(throws: ResolutionError.self) { try container.resolve((any LightBottom).self) }
        #expect(error.reason == .dependencyCycle)
        #expect(error.dependencyPath == ["LightBottom", "LightShared", "LightBottom"])
        #expect(error.description.contains("LightBottom -> LightShared -> LightBottom"))
        #expect(calls.value == 1, "found before the factory ran a second time")
    }

    @Test func aManifestActivatedPartWayThroughAResolutionIsNotFreedUnderIt() throws {
        weak var oldSingleton: LightBottomImpl?
        let holder = Box<Container>()
        let serials = Counter()
        var catalog = FactoryCatalog()
        catalog.register("bottom", provides: (any LightBottom).self) { LightBottomImpl(serial: serials.increment()) }
        catalog.register("shared", provides: (any LightShared).self) { LightBottomImpl(serial: -1) }
        // Needs two things: the first swaps the manifest and resolves through
        // the container (which moves this thread's cache to the new one); the
        // second is then read from the old activation's table.
        catalog.register("middle", provides: (any LightMiddle).self) {
            (first: any LightShared, second: any LightBottom) in
            LightMiddleImpl(bottom: second)
        }
        catalog.register("swapping", provides: (any LightShared).self) { () throws -> any LightShared in
            let container = holder.value!
            try container.activate(manifest([
                bind("LightMiddle", to: "middle"), bind("LightShared", to: "shared"), bind("LightBottom", to: "bottom"),
            ]))
            _ = try container.resolve((any LightBottom).self)
            return LightBottomImpl(serial: 0)
        }
        let container = try makeContainer(catalog, [
            bind("LightMiddle", to: "middle"), bind("LightShared", to: "swapping"),
            bind("LightBottom", to: "bottom", .singleton),
        ])
        holder.value = container
        let made = try container.resolve((any LightBottom).self)
        oldSingleton = made as? LightBottomImpl
        let middle = try container.resolve((any LightMiddle).self)
        #expect(middle.bottom === made, "the second need came from the activation the resolution began with")
        #expect(container.binding(for: (any LightShared).self)?.factory == "shared")
        // Once the resolution is over, the old activation (and its singleton) can go.
        _ = consume made
        _ = consume middle
        #expect(oldSingleton == nil)
    }

    @Test func instancesAreReadFromTheirBoxesWhateverTheirAlignment() {
        func check<T: Equatable>(_ value: T) {
            let box: AnyObject = Instance(value)
            #expect(unboxed(Unmanaged.passUnretained(box), as: T.self) == value, "\(T.self)")
        }
        check(UInt8(0xA5))
        check(Int.min)
        check("a string long enough to live on the heap, not inline")
        check(SIMD4<Float>(1, 2, 3, 4))
        check(SIMD16<UInt8>(repeating: 7))
        check(SIMD8<Double>(repeating: 2.5))
        check([1, 2, 3])
        let object = LightBottomImpl(serial: 42)
        let existential: any LightBottom = object
        let box: AnyObject = Instance(existential)
        #expect(unboxed(Unmanaged.passUnretained(box), as: (any LightBottom).self) === object)
    }
}
