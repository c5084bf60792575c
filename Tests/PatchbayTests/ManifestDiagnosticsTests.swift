// One test per diagnostic code: each asserts the code, the exact line and
// column of the offending value (found by locating the token in the test's
// own JSON), and the key parts of the message.
import Foundation
import Testing
@testable import Patchbay

/// Expects exactly one diagnostic with `code`, placed at `token`, whose message contains every fragment.
@discardableResult
func expectOne(
    _ code: DiagnosticCode, in diagnostics: [Diagnostic], at token: String, of text: String, occurrence: Int = 1,
    saying fragments: [String] = [], sourceLocation: SourceLocation = #_sourceLocation
) -> Diagnostic? {
    let matching = diagnostics.with(code)
    #expect(matching.count == 1, "expected one [\(code)] in \(diagnostics)", sourceLocation: sourceLocation)
    guard let diagnostic = matching.first else { return nil }
    let expected = position(of: token, in: text, occurrence: occurrence)
    #expect(diagnostic.position == SourcePosition(line: expected.line, column: expected.column),
        "\(diagnostic) should point at \(token)", sourceLocation: sourceLocation)
    for fragment in fragments {
        #expect(diagnostic.message.contains(fragment), "'\(diagnostic.message)' lacks '\(fragment)'",
            sourceLocation: sourceLocation)
    }
    return diagnostic
}

@Suite struct SyntaxAndLimitDiagnosticsTests {
    @Test func syntaxErrorSaysWhatWasExpectedWhere() throws {
        let text = """
            {
              "format": 1,
              "bindings": [
                { "protocol": "DClock", "factory": "system-clock" }
              ]]
            }
            """
        let found = try diagnostics(text)
        #expect(found.count == 1)
        expectOne(.syntax, in: found, at: "]\n}", of: text, saying: ["expected ',' or '}' after object member", "']'"])
    }

    @Test func trailingCommaIsASyntaxError() throws {
        let text = "{\n  \"format\": 1,\n  \"bindings\": [],\n}\n"
        let found = try diagnostics(text)
        expectOne(.syntax, in: found, at: "}", of: text, saying: ["trailing comma"])
    }

    @Test func emptyFileIsASyntaxError() throws {
        let found = try diagnostics("")
        #expect(found.with(.syntax).count == 1)
        #expect(found.first?.line == 1 && found.first?.column == 1)
    }

    @Test func tooLargeIsRejectedBeforeDecoding() throws {
        let text = "{\"format\": 1, \"bindings\": [], \"environment\": \"" + String(repeating: "x", count: 200) + "\"}"
        let found = try diagnostics(text, loader: ManifestLoader(maxBytes: 100))
        #expect(found.count == 1)
        let diagnostic = try #require(found.with(.tooLarge).first)
        #expect(diagnostic.message.contains("over the limit of 100 bytes"))
        #expect(diagnostic.position == SourcePosition(line: 1, column: 1))
    }

    @Test func tooDeepIsRejectedBeforeDecoding() throws {
        let text = "{\"format\": 1, \"bindings\": [{\"protocol\": \"DClock\", \"factory\": \"system-clock\", "
            + "\"parameters\": {\"a\": " + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}}]}"
        let found = try diagnostics(text, loader: ManifestLoader(maxDepth: 10))
        #expect(found.count == 1)
        let diagnostic = try #require(found.with(.tooDeep).first)
        #expect(diagnostic.message.contains("limit of 10 levels"))
        // The bracket that opens level 11: the object is 1, bindings 2, binding 3, parameters 4, then 7 arrays.
        let (line, column) = position(of: "[[[[", in: text)
        #expect(diagnostic.position == SourcePosition(line: line, column: column + 6))
    }

    @Test func duplicateKeysAreErrorsAtTheRepeat() throws {
        let text = """
            {
              "format": 1,
              "bindings": [
                { "protocol": "DClock", "factory": "system-clock", "factory": "json-logger" }
              ]
            }
            """
        let found = try diagnostics(text)
        expectOne(.duplicateKey, in: found, at: "\"factory\"", of: text, occurrence: 2, saying: ["'factory' appears twice"])
    }
}

@Suite struct ShapeDiagnosticsTests {
    @Test func formatMissingOrUnsupported() throws {
        let missing = "{\n  \"bindings\": []\n}\n"
        expectOne(.unsupportedFormat, in: try diagnostics(missing), at: "{", of: missing, saying: ["missing key 'format'"])
        let two = "{\n  \"format\": 2,\n  \"bindings\": []\n}\n"
        expectOne(.unsupportedFormat, in: try diagnostics(two), at: "2", of: two,
            saying: ["format 2 is not supported", "understands format 1"])
    }

    /// A repeated key keeps the document from being decoded whole, and each value is then decoded
    /// from its place: the format gets the same verdict either way.
    @Test func formatVerdictIsTheSameWithARepeatedKey() throws {
        let fractions = ["1.5", "1e-400", "9999555555600001.999", "1.0000000000000001"]
        for format in ["1", "1.0", "1e0", "2", "2.000", "9007199254740993", "\"1\"", "null"] + fractions {
            let plain = "{\"format\": \(format), \"bindings\": []}"
            let repeated = "{\"format\": \(format), \"bindings\": [], \"environment\": \"a\", \"environment\": \"a\"}"
            let verdict = { (text: String) in try diagnostics(text).filter { $0.code != .duplicateKey }.map { "\($0.code) \($0.message)" } }
            #expect(try verdict(plain) == verdict(repeated), "format \(format)")
            #expect(try diagnostics(repeated).with(.duplicateKey).count == 1)
        }
        // JSONDecoder reads 1e-400 as the integer 0 and truncates the others: none is an integer here.
        for fraction in fractions {
            let text = "{\"format\": \(fraction), \"bindings\": []}"
            expectOne(.wrongType, in: try diagnostics(text), at: fraction, of: text, saying: ["'format' must be the integer 1"])
        }
    }

    @Test func unknownKeysEverywhereWithSuggestions() throws {
        let text = """
            {
              "format": 1,
              "injector": ["primary"],
              "bindings": [
                { "protocol": "DClock", "factroy": "system-clock" },
                { "protocol": "DLogger", "factory": "json-logger", "colour": "red" }
              ]
            }
            """
        let found = try diagnostics(text).with(.unknownKey)
        #expect(found.count == 3)
        let top = try #require(found.first { $0.message.contains("'injector'") })
        #expect(top.suggestion == "injectors")
        #expect(top.position == SourcePosition(line: 3, column: 3))
        let typo = try #require(found.first { $0.message.contains("'factroy'") })
        #expect(typo.suggestion == "factory" && typo.message.contains("did you mean 'factory'?"))
        let at = position(of: "\"factroy\"", in: text)
        #expect(typo.position == SourcePosition(line: at.line, column: at.column))
        let colour = try #require(found.first { $0.message.contains("'colour'") })
        #expect(colour.suggestion == nil && colour.message.contains("valid keys are"))
        // The binding with the typo has no factory: that is reported too.
        #expect(try diagnostics(text).with(.missingKey).count == 1)
    }

    @Test func missingAndMistypedKeysNameTheExpectedType() throws {
        let text = """
            {
              "format": "1",
              "bindings": [
                { "factory": "system-clock" },
                { "protocol": 7, "factory": "json-logger" },
                { "protocol": "DMetrics", "factory": "metrics", "parameters": [1] }
              ]
            }
            """
        let found = try diagnostics(text)
        expectOne(.wrongType, in: found.filter { $0.path == "/format" }, at: "\"1\"", of: text,
            saying: ["'format' must be the integer 1", "found a string"])
        expectOne(.missingKey, in: found, at: "{ \"factory\"", of: text, saying: ["missing required key 'protocol'", "string"])
        expectOne(.wrongType, in: found.filter { $0.path == "/bindings/1/protocol" }, at: "7", of: text,
            saying: ["'protocol' must be a non-empty string", "found a number"])
        expectOne(.wrongType, in: found.filter { $0.path == "/bindings/2/parameters" }, at: "[1]", of: text,
            saying: ["'parameters' must be an object"])
    }

    @Test func bindingsMustBeAnArray() throws {
        let text = "{\n  \"format\": 1,\n  \"bindings\": {}\n}\n"
        expectOne(.wrongType, in: try diagnostics(text), at: "{}", of: text, saying: ["'bindings' must be an array"])
        let none = "{\n  \"format\": 1\n}\n"
        expectOne(.missingKey, in: try diagnostics(none), at: "{", of: none, saying: ["missing key 'bindings'"])
    }

    @Test func unknownLifetimeListsTheFive() throws {
        let text = """
            {
              "format": 1,
              "bindings": [
                { "protocol": "DClock", "factory": "system-clock", "lifetime": "singelton" }
              ]
            }
            """
        let diagnostic = expectOne(.unknownLifetime, in: try diagnostics(text), at: "\"singelton\"", of: text,
            saying: ["singleton, transient, weak, scoped or graph", "did you mean 'singleton'?"])
        #expect(diagnostic?.suggestion == "singleton")
    }

    @Test func rootMustBeAnObject() throws {
        for text in ["null", "[]", "\"manifest\"", "42"] {
            let found = try diagnostics(text)
            #expect(found.count == 1 && found[0].code == .wrongType && found[0].line == 1 && found[0].column == 1,
                "\(text): \(found)")
        }
    }
}

@Suite struct NameDiagnosticsTests {
    @Test func unknownFactorySuggestsTheNearest() throws {
        let text = """
            {
              "format": 1,
              "bindings": [
                { "protocol": "DUserRepository", "factory": "sqlte" }
              ]
            }
            """
        let diagnostic = expectOne(.unknownFactory, in: try diagnostics(text), at: "\"sqlte\"", of: text,
            saying: ["unknown factory 'sqlte' for DUserRepository", "did you mean 'sqlite'?"])
        #expect(diagnostic?.suggestion == "sqlite")
        #expect(diagnostic?.description == "main.json:4:49: error: unknown factory 'sqlte' for DUserRepository; did you mean 'sqlite'? [unknown-factory]")
    }

    @Test func unknownAndAmbiguousProtocols() throws {
        let text = """
            {
              "format": 1,
              "bindings": [
                { "protocol": "DClok", "factory": "system-clock" },
                { "protocol": "Store", "factory": "first-store" },
                { "protocol": "PatchbayTests.First.Store", "factory": "first-store" }
              ]
            }
            """
        let found = try diagnostics(text)
        expectOne(.unknownProtocol, in: found, at: "\"DClok\"", of: text, saying: ["'DClok'", "did you mean 'DClock'?"])
        expectOne(.ambiguousProtocol, in: found, at: "\"Store\"", of: text,
            saying: ["matches 2 types", "PatchbayTests.First.Store", "PatchbayTests.Second.Store", "module-qualified"])
    }

    @Test func factoryThatDoesNotProvideTheProtocol() throws {
        let text = """
            {
              "format": 1,
              "bindings": [
                { "protocol": "DClock", "factory": "json-logger" }
              ]
            }
            """
        expectOne(.factoryDoesNotProvide, in: try diagnostics(text), at: "\"json-logger\"", of: text,
            saying: ["'json-logger' does not provide DClock", "it provides DLogger", "'system-clock'"])
    }

    @Test func duplicateBindingIsReportedAtBothPlaces() throws {
        let text = """
            {
              "format": 1,
              "bindings": [
                { "protocol": "DClock", "factory": "system-clock" },
                { "protocol": "DClock", "factory": "system-clock", "lifetime": "singleton" }
              ]
            }
            """
        let found = try diagnostics(text).with(.duplicateBinding)
        #expect(found.count == 2)
        #expect(Set(found.map(\.line)) == [4, 5])
        #expect(found.allSatisfy { $0.column == 5 && $0.message.contains("DClock is bound more than once") })
        #expect(found.contains { $0.message.contains("also at line 5") })
    }

    @Test func injectorArrayProblems() throws {
        let text = """
            {
              "format": 1,
              "injectors": ["primary", "eu", "eu"],
              "bindings": [
                { "protocol": "DClock", "factory": "system-clock", "injector": "us" }
              ]
            }
            """
        let found = try diagnostics(text)
        expectOne(.duplicateInjector, in: found, at: "\"eu\"", of: text, occurrence: 2, saying: ["'eu' is listed twice"])
        expectOne(.undeclaredInjector, in: found, at: "\"us\"", of: text, saying: ["'us' is not listed in 'injectors'"])
    }

    @Test func unusedFactoryIsAWarning() throws {
        let text = """
            {
              "format": 1,
              "bindings": [
                { "protocol": "DClock", "factory": "system-clock" }
              ]
            }
            """
        // Judged over a folder of environments, once per factory, at its registration.
        let folder = try ManifestFolder(["only.json": text])
        let found = try ManifestChecker(catalog: .diagnostics).check([folder.url]).diagnostics.with(.unusedFactory)
        #expect(found.count == FactoryCatalog.diagnostics.factoryNames.count - 1)
        let postgres = try #require(found.first { $0.message.hasPrefix("factory 'postgres' is not bound by any of the 1 manifest in ") })
        #expect(postgres.severity == .warning)
        #expect(postgres.file == "PatchbayTests/DiagnosticsFixtures.swift" && postgres.line > 1 && postgres.column == 1)
        // One manifest alone cannot see the other environments: no judgement.
        #expect(try diagnostics(text).with(.unusedFactory).isEmpty)
    }

    @Test func aFactoryNamedByABrokenBindingIsNotAlsoUnused() throws {
        // Each binding has another mistake (a misspelt protocol, an injector
        // not listed, a protocol the factory does not provide); its factory
        // still counts as used.
        let text = """
            {
              "format": 1,
              "injectors": ["primary"],
              "bindings": [
                { "protocol": "DClockk", "factory": "system-clock" },
                { "protocol": "DClock", "factory": "postgres", "injector": "eu" }
              ]
            }
            """
        let folder = try ManifestFolder(["only.json": text])
        let found = try ManifestChecker(catalog: .diagnostics).check([folder.url]).diagnostics
        #expect(found.with(.unknownProtocol).count == 1)
        #expect(found.with(.undeclaredInjector).count == 1)
        let unused = found.with(.unusedFactory).map(\.message)
        #expect(unused.count == FactoryCatalog.diagnostics.factoryNames.count - 2)
        #expect(!unused.contains { $0.contains("'system-clock'") || $0.contains("'postgres'") })
    }
}

@Suite struct GraphDiagnosticsTests {
    @Test func missingDependencyNamesThePathAndInjectors() throws {
        let text = """
            {
              "format": 1,
              "injectors": ["primary", "secondary", "eu"],
              "bindings": [
                { "protocol": "DSignupService", "factory": "signup" },
                { "protocol": "DUserRepository", "factory": "sqlite", "parameters": { "path": "/tmp/x" } },
                { "protocol": "DLogger", "factory": "json-logger", "injector": "eu" }
              ]
            }
            """
        let diagnostic = expectOne(.missingDependency, in: try diagnostics(text), at: "\"sqlite\"", of: text,
            saying: ["needs DDatabase", "searched primary, secondary, eu", "'postgres'"])
        #expect(diagnostic?.dependencyPath == ["DUserRepository", "DDatabase"])
    }

    @Test func dependencyCycleDrawsTheLoop() throws {
        let text = """
            {
              "format": 1,
              "bindings": [
                { "protocol": "DMailer", "factory": "smtp" },
                { "protocol": "DTemplates", "factory": "templates" }
              ]
            }
            """
        let diagnostic = expectOne(.dependencyCycle, in: try diagnostics(text), at: "\"smtp\"", of: text,
            saying: ["dependency cycle: DMailer -> DTemplates -> DMailer", "Lazy"])
        #expect(diagnostic?.dependencyPath == ["DMailer", "DTemplates", "DMailer"])
    }

    @Test func captiveDependencyForEachLongerToShorterPair() throws {
        let text = """
            {
              "format": 1,
              "bindings": [
                { "protocol": "DLogger", "factory": "request-logger", "lifetime": "singleton" },
                { "protocol": "DSession", "factory": "session", "lifetime": "scoped" }
              ]
            }
            """
        expectOne(.captiveDependency, in: try diagnostics(text), at: "\"singleton\"", of: text,
            saying: ["singleton DLogger ('request-logger') depends on scoped DSession"])
        let pairs: [(owner: String, dependency: String, captive: Bool)] = [
            ("singleton", "weak", true), ("singleton", "graph", true), ("weak", "scoped", true), ("weak", "graph", true),
            ("scoped", "graph", true), ("singleton", "transient", false), ("graph", "scoped", false),
            ("transient", "scoped", false), ("scoped", "scoped", false), ("singleton", "singleton", false),
        ]
        for pair in pairs {
            let manifest = """
                {
                  "format": 1,
                  "bindings": [
                    { "protocol": "DAudit", "factory": "audit", "lifetime": "\(pair.owner)" },
                    { "protocol": "DSession", "factory": "session", "lifetime": "\(pair.dependency)" }
                  ]
                }
                """
            let found = try diagnostics(manifest).with(.captiveDependency)
            #expect(found.count == (pair.captive ? 1 : 0), "\(pair.owner) -> \(pair.dependency): \(found)")
        }
    }

    @Test func aNeedIsServedByTheFirstInjectorInOrderThatBindsIt() throws {
        // DAudit (primary) needs DSession, which primary does not bind: the
        // graph check must follow secondary, which comes before any custom
        // injector, as resolution does.
        func captives(secondary: String, custom: String) throws -> [Diagnostic] {
            try diagnostics("""
                {
                  "format": 1,
                  "injectors": ["tests"],
                  "bindings": [
                    { "protocol": "DAudit", "factory": "audit", "lifetime": "singleton" },
                    { "protocol": "DSession", "factory": "session", "lifetime": "\(custom)", "injector": "tests" },
                    { "protocol": "DSession", "factory": "session", "lifetime": "\(secondary)", "injector": "secondary" }
                  ]
                }
                """).with(.captiveDependency)
        }
        #expect(try captives(secondary: "singleton", custom: "scoped").isEmpty)
        #expect(try captives(secondary: "scoped", custom: "singleton").count == 1)
    }

    @Test func weakNeedsAClass() throws {
        let text = """
            {
              "format": 1,
              "bindings": [
                { "protocol": "DMetrics", "factory": "metrics", "lifetime": "weak" },
                { "protocol": "DSession", "factory": "session", "lifetime": "weak" }
              ]
            }
            """
        // Protocol products (DSession's is class-bound, DMetrics' is not):
        // only a value can tell, so a note each, never a guess.
        let found = try diagnostics(text)
        let notes = found.with(.weakUnchecked)
        #expect(notes.count == 2 && notes.allSatisfy { $0.severity == .note } && !found.containsErrors, "\(found)")
        let (line, column) = position(of: "\"weak\"", in: text)
        #expect(notes.first?.line == line && notes.first?.column == column)
        #expect(notes.first?.message.contains("whether factory 'metrics' makes one") == true)
        #expect(notes.first?.message.contains("known only from its values") == true)
    }

    @Test func weakOfAProductADescriptionSaysIsNoClassIsAnError() throws {
        let text = """
            { "format": 1, "bindings": [ { "protocol": "Metrics", "factory": "metrics", "lifetime": "weak" } ] }
            """
        let description = CatalogDescription(
            types: [.init(qualified: "App.Metrics", name: "Metrics")],
            factories: [.init(
                name: "metrics", provides: ["App.Metrics"], needs: [], productType: "App.MetricsValue",
                productIsClass: false)])
        let folder = try ManifestFolder(["main.json": text])
        let (manifest, _) = ManifestLoader().loadCollecting(contentsOf: folder.file("main.json"), displayPath: "main.json")
        let found = ManifestValidator(description: description).validate(try #require(manifest))
        expectOne(.weakValueType, in: found, at: "\"weak\"", of: text,
            saying: ["'weak' needs a class instance", "'metrics'", "MetricsValue"])
    }

    @Test func argumentRequiredWhenNeededAsADependency() throws {
        let text = """
            {
              "format": 1,
              "bindings": [
                { "protocol": "DGameHost", "factory": "game-host" },
                { "protocol": "DGameViewModel", "factory": "game" }
              ]
            }
            """
        expectOne(.argumentRequired, in: try diagnostics(text), at: "\"game-host\"", of: text,
            saying: ["needs DGameViewModel", "'game' takes a resolve-time argument (DGame)"])
    }

    @Test func invalidParametersPointAtTheKeyThatDoesNotFit() throws {
        let text = """
            {
              "format": 1,
              "bindings": [
                { "protocol": "DUserRepository", "factory": "sqlite", "parameters": { "path": "/tmp/x", "poolSize": "four" } },
                { "protocol": "DClock", "factory": "system-clock", "parameters": { "zone": "UTC" } },
                { "protocol": "DDatabase", "factory": "postgres" },
                { "protocol": "DLogger", "factory": "json-logger" }
              ]
            }
            """
        let found = try diagnostics(text).with(.invalidParameters)
        #expect(found.count == 2)
        let poolSize = try #require(found.first { $0.line == 4 })
        let at = position(of: "\"four\"", in: text)
        #expect(poolSize.column == at.column)
        #expect(poolSize.message == "parameter 'poolSize' of binding DUserRepository -> 'sqlite' is the string "
            + "\"four\", but PatchbayTests.DSQLiteOptions needs an integer there")
        let clock = try #require(found.first { $0.line == 5 })
        #expect(clock.message == "binding DClock -> 'system-clock' gives parameters 'zone', but factory "
            + "'system-clock' takes none; remove 'parameters'")
        #expect(clock.column == position(of: "{ \"zone\"", in: text).column)
    }

    @Test func missingParametersAreInvalid() throws {
        let text = """
            {
              "format": 1,
              "bindings": [
                { "protocol": "DUserRepository", "factory": "sqlite" },
                { "protocol": "DDatabase", "factory": "postgres" },
                { "protocol": "DLogger", "factory": "json-logger" }
              ]
            }
            """
        let diagnostic = expectOne(.invalidParameters, in: try diagnostics(text), at: "{ \"protocol\": \"DUserRepository\"",
            of: text, saying: ["'path' of binding DUserRepository -> 'sqlite' is missing"])
        #expect(diagnostic?.message == "parameter 'path' of binding DUserRepository -> 'sqlite' is missing, but "
            + "PatchbayTests.DSQLiteOptions needs it (a string)")
    }
}

@Suite struct AllAtOnceTests {
    @Test func everyProblemIsReportedInOnePass() throws {
        let text = """
            {
              "format": 1,
              "bindings": [
                { "protocol": "DUserRepository", "factory": "sqlte" },
                { "protocol": "DLogger", "factory": "json-logger", "lifetime": "singelton" },
                { "protocol": "DMailer", "factory": "smtp" },
                { "protocol": "DTemplates", "factory": "templates" }
              ],
              "injector": ["primary"]
            }
            """
        let codes = Set(try diagnostics(text).errors.map(\.code))
        #expect(codes == [.unknownFactory, .unknownLifetime, .dependencyCycle, .unknownKey])
    }

    @Test func activationThrowsEveryProblemAndKeepsNothing() throws {
        let manifest = Manifest(bindings: [
            Binding(protocol: "DClock", factory: "sundial"),
            Binding(protocol: "DMailer", factory: "smtp"),
        ])
        #expect {
            _ = try Container(catalog: .diagnostics, manifest: manifest)
        } throws: { error in
            guard let error = error as? ManifestError else { return false }
            let codes = Set(error.diagnostics.errors.map(\.code))
            return codes == [.unknownFactory, .missingDependency] && error.description.contains("2 errors")
        }
    }
}

/// The exact words of the messages a bad parameter or catalog description
/// gets: one plain sentence of which field, what was found, what was
/// expected, in Patchbay's words rather than a decoder's.
@Suite struct MessageTextTests {
    func check(_ text: String, catalog: FactoryCatalog = .corpus, environment: [String: String] = [:]) throws -> [String] {
        let manifest = try ManifestLoader(environment: environment).load(data: Data(text.utf8), file: "m.json")
        return ManifestValidator(catalog: catalog).validate(manifest).map(\.description)
    }

    @Test func aFieldOfTheWrongType() throws {
        #expect(try check(#"{ "format": 1, "bindings": [ { "protocol": "Notifier", "factory": "webhook", "parameters": { "url": "https://x", "retries": "3x" } } ] }"#)
            == ["m.json:1:125: error: parameter 'retries' of binding Notifier -> 'webhook' is the string \"3x\", but "
                + "PatchbayTests.Corpus.WebhookOptions needs an integer there [invalid-parameters]"])
    }

    @Test func aMissingFieldOfANestedObject() throws {
        #expect(try check(#"{ "format": 1, "bindings": [ { "protocol": "Notifier", "factory": "relay", "parameters": { "server": { "host": "h" }, "headers": [] } } ] }"#)
            == ["m.json:1:102: error: parameter 'server/port' of binding Notifier -> 'relay' is missing, but "
                + "PatchbayTests.Corpus.RelayOptions needs it (an integer) [invalid-parameters]"])
    }

    @Test func aVariableThatDoesNotConvert() throws {
        #expect(try check(#"{ "format": 1, "bindings": [ { "protocol": "Notifier", "factory": "webhook", "parameters": { "url": "https://x", "retries": "${RETRIES}" } } ] }"#,
            environment: ["RETRIES": "three"])
            == ["m.json:1:125: error: parameter 'retries' of binding Notifier -> 'webhook' gets \"three\" from "
                + "environment variable RETRIES, but PatchbayTests.Corpus.WebhookOptions needs an integer there; set "
                + "RETRIES to a number [invalid-parameters]"])
    }

    @Test func aValueTheRealTypeRejects() throws {
        #expect(try check(#"{ "format": 1, "bindings": [ { "protocol": "OrderStore", "factory": "pooled-orders", "parameters": { "size": 500 } } ] }"#)
            == ["m.json:1:110: error: parameter 'size' of binding OrderStore -> 'pooled-orders' is not accepted by "
                + "PatchbayTests.Corpus.PoolOptions: size must be from 1 to 64 [invalid-parameters]"])
    }

    @Test func aFactoryCatalogJsonMayLackSaysItMayBeStale() throws {
        let manifest = try ManifestLoader(environment: [:]).load(
            data: Data(#"{ "format": 1, "bindings": [ { "protocol": "OrderStore", "factory": "cassandra-orders" } ] }"#.utf8),
            file: "m.json")
        let described = ManifestValidator(description: FactoryCatalog.corpus.describe()).validate(manifest)
        #expect(described.map(\.description) == [
            "m.json:1:69: error: unknown factory 'cassandra-orders' for OrderStore; factories that provide it: "
                + "'memory-orders', 'pooled-orders', 'sql-orders'. Is catalog.json stale? If 'cassandra-orders' was "
                + "registered since it was written, regenerate it with `swift test` (a test that calls "
                + "`catalog.refreshDescription(at:)` rewrites it) or with the app's `catalog` subcommand "
                + "(PatchbayCommandLine), e.g. `swift run my-app patchbay catalog > catalog.json` [unknown-factory]",
        ])
        // The live catalog is the app's own: nothing can be stale.
        #expect(!ManifestValidator(catalog: .corpus).validate(manifest)[0].message.contains("stale"))
    }

    @Test func aCatalogDescriptionOfAnotherFormatSaysHowToRegenerateIt() throws {
        let folder = try ManifestFolder([
            // Format 1: written before entry points, so the entry-point rule could not be applied.
            "old.json": #"{ "version": 1, "types": [], "factories": [] }"#,
            "broken.json": #"{ "version": 3, "types": [], "factories": [ { "name": "x" } ] }"#,
        ])
        #expect(throws: ManifestError.self) { try ManifestChecker.readCatalog(folder.file("old.json")) }
        let old = folder.file("old.json").relativePath
        do {
            _ = try ManifestChecker.readCatalog(folder.file("old.json"))
        } catch {
            #expect(error.problemsBeforeUnusable.map(\.description) == ["\(old):1:14: error: catalog description format 1; this "
                + "build reads formats 3 and 4 (regenerate the description from the app's catalog with this build) "
                + "[unsupported-catalog-version]"])
            #expect(error.unusablePath?.message.hasSuffix("old.json is not a catalog description this build can read (1 error). "
                + "Regenerate it with `swift test` (a test that calls `catalog.refreshDescription(at:)` rewrites it) "
                + "or with the app's `catalog` subcommand (PatchbayCommandLine), e.g. "
                + "`swift run my-app patchbay catalog > \(old)`") == true)
        }
        do {
            _ = try ManifestChecker.readCatalog(folder.file("broken.json"))
            Issue.record("a description with a factory of no 'provides' was read")
        } catch {
            // Every missing member of the factory, at the object that lacks it
            // (`productIsClass` may be absent: unknown).
            let problems = error.problemsBeforeUnusable
            #expect(problems.map(\.code) == [.missingKey, .missingKey], "\(error.diagnostics)")
            #expect(problems.allSatisfy { $0.line == 1 && $0.column == 45 && $0.path == "/factories/0" })
            #expect(problems.first?.message == "factory 'x' is missing required key 'provides'; regenerate "
                + "the description from the app's catalog")
        }
    }
}

/// The real type's own decoding, where the recorded shape cannot speak (a
/// dictionary's values).
@Suite struct DecodingMessageTextTests {
    struct Limits: Decodable, Sendable { var byName: [String: Int] }

    @Test func aValueTheRecordedShapeCannotSeeIsReportedByTheRealType() throws {
        var catalog = FactoryCatalog()
        catalog.register("limited", provides: (any Widget).self, parameters: Limits.self) { _ in Part(tag: "l") }
        let manifest = try ManifestLoader(environment: [:]).load(
            data: Data(#"{ "format": 1, "bindings": [ { "protocol": "Widget", "factory": "limited", "parameters": { "byName": { "a": "many" } } } ] }"#.utf8),
            file: "m.json")
        #expect(ManifestValidator(catalog: catalog).validate(manifest).map(\.description) == [
            "m.json:1:109: error: parameter 'byName/a' of binding Widget -> 'limited' is the string \"many\", but "
                + "PatchbayTests.DecodingMessageTextTests.Limits needs an integer there [invalid-parameters]",
        ])
    }
}
