import Dependencies

// The resolve benchmarks' registrations in swift-dependencies.
//
// swift-dependencies keeps one value per key for the life of the process; it
// has no transient scope. What its documentation suggests instead is a
// dependency whose value is a client that makes things, so `Service` is
// registered twice: once as the one shared instance (the singleton case) and
// once as a maker (the transient case). The chain's makers read the next link
// through `@Dependency` when called, as a live implementation in an app does,
// so each link is looked up again on every resolve, as in Swinject.

/// A dependency that makes a new `Value` on each call to `make`.
public struct Maker<Value>: Sendable {
    /// Makes a new value.
    public let make: @Sendable () -> Value
}

extension DependencyValues {
    /// The one shared `Service`.
    public var service: any Service {
        get { self[SharedServiceKey.self] }
        set { self[SharedServiceKey.self] = newValue }
    }
    /// Makes a new `Service` on each call.
    public var serviceMaker: Maker<any Service> {
        get { self[ServiceMakerKey.self] }
        set { self[ServiceMakerKey.self] = newValue }
    }
    /// Makes a new A, which needs a new B, which needs a new C.
    public var chainA: Maker<any ChainA> {
        get { self[ChainAKey.self] }
        set { self[ChainAKey.self] = newValue }
    }
    /// Makes a new B, which needs a new C.
    public var chainB: Maker<any ChainB> {
        get { self[ChainBKey.self] }
        set { self[ChainBKey.self] = newValue }
    }
    /// Makes a new C.
    public var chainC: Maker<any ChainC> {
        get { self[ChainCKey.self] }
        set { self[ChainCKey.self] = newValue }
    }
}

private enum SharedServiceKey: DependencyKey {
    static let liveValue: any Service = ServiceImpl()
}

private enum ServiceMakerKey: DependencyKey {
    static let liveValue = Maker<any Service> { ServiceImpl() }
}

private enum ChainAKey: DependencyKey {
    static let liveValue = Maker<any ChainA> {
        @Dependency(\.chainB) var b
        return ChainAImpl(b: b.make())
    }
}

private enum ChainBKey: DependencyKey {
    static let liveValue = Maker<any ChainB> {
        @Dependency(\.chainC) var c
        return ChainBImpl(c: c.make())
    }
}

private enum ChainCKey: DependencyKey {
    static let liveValue = Maker<any ChainC> { ChainCImpl() }
}
