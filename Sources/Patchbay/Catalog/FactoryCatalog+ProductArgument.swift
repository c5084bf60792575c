// A several-types registration whose factory takes a resolve-time argument:
// Swinject's `.forward(...)` of a service registered with arguments, with no
// second factory to write.

extension FactoryCatalog {
    /// Registers a factory whose product provides several types and that
    /// takes a resolve-time argument, passed to it by
    /// ``Container/resolve(_:from:argument:)`` whichever provided type is
    /// asked for.
    ///
    ///     catalog.register("game-model", product: GameModel.self,
    ///                      provides: (any Scoring).self, (any Turns).self, argument: Game.self) {
    ///         (game: Game, clock: any Clock) in GameModel(game: game, clock: clock)
    ///     }
    ///     let scoring = try container.resolve((any Scoring).self, argument: game)
    ///
    /// The provided types are checked as for
    /// ``register(_:product:provides:lifetime:environments:file:line:make:)``, and the
    /// argument as for ``register(_:provides:argument:lifetime:environments:file:line:make:)``:
    /// a factory that needs one of these types must take an argument of the
    /// same type, which is passed on.
    public mutating func register<Product, Argument, each Provided, each Dependency>(
        _ name: @autoclosure () -> String,
        product: Product.Type,
        provides types: repeat (each Provided).Type,
        argument: Argument.Type,
        lifetime: Lifetime? = nil,
        environments: FactoryEnvironments? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        make: @escaping @Sendable (Argument, repeat each Dependency) throws -> Product
    ) {
        let specs = Self.dependencySpecs(repeat (each Dependency).self)
        addOrStop(environments: environments, try Self.severalTypesDefinition(
            name(), product, repeat each types, specs: specs, lifetime: lifetime, argument: TypeKey(argument), file, line
        ) { call in
            var needs = call.dependencies
            return try make(call.argument(as: Argument.self), repeat needs.next((each Dependency).self, specs))
        })
    }
}
