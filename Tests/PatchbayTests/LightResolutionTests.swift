// The fast path's light resolutions: transients whose whole tree is known
// are built with no resolution context. These tests pin down that they behave
// exactly as a resolution with a context would: fresh instances, the same
// error paths, cycles through a factory that calls the container found on the
// first loop, and a manifest swapped part-way never freed under their feet.
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

@Suite struct LightResolutionTests {
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

    /// Whether the fast table of `container`'s activation builds `T` light.
    func isLight<T>(_: T.Type, in container: Container) -> Bool {
        container.currentActivation().entries[ObjectIdentifier(T.self)]?.isLight == true
    }

    /// A light factory that resolves from another container by hand gets
    /// that container's binding, resolved in that container's activation.
    @Test func aLightFactoryResolvingFromAnotherContainerGetsThatContainersBinding() throws {
        var otherCatalog = FactoryCatalog()
        otherCatalog.register("other-bottom", provides: (any LightBottom).self) { LightBottomImpl(serial: 999) }
        // `graph`: not served by the other container's fast table, so its resolve goes the general way.
        let other = try makeContainer(otherCatalog, [bind("LightBottom", to: "other-bottom", .graph)])
        let container = try makeContainer(
            chainCatalog { LightBottomImpl(serial: try other.resolve((any LightBottom).self).serial + 1) }, chain)
        #expect(isLight((any LightTop).self, in: container))
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

    @Test func aTransientChainIsBuiltLightWithFreshInstancesEachTime() throws {
        let serials = Counter()
        let container = try makeContainer(chainCatalog { LightBottomImpl(serial: serials.increment()) }, chain)
        #expect(isLight((any LightTop).self, in: container))
        #expect(isLight((any LightBottom).self, in: container))
        let first = try container.resolve((any LightTop).self)
        let second = try container.resolve((any LightTop).self)
        #expect(first !== second)
        #expect(first.middle !== second.middle)
        #expect(first.middle.bottom.serial == 1)
        #expect(second.middle.bottom.serial == 2)
    }

    /// The switch the differential run uses (see `GeneralEngineWhenAsked`)
    /// really takes the light path away, and the same resolves give the same results.
    @Test func theGeneralEngineSwitchBuildsNothingLight() async throws {
        let serials = Counter()
        let catalog = chainCatalog { LightBottomImpl(serial: serials.increment()) }
        let general = try Activation.$usesGeneralEngineOnly.withValue(true) { try makeContainer(catalog, chain) }
        #expect(!isLight((any LightTop).self, in: general))
        #expect(!isLight((any LightBottom).self, in: general))
        let first = try general.resolve((any LightTop).self)
        let second = try general.resolve((any LightTop).self)
        #expect(first !== second && first.middle.bottom.serial == 1 && second.middle.bottom.serial == 2)
    }

    @Test func onlyTreesWithNothingForAContextToDoAreLight() throws {
        var catalog = chainCatalog { LightBottomImpl(serial: 0) }
        catalog.register("optional-top", provides: (any LightShared).self) { (bottom: (any LightBottom)?) in
            LightBottomImpl(serial: bottom?.serial ?? -1)
        }
        // A graph binding below: its instance is shared across the tree, which takes a context.
        let graphBelow = try makeContainer(catalog, [
            bind("LightTop", to: "top"), bind("LightMiddle", to: "middle"), bind("LightBottom", to: "bottom", .graph),
            bind("LightShared", to: "optional-top"),
        ])
        #expect(!isLight((any LightTop).self, in: graphBelow))
        #expect(!isLight((any LightShared).self, in: graphBelow), "an optional need is not light")
        // Served from another injector: its needs resolve from there.
        let secondary = try makeContainer(catalog, [
            bind("LightTop", to: "top", in: .secondary), bind("LightMiddle", to: "middle"),
            bind("LightBottom", to: "bottom"),
        ])
        #expect(!isLight((any LightTop).self, in: secondary))
        #expect(isLight((any LightMiddle).self, in: secondary))
        // A singleton is not built light, but a light tree may need one.
        let singletonBelow = try makeContainer(catalog, [
            bind("LightTop", to: "top"), bind("LightMiddle", to: "middle"), bind("LightBottom", to: "bottom", .singleton),
        ])
        #expect(isLight((any LightTop).self, in: singletonBelow))
        #expect(!isLight((any LightBottom).self, in: singletonBelow))
        let top = try singletonBelow.resolve((any LightTop).self)
        #expect(top.middle.bottom === (try singletonBelow.resolve((any LightTop).self)).middle.bottom)
    }

    @Test func aFailureDeepInALightTreeNamesTheWholePath() throws {
        let container = try makeContainer(chainCatalog { throw FixtureError(message: "no bottom") }, chain)
        #expect(isLight((any LightTop).self, in: container))
        let error = try #require(throws: ResolutionError.self) { try container.resolve((any LightTop).self) }
        #expect(error.reason == .factoryFailed)
        #expect(error.factory == "bottom")
        #expect(error.dependencyPath == ["LightTop", "LightMiddle", "LightBottom"])
        #expect(error.underlying as? FixtureError == FixtureError(message: "no bottom"))
        // The same from one level down, and the path does not keep anything from before.
        let again = try #require(throws: ResolutionError.self) { try container.resolve((any LightMiddle).self) }
        #expect(again.dependencyPath == ["LightMiddle", "LightBottom"])
    }

    @Test func aFailureInASingletonBelowALightTreeNamesTheWholePath() throws {
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
        // Light: no declared needs. Its body calls the container, which the catalog cannot see.
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
        #expect(isLight((any LightBottom).self, in: container))
        let error = try #require(throws: ResolutionError.self) { try container.resolve((any LightBottom).self) }
        #expect(error.reason == .dependencyCycle)
        #expect(error.dependencyPath == ["LightBottom", "LightShared", "LightBottom"])
        #expect(error.description.contains("LightBottom -> LightShared -> LightBottom"))
        #expect(calls.value == 1, "found before the light factory ran a second time")
    }

    @Test func aManifestActivatedPartWayThroughALightResolutionIsNotFreedUnderIt() throws {
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
        #expect(isLight((any LightMiddle).self, in: container))
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
