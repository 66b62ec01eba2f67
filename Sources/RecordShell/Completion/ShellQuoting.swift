/// Text as it must be typed to reach the tokenizer as one word with that meaning.
enum ShellQuoting {
  /// `text` bare when it can be, else quoted: in single quotes when the user
  /// opened one and the text allows it (no `'`, nothing to escape), otherwise
  /// in double quotes with `\"`, `\\` and control characters as escapes.
  /// `closed: false` leaves the quote open, for a folder the user goes on
  /// typing in. `isText`: a string value, so a bare `null` (JSON null) must be quoted.
  static func quoted(_ text: String, style: Unicode.Scalar?, closed: Bool = true, isText: Bool = false)
    -> String
  {
    if style == nil, isBare(text), !(isText && text == "null") { return text }
    if style == "'", !text.unicodeScalars.contains(where: { $0 == "'" || TextCell.needsEscape($0) }) {
      return "'" + text + (closed ? "'" : "")
    }
    // `\` and `"` first; then TextCell's escapes (`\n`, `\t`, `\r`, `\u{…}`), which
    // are the tokenizer's own.
    var out = ""
    for scalar in text.unicodeScalars {
      if scalar == "\\" || scalar == "\"" { out += "\\" }
      out.unicodeScalars.append(scalar)
    }
    return "\"" + TextCell.escaped(out) + (closed ? "\"" : "")
  }

  /// Whether `text` reads back as itself when typed bare: one word, nothing
  /// the tokenizer treats specially, no control characters.
  static func isBare(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first, first != "#" else { return false }
    return !text.unicodeScalars.contains { scalar in
      switch scalar {
      case " ", "\t", "\r", "\n", "\"", "'", ";", "[", "]": true
      default: TextCell.needsEscape(scalar)
      }
    }
  }
}
