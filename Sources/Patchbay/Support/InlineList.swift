/// A non-empty list that keeps its first element inline and the others in
/// an array, which stays empty (no allocation) for the usual one element.
///
/// For indexes built at every activation, where nearly every key has one
/// value: an array per key would cost an allocation each.
struct InlineList<Element> {
    /// The first element added.
    let first: Element
    /// The others, in the order added.
    private(set) var rest: [Element] = []

    /// A list of one element.
    init(_ first: Element) { self.first = first }

    /// Whether the list has only its first element.
    var isSingle: Bool { rest.isEmpty }

    /// Every element, in the order added.
    var all: [Element] { [first] + rest }

    mutating func append(_ element: Element) { rest.append(element) }
}

extension InlineList: Sendable where Element: Sendable {}
