/// A value as the user typed it, before a field's type gives it meaning.
///
/// The shell's tokenizer produces these; each field's codec decides what they
/// mean (`42` is an int for `priority`, a string for `title`). Quoting is kept
/// because it matters: `"null"` is the word, `null` is JSON null.
public enum ValueToken: Equatable, Sendable {
  /// A bare word: `work`, `42`, `true`, `2026-12-01`.
  case word(String)
  /// A `"double-quoted"` or `'single-quoted'` string, escapes already resolved.
  case quoted(String)
  /// A list: `[a, "b c", d]`.
  case list([ValueToken])
}

extension ValueToken: CustomStringConvertible {
  /// The token as the user could have typed it, for "found …" in error messages.
  public var description: String {
    switch self {
    case .word(let text): text
    case .quoted(let text): "\"" + text + "\""
    case .list(let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
    }
  }

  /// The token of the word `bytes`, UTF-8 that whoever read them checked (not checked
  /// again): `.quoted` of their text when `quoted`, else `.word`.
  package init(word bytes: UnsafeBufferPointer<UInt8>, quoted: Bool) {
    let text = UTF8Validation.knownValidString(bytes)
    self = quoted ? .quoted(text) : .word(text)
  }

  /// The text of a word or quoted string; `nil` for a list.
  var text: String? {
    switch self {
    case .word(let text), .quoted(let text): text
    case .list: nil
    }
  }
}
