/// One entry of a manifest's `decorate`: an edit of the chain of decorators
/// of the bindings of one type that the file inherits (or writes), without
/// restating them:
///
///     "decorate": [
///       { "protocol": "NoteStore", "add": ["timing-store"] },
///       { "protocol": "NoteStore", "injector": "secondary", "remove": ["caching-store"] }
///     ]
///
/// An entry applies to the binding in effect once its file's own bindings
/// are merged over its parents' (see ``ValidationRun/applyDecorations()``):
/// in `injector`, or, without one, in every injector that binds the type.
/// It takes out the decorators `remove` names, then appends those `add`
/// names, in order, the last outermost. A binding restated by a shallower
/// file replaces the edited one whole, chain included; the restating file's
/// own `decorate` still applies to it.
package struct Decoration: Sendable, Hashable {
    /// The bound type's name, short or module-qualified, as a binding writes it.
    package var protocolName: String
    /// The injector whose binding is edited; nil for every injector's.
    package var injector: InjectorName?
    /// The decorators taken out, by name (a use with no parameters), each with its place.
    package var remove: [DecoratorUse] = []
    /// The decorators appended, in order, each with its place: a link added so points there.
    package var add: [DecoratorUse] = []
    /// Where the entry stands in its file.
    package var origin: SourceOrigin?

    /// An entry made in code.
    package init(protocol protocolName: String, injector: InjectorName? = nil, remove: [String] = [], add: [DecoratorUse] = []) {
        self.protocolName = protocolName
        self.injector = injector
        self.remove = remove.map { DecoratorUse($0) }
        self.add = add
    }

    /// `NoteStore` or `NoteStore in secondary`, for messages.
    var displayKey: String {
        let name = MessageText.name(protocolName)
        return injector.map { "\(name) in \(MessageText.name($0.rawValue))" } ?? name
    }

    /// A diagnostic at `origin` (an entry, or one of its names), at `field` below it.
    static func diagnostic(
        _ code: DiagnosticCode, _ message: String, at origin: SourceOrigin?, field: String? = nil,
        suggestion: String? = nil, fallbackFile: String
    ) -> Diagnostic {
        let relative = field.map { "/" + $0 } ?? ""
        let position = origin?.position(at: relative) ?? SourcePosition(line: 1, column: 1)
        return Diagnostic(
            code: code, message: message, file: origin?.file ?? fallbackFile, line: position.line,
            column: position.column, path: (origin?.pointer ?? "/\(ManifestKey.decorate)") + relative,
            suggestion: suggestion)
    }
}
