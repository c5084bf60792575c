/// A 1-based line and column in a manifest file.
///
/// Columns count Unicode scalars, so `é` or `😀` moves the column on by one,
/// and a tab counts one, as most editors' "column" readouts do.
package struct SourcePosition: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The 1-based line number.
    package var line: Int
    /// The 1-based column, counted in Unicode scalars from the start of the line.
    package var column: Int

    /// Creates a position from a 1-based line and column.
    package init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// The position as `line:column`, the form compilers and editors use.
    package var description: String { "\(line):\(column)" }
}
