import RecordKit

/// One value of a command line as the user typed it, and where it starts.
///
/// The position travels with the value so that the parser can point at the word it
/// rejects (`column 12: expected a number`) instead of only naming it.
struct Token: Equatable, Sendable {
  /// The word, quoted string or list; the parser and the field codecs give it meaning.
  var value: ValueToken
  /// The 1-based line in the tokenized text; above 1 only after a quote or list that spanned
  /// lines, or in text that holds several lines.
  var line: Int
  /// The 1-based column, in Unicode scalars, so it matches what a terminal shows when
  /// non-ASCII text comes first; a list's column is that of its `[`.
  var column: Int
  /// How a word glued from quoted and bare parts was typed (`"sort"=3`: the quoted
  /// `sort`, then the bare `=3`), so that a filter finds its operator only where it was
  /// not quoted; empty for a word of one part. Not part of what the token means:
  /// equality ignores it.
  var parts: [WordPart] = []

  init(_ value: ValueToken, line: Int = 1, column: Int, parts: [WordPart] = []) {
    self.value = value
    self.line = line
    self.column = column
    self.parts = parts
  }

  static func == (lhs: Token, rhs: Token) -> Bool {
    lhs.value == rhs.value && lhs.line == rhs.line && lhs.column == rhs.column
  }
}

/// One part of a glued word: its text, and whether it was quoted.
struct WordPart: Equatable, Sendable {
  var text: String
  var isQuoted: Bool

  init(_ text: String, isQuoted: Bool) {
    self.text = text
    self.isQuoted = isQuoted
  }
}
