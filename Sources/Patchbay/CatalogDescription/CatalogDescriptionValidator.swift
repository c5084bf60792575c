import Foundation

/// Reads a catalog description's bytes the way a manifest is read: every
/// problem reported at once, each at its line and column in the file, with a
/// stable code and what to do, in Patchbay's words. `patchbay check` judges
/// manifests by the description, so a broken one must be refused as itself,
/// not let through to blame the manifests.
///
/// ## The rules, in the order they run
///
/// 1. `too-large`, `too-deep`, `syntax`: the bytes are one JSON document
///    within a manifest's default limits (``ManifestLoader/maxBytes``,
///    ``ManifestLoader/maxDepth``: 16 MiB, 64 levels), read as strictly as a
///    manifest. After one of these nothing else can be read.
/// 2. `duplicate-key`: no object holds a key twice.
/// 3. `wrong-type`: the document is an object.
/// 4. `unsupported-catalog-version`: `version` is an integer this build
///    reads (``CatalogDescription/readableVersions``: the format it writes,
///    ``CatalogDescription/currentVersion``, and the one before). When it is not, nothing
///    more is checked: the rest is in another format, and regenerating the
///    file fixes it whole.
/// 5. `missing-key`, `wrong-type`: every member the format requires is
///    present, and every member has its JSON type. `JSONDecoder` decodes the
///    description once, and each misfit is noted at its place (see
///    `CatalogDescription+Decoding.swift`). A decorator has the shape
///    `registerDecorator` writes, else it is `wrong-type`: one provided
///    type, its `productType` too, no `argument` or `defaultLifetime`,
///    and, in format 3, no `async` `execution` (`checkDecoratorShape`).
/// 6. `unknown-lifetime`, `unknown-execution`, `unknown-parameter-decoding`:
///    a factory's `defaultLifetime` and `execution`, and the
///    `parameterDecoding` strategies, are values this build knows.
/// 7. `unknown-need-kind`: each need's `kind` is one this build knows. A
///    new kind changes what the checks must do: a build that predates it
///    refuses a description that uses it, by this rule (`provider` was
///    added so, without a new `version`: descriptions that do not use it
///    read as before).
/// 8. `unknown-field-type`: each parameter field's `type` is one of the JSON
///    types the app records, and its `bits`, when present, are those of a
///    Swift integer type (8, 16, 32 or 64) on an `integer` field.
/// 9. `invalid-name`: a factory's name, and each type's qualified and short
///    names, are non-empty and hold no control character, as registration
///    requires (``FactoryCatalog/validNameProblem(_:)``).
/// 10. `duplicate-name`: a factory name, a type's qualified name, or a
///     field's name in one object, listed twice.
/// 11. `undeclared-type`: every type a factory provides, needs or takes as
///     its argument, and every entry point's type, is listed in `types`
///     (whose short names manifests use).
/// 12. `conflicting-environments`: a factory gives `environments` or
///     `exceptEnvironments`, never both (a registration names one; the
///     other would be ignored, silently).
/// 13. `invalid-source-place`: each `registeredAt` and `declaredAt` is
///     `FILE:LINE[:COLUMN]` with FILE relative to the package's root and
///     inside it: not absolute, no `..` segment, and, when the description is
///     read in its package (``packageRoot``), not a folder or any other file
///     that is not a regular one. The tools print these places in messages
///     and CI annotations, so a place that names another file on the machine
///     would send a reader (or a CI annotation) there: the diagnostic is at
///     the value's place in the description, and no tool prints the place
///     itself. A place whose file is not found is no problem: a description
///     copied away from its package keeps its places.
/// 14. `invalid-source-folder`: each of `sources.folders` is a folder inside
///     the package (relative, no `..` segment, not empty, and, read in its
///     package, no link on its way that leads out), listed once however it is
///     spelled, and there are at most ``maxSourceFolders`` of them: the fingerprint of a
///     description's sources reads every Swift file below them at each check,
///     and `/usr` listed 50 times made a check walk it 50 times.
///
/// A value inside one that broke a rule of shape (5) is not judged again:
/// one problem, one diagnostic. Keys this build does not know are ignored,
/// as `JSONDecoder` ignores them: a later build may record more of a factory
/// without a new `version`, and its descriptions stay readable here.
///
/// Every problem is kept, each at its place (a message is made and its place
/// looked up once each, and a long array's elements are indexed for that);
/// only printing limits how many are shown, as for a manifest.
struct CatalogDescriptionValidator {
    /// The file as the user named it, as diagnostics name it.
    let file: String
    /// The size and depth limits, a manifest's.
    var maxBytes = ManifestLoader.defaultMaxBytes, maxDepth = ManifestLoader.defaultMaxDepth
    /// The root of the package the description is read in, to know a place's
    /// file (rule 13); nil judges the places' text alone.
    var packageRoot: URL?

    /// The most folders `sources` lists (rule 14): one per module that registers
    /// factories; a package has tens, far fewer than this.
    static let maxSourceFolders = 1_000

    /// What every message ends with: a description is written by the app, so
    /// regenerating it is the fix (``CatalogDescription/howToRegenerate(_:)`` says how).
    static let regenerate = "regenerate the description from the app's catalog"

    /// The field types the app records (``CatalogDescription/ParameterField/type``).
    static let fieldTypes = ["string", "integer", "number", "boolean", "object", "array", "any"]

    /// The description, when it has no problem, and every problem found.
    func validate(_ data: Data) -> (description: CatalogDescription?, diagnostics: [Diagnostic]) {
        let run = Run(self)
        let description = run.read(data)
        return (run.diagnostics.isEmpty ? description : nil, run.diagnostics)
    }
}

extension CatalogDescriptionValidator {
    /// One validation: the diagnostics so far, and where values stand. A
    /// class, so that a message made only when it is listed can read the map.
    private final class Run {
        /// What is read, and how: the file's name, the limits, the package.
        private let settings: CatalogDescriptionValidator
        private var root: JSONPlace?
        private(set) var diagnostics: [Diagnostic] = []
        /// The pointers of values that broke a rule of shape, or whose placeholder stands for a missing member.
        private var broken: Set<String> = []
        private var description: CatalogDescription?
        /// The types the description lists (rule 11).
        private lazy var declared = Set(description?.types.map(\.qualified) ?? [])

        init(_ settings: CatalogDescriptionValidator) { self.settings = settings }

        // MARK: - Rules 1 to 5: the document and its shape

        func read(_ data: Data) -> CatalogDescription? {
            let document = JSONScanner.scan(data, maxBytes: settings.maxBytes, maxDepth: settings.maxDepth)
            let start = SourcePosition(line: 1, column: 1)
            if let exceeded = document.sizeExceeded {
                report(.tooLarge, "the catalog description is \(exceeded.size) bytes, over the limit of \(exceeded.limit) "
                    + "bytes, far beyond any description an app writes; \(regenerate)", at: "", position: start)
                return nil
            }
            if let exceeded = document.depthExceeded {
                report(.tooDeep, "JSON nests deeper than the limit of \(exceeded.limit) levels, deeper than any "
                    + "description the app writes; \(regenerate)", at: "", position: exceeded.position)
                return nil
            }
            // A value no decoder represents comes first: reading stops at the first syntax error.
            if let error = document.unrepresentable {
                report(.syntax, error.message + "; \(regenerate)", at: "", position: error.position)
            }
            if let error = document.syntaxError {
                report(.syntax, error.message + "; \(regenerate) (a merge or a cut-off write leaves it so)", at: "",
                    position: error.position)
            }
            guard !document.isUnusable, let root = document.root else { return nil }
            self.root = root
            for duplicate in document.duplicateKeys {
                report(.duplicateKey, "key '\(duplicate.key)' appears twice in one object (first at line "
                    + "\(duplicate.first.line), column \(duplicate.first.column)); JSON parsers silently keep one of "
                    + "them: \(regenerate)", at: duplicate.pointer, position: duplicate.duplicate)
            }
            let problems = ShapeProblems()
            let decoder = JSONDecoder()
            decoder.userInfo[.catalogShapeProblems] = problems
            guard let checked = try? decoder.decode(Checked<CatalogDescription>.self, from: data) else {
                // The scanner and JSONDecoder differ on a few documents (`0e9`), which the format's reference lists.
                report(.syntax, "Foundation's JSONDecoder does not read this JSON (a number such as 0e9?); "
                    + regenerate, at: "", position: start)
                return nil
            }
            let found = problems.all
            if let notObject = found.first(where: { $0.path.isEmpty }), case .mismatch(_, let what) = notObject.kind {
                report(.wrongType, "a catalog description is a JSON object with 'version', 'types' and 'factories'; "
                    + "found \(what); \(regenerate)", at: "")
                return nil
            }
            guard let description = checked.value, checkVersion(description.version, found) else { return nil }
            self.description = description
            for problem in found { reportShape(problem) }
            checkTypes(description.types)
            checkFactories(description.factories, decorators: description.decorators ?? [])
            for (offset, entry) in (description.entryPoints ?? []).enumerated() {
                checkDeclared(entry.type, at: ["entryPoints", String(offset), "type"], as: "declares the entry point")
                checkPlace(entry.declaredAt, at: ["entryPoints", String(offset), "declaredAt"])
            }
            checkSourceFolders(description.sources?.folders ?? [])
            return description
        }

        /// Rule 4; false when the rest is not to be read.
        private func checkVersion(_ version: Int, _ found: [ShapeProblems.Problem]) -> Bool {
            let current = CatalogDescription.currentVersion
            let formats = CatalogDescription.readableVersionsText
            let problem = found.first { $0.path == ["version"] || ($0.path.isEmpty && $0.kind == .missing(key: "version")) }
            let written = root?.value(atPath: ["version"])
            switch problem?.kind {
            case .missing?:
                report(.unsupportedCatalogVersion, "missing key 'version'; this build reads catalog description format "
                    + "\(current) (\"version\": \(current)): \(regenerate)", at: "")
            case .mismatch? where written.map({ $0.kind == .number && JSONNumber.isWhole($0.text) }) == true:
                // A whole number past Int (9223372036854775808) is a format this build does not read, as any other is.
                let text = written?.text ?? ""
                report(.unsupportedCatalogVersion, "catalog description format \(Self.quoted(text)); this build reads "
                    + "\(formats) (\(regenerate) with this build)", at: "/version")
            case .mismatch(_, let what)?, .notOneOf(_, let what)?:
                report(.unsupportedCatalogVersion, "'version' must be an integer, the description's format; found "
                    + "\(what). This build reads \(formats): \(regenerate)", at: "/version")
            case nil where !CatalogDescription.readableVersions.contains(version):
                report(.unsupportedCatalogVersion, "catalog description format \(version); this build reads "
                    + formats + (version > current ? " (a newer Patchbay wrote it: update this one, or " : " (")
                    + "\(regenerate) with this build)", at: "/version")
            case nil:
                return true
            }
            return false
        }

        /// Rules 5 and 6: one problem decoding met.
        private func reportShape(_ problem: ShapeProblems.Problem) {
            let pointer = Self.pointer(problem.path)
            switch problem.kind {
            case .missing(let key):
                broken.insert(pointer + "/" + JSONPointer.escape(key))
                report(.missingKey, "\(subject(problem.path)) is missing required key '\(key)'; \(regenerate)",
                    at: pointer)
            case .mismatch(let expected, let what):
                broken.insert(pointer)
                report(.wrongType, "\(subject(problem.path)) must be \(expected); found \(what); \(regenerate)",
                    at: pointer)
            case .notOneOf(let choices, let text):
                broken.insert(pointer)
                let (code, what): (DiagnosticCode, String) =
                    switch problem.path.last {
                    case "defaultLifetime": (.unknownLifetime, "lifetime")
                    case "execution": (.unknownExecution, "execution")
                    default: (.unknownParameterDecoding, "parameter decoding strategy")
                    }
                reportUnknown(code, what, text, at: problem.path, choices: choices)
            }
        }

        // MARK: - Rules 7 to 11: what the values say

        private func checkTypes(_ types: [CatalogDescription.TypeName]) {
            var firstOfName: [String: Int] = [:]
            for (offset, type) in types.enumerated() {
                let path = ["types", String(offset)]
                _ = checkName(type.name, at: path + ["name"], what: "type's short name")
                guard checkName(type.qualified, at: path + ["qualified"], what: "type's qualified name") else { continue }
                checkUnique(type.qualified, at: path + ["qualified"], what: "type", rule: "the app lists each type once",
                    firstOf: &firstOfName)
            }
        }

        /// The factories and the decorators (read as factories), whose names are one space.
        private func checkFactories(_ factories: [CatalogDescription.Factory], decorators: [CatalogDescription.Factory]) {
            let kinds = DependencySpec.Kind.allCases.map(\.rawValue)
            var firstOfName: [String: Int] = [:], firstOfDecorator: [String: Int] = [:]
            let listed = factories.enumerated().map { (["factories", String($0.offset)], $0.element) }
                + decorators.enumerated().map { (["decorators", String($0.offset)], $0.element) }
            for (path, factory) in listed {
                let isDecorator = path[0] == "decorators"
                if checkName(factory.name, at: path + ["name"], what: isDecorator ? "decorator name" : "factory name") {
                    if isDecorator {
                        checkUnique(factory.name, at: path + ["name"], what: "decorator",
                            rule: "the app registers each name once", firstOf: &firstOfDecorator)
                    } else {
                        checkUnique(factory.name, at: path + ["name"], what: "factory",
                            rule: "the app registers each factory name once", firstOf: &firstOfName)
                    }
                    if isDecorator, let first = firstOfName[factory.name], !isBroken(path + ["name"]) {
                        report(.duplicateName, "decorator \(Self.quoted(factory.name)) "
                            + "has the name of a factory (at \(place(of: Self.pointer(["factories", String(first), "name"]))))"
                            + "; the app registers each name once: \(regenerate)", at: Self.pointer(path + ["name"]))
                    }
                }
                for (index, type) in factory.provides.enumerated() {
                    checkDeclared(type, at: path + ["provides", String(index)], as: "provides")
                }
                if isDecorator { checkDecoratorShape(factory, at: path) }
                for (index, need) in (factory.needs ?? []).enumerated() {
                    let needPath = path + ["needs", String(index)]
                    checkDeclared(need.type, at: needPath + ["type"], as: "needs")
                    if !kinds.contains(need.kind), !isBroken(needPath + ["kind"]) {
                        reportUnknown(.unknownNeedKind, "need kind", need.kind, at: needPath + ["kind"], choices: kinds)
                    }
                }
                if let argument = factory.argument {
                    checkDeclared(argument, at: path + ["argument"], as: "takes as its argument")
                }
                if factory.environments != nil, factory.exceptEnvironments != nil {
                    // One would be ignored: a registration names one list, never both.
                    report(.conflictingEnvironments, "\(factoryLabel(path)) has both 'environments' and "
                        + "'exceptEnvironments', and a registration names one of them, never both (one would be "
                        + "ignored): \(regenerate)",
                        at: Self.pointer(path + ["exceptEnvironments"]))
                }
                if let fields = factory.parameters?.fields {
                    checkFields(fields, at: path + ["parameters", "fields"])
                }
                checkPlace(factory.registeredAt, at: path + ["registeredAt"])
            }
        }

        /// Rule 5 for a decorator: what `registerDecorator` can write. It
        /// provides one type (the one it decorates), which is its product
        /// type too, and takes no argument,
        /// and has no default lifetime (it lives as the binding it decorates
        /// does); it runs synchronously, on the main actor or, from format 4,
        /// `async` (format 3 was written before `async` decorators): any
        /// other shape is no decorator the app has, so it is `wrong-type`,
        /// as a factory member of the wrong JSON type is.
        private func checkDecoratorShape(_ decorator: CatalogDescription.Factory, at path: [String]) {
            let label = factoryLabel(path)
            if decorator.provides.count != 1, !isBroken(path + ["provides"]) {
                report(.wrongType, "'provides' of \(label) must be one type, the type it decorates; found "
                    + (decorator.provides.isEmpty ? "none" : "\(decorator.provides.count)") + "; \(regenerate)", at: Self.pointer(path + ["provides"]))
            } else if decorator.provides.count == 1, decorator.productType != decorator.provides[0],
                !isBroken(path + ["productType"]), !isBroken(path + ["provides"]) {
                // `registerDecorator` writes the decorated type as both: a decorator's product is what it wraps.
                report(.wrongType, "'productType' of \(label) is \(Self.quoted(decorator.productType)), but a decorator's "
                    + "product is the type it decorates, which its 'provides' names: \(Self.quoted(decorator.provides[0])); "
                    + regenerate, at: Self.pointer(path + ["productType"]))
            }
            let absent: [(key: String, present: Bool, why: String)] = [
                ("argument", decorator.argument != nil, "a decorator takes no resolve-time argument"),
                ("defaultLifetime", decorator.defaultLifetime != nil,
                 "a decorator has no lifetime of its own: its chain lives as the binding it decorates"),
                ("execution", decorator.execution == .async && description?.version ?? 0 < 4,
                 "an async decorator is written in format 4; this description is format 3, written before them"),
            ]
            for member in absent where member.present && !isBroken(path + [member.key]) {
                report(.wrongType, "\(label) has '\(member.key)', which no decorator has (\(member.why)); "
                    + regenerate, at: Self.pointer(path + [member.key]))
            }
        }

        /// Rules 8 and 10 for a parameter type's fields, nested ones too, without recursion.
        private func checkFields(_ top: [CatalogDescription.ParameterField], at topPath: [String]) {
            var pending = [(fields: top, path: topPath)]
            while let (fields, path) = pending.popLast() {
                var firstOfName: [String: Int] = [:]
                for (offset, field) in fields.enumerated() {
                    let fieldPath = path + [String(offset)]
                    guard !isBroken(fieldPath) else { continue }
                    if !isBroken(fieldPath + ["name"]) {
                        checkUnique(field.name, at: fieldPath + ["name"], what: "field",
                            rule: "a parameter type reads each key once", firstOf: &firstOfName)
                    }
                    if !CatalogDescriptionValidator.fieldTypes.contains(field.type), !isBroken(fieldPath + ["type"]) {
                        reportUnknown(.unknownFieldType, "field type", field.type, at: fieldPath + ["type"],
                            choices: CatalogDescriptionValidator.fieldTypes)
                    } else if let bits = field.bits, !isBroken(fieldPath + ["bits"]),
                              field.type != "integer" || ![8, 16, 32, 64].contains(bits) {
                        report(.unknownFieldType, "\(subject(fieldPath)) has 'bits' \(bits) on a field of type "
                            + "'\(field.type)'; 'bits' are those of a Swift integer type (8, 16, 32 or 64), on an "
                            + "'integer' field only; \(regenerate)", at: Self.pointer(fieldPath + ["bits"]))
                    }
                    if let nested = field.fields { pending.append((nested, fieldPath + ["fields"])) }
                }
            }
        }

        /// Rule 13 for one place: it names a file inside the package.
        private func checkPlace(_ text: String?, at path: [String]) {
            guard let text, !isBroken(path) else { return }
            guard let place = SourceLocations.Place(text) else {
                report(.invalidSourcePlace, "\(subject(path)) is \(Self.quoted(text)), which is not a place "
                    + "FILE:LINE[:COLUMN]; \(Self.placeRule): \(regenerate)", at: Self.pointer(path))
                return
            }
            // A place outside the package is never looked up on disk.
            guard let problem = SourceLocations.outsideProblem(place.file)
                ?? settings.packageRoot.flatMap({ SourceLocations.notRegularFile(place.file, in: $0) })
                    .map({ "a place in \($0), not in a Swift file" })
            else { return }
            report(.invalidSourcePlace, "\(subject(path)) is \(Self.quoted(text)), \(problem); \(Self.placeRule): "
                + regenerate, at: Self.pointer(path))
        }

        /// What a place must be, for a message.
        static let placeRule = "a place is a Swift file of the package, relative to its root (Sources/App/Catalog.swift:12:9)"

        /// Rule 14: the folders the fingerprint reads are the package's, each once, and few.
        private func checkSourceFolders(_ folders: [String]) {
            let path = ["sources", "folders"]
            guard !folders.isEmpty, !isBroken(path) else { return }
            if folders.count > maxSourceFolders {
                report(.invalidSourceFolder, "'sources.folders' lists \(folders.count) folders, over the limit of "
                    + "\(maxSourceFolders) (one per module that registers factories); \(regenerate)", at: Self.pointer(path))
                return
            }
            var firstOf: [String: Int] = [:]
            for (offset, folder) in folders.enumerated() {
                let folderPath = path + [String(offset)]
                var problem = folder.isEmpty ? "an empty path" : SourceLocations.outsideProblem(folder)
                if problem == nil, settings.packageRoot.map({ SourceLocations.leadsOutside(folder, in: $0) }) == true {
                    // `lib/usr`, `lib` a link to `/`: no `..`, and still a walk of /usr.
                    problem = "a path through a link that leads outside the package"
                }
                // One folder however it is spelled (`./Sources/App/`), as the fingerprint walks it.
                let key = settings.packageRoot.map { SourceLocations.physical(folder, in: $0) } ?? folder
                if let problem {
                    report(.invalidSourceFolder, "'sources.folders[\(offset)]' is \(Self.quoted(folder)), \(problem); "
                        + "it lists the package's module folders, relative to its root (Sources/App): \(regenerate)",
                        at: Self.pointer(folderPath))
                } else if let first = firstOf[key] {
                    report(.invalidSourceFolder, "'sources.folders[\(offset)]' \(Self.quoted(folder)) is listed twice "
                        + "(first at \(place(of: Self.pointer(path + [String(first)])))); each folder is read once: "
                        + "\(regenerate)", at: Self.pointer(folderPath))
                } else {
                    firstOf[key] = offset
                }
            }
        }

        /// Rule 9; true when the name is valid (or already reported as broken).
        private func checkName(_ name: String, at path: [String], what: String) -> Bool {
            if isBroken(path) { return false }
            guard let problem = FactoryCatalog.validNameProblem(name) else { return true }
            report(.invalidName, "\(what) \(Self.quoted(name)) \(problem); \(regenerate)", at: Self.pointer(path))
            return false
        }

        /// Rule 10: the second and later mentions of a name, each pointing back to the first: the same
        /// member (`path`'s last) of the element at the first offset in the same list.
        private func checkUnique(
            _ name: String, at path: [String], what: String, rule: String, firstOf: inout [String: Int]
        ) {
            guard !isBroken(path), let offset = Int(path[path.count - 2]) else { return }
            guard let first = firstOf[name] else {
                firstOf[name] = offset
                return
            }
            var firstPath = path
            firstPath[path.count - 2] = String(first)
            let firstPointer = Self.pointer(firstPath)
            report(.duplicateName, "\(what) \(Self.quoted(name)) is listed twice (first at \(place(of: firstPointer))); "
                + "\(rule): \(regenerate)", at: Self.pointer(path))
        }

        /// Rule 11.
        private func checkDeclared(_ type: String, at path: [String], as relation: String) {
            guard !declared.contains(type), !isBroken(path) else { return }
            let owner = path.first == "factories" ? factoryLabel(path) : "the catalog"
            report(.undeclaredType, "\(owner) \(relation) \(Self.quoted(type)), which 'types' does not list; every "
                + "type the catalog names is listed there, with the short name manifests use: \(regenerate)",
                at: Self.pointer(path))
        }

        private func reportUnknown(
            _ code: DiagnosticCode, _ what: String, _ text: String, at path: [String], choices: [String]
        ) {
            let suggestion = EditDistance.suggestions(for: text, among: choices).first
            report(code, "unknown \(what) \(Self.quoted(text)) in \(subject(path)); this build reads "
                + MessageText.choices(choices)
                + (suggestion.map { " (did you mean '\($0)'?)" } ?? "") + ": \(regenerate)", at: Self.pointer(path),
                suggestion: suggestion)
        }

        // MARK: - Places and words

        /// Whether the value at `path`, or one it is inside, broke a rule of shape.
        private func isBroken(_ path: [String]) -> Bool {
            guard !broken.isEmpty else { return false }
            var pointer = ""
            for segment in path {
                pointer += "/" + JSONPointer.escape(segment)
                if broken.contains(pointer) { return true }
            }
            return false
        }

        /// Adds a diagnostic.
        private func report(
            _ code: DiagnosticCode, _ message: @autoclosure () -> String, at pointer: String,
            position: SourcePosition? = nil, suggestion: String? = nil
        ) {
            let position = position ?? root?.position(at: pointer) ?? SourcePosition(line: 1, column: 1)
            diagnostics.append(Diagnostic(
                code: code, message: message(), file: settings.file, line: position.line, column: position.column,
                path: pointer, suggestion: suggestion))
        }

        /// "line 8, column 15".
        private func place(of pointer: String) -> String {
            let position = root?.position(at: pointer) ?? SourcePosition(line: 1, column: 1)
            return "line \(position.line), column \(position.column)"
        }

        /// What a path is about: `'types[2]'`; for a factory or its member,
        /// `factory 'mailer'` or `'needs[1].kind' of factory 'mailer'` when its name is known.
        private func subject(_ path: [String]) -> String {
            guard path.first == "factories" || path.first == "decorators", path.count >= 2 else { return "'\(Self.words(path))'" }
            let factory = factoryLabel(path)
            return path.count == 2 ? factory : "'\(Self.words(Array(path.dropFirst(2))))' of " + factory
        }

        /// `factory 'mailer'`, or `'factories[3]'` when its name is not one to show.
        private func factoryLabel(_ path: [String]) -> String {
            let factoryPath = Array(path.prefix(2))
            if path[0] == "decorators", let offset = Int(path[1]), let decorators = description?.decorators,
               offset < decorators.count, !isBroken(factoryPath + ["name"]),
               FactoryCatalog.validNameProblem(decorators[offset].name) == nil {
                return "decorator \(Self.quoted(decorators[offset].name))"
            }
            if path[0] == "factories", let offset = Int(path[1]), let factories = description?.factories, offset < factories.count,
               !isBroken(factoryPath + ["name"]), FactoryCatalog.validNameProblem(factories[offset].name) == nil {
                return "factory \(Self.quoted(factories[offset].name))"
            }
            return "'\(Self.words(factoryPath))'"
        }

        /// `factories[3].needs[1].kind`; `the description` for the root.
        static func words(_ path: [String]) -> String {
            guard !path.isEmpty else { return "the description" }
            var text = ""
            for segment in path {
                if Int(segment) != nil { text += "[\(segment)]" } else { text += (text.isEmpty ? "" : ".") + segment }
            }
            return text
        }

        static func pointer(_ path: [String]) -> String { path.map { "/" + JSONPointer.escape($0) }.joined() }

        /// `'name'`, cut when long: a message quotes, it does not copy.
        static func quoted(_ name: String) -> String { FoundValue.quoted(name, mark: "'") }
    }
}

extension FactoryCatalog {
    /// Why `name` cannot name a factory (or a type in a description), or nil
    /// when it can: the one rule that registration and a description's
    /// validation share. An empty name cannot be written in a manifest, and a
    /// control character in one would reach every message that quotes it.
    static func validNameProblem(_ name: String) -> String? {
        if name.isEmpty { return "is empty" }
        guard let control = name.unicodeScalars.first(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        else { return nil }
        return String(format: "holds the control character U+%04X", control.value)
    }
}
