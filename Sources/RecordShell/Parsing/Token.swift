import RecordKit

/// One value of a command line as the user typed it, and where it starts.
///
/// The position travels with the value so that the parser can point at the word it
/// rejects (`column 12: expected a number`) instead of only naming it.
public struct Token: Equatable, Sendable {
  /// The word, quoted string or list; the parser and the field codecs give it meaning.
  public var value: ValueToken
  /// The 1-based line in the tokenized text; above 1 only after a quote or list that spanned
  /// lines, or in text that holds several lines.
  public var line: Int
  /// The 1-based column, in Unicode scalars, so it matches what a terminal shows when
  /// non-ASCII text comes first; a list's column is that of its `[`.
  public var column: Int

  public init(_ value: ValueToken, line: Int = 1, column: Int) {
    self.value = value
    self.line = line
    self.column = column
  }
}
