/// Record text made safe for one line of a table or a `field  value` line:
/// control characters become visible escapes, so a value cannot break the
/// layout (and, on a terminal, cannot drive it).
public enum TextCell {
  /// Any text bound for a terminal: line breaks and tabs stay, every other
  /// character `needsEscape` names is shown as `\u{…}`. The executable passes
  /// all its output through this when standard output or error is a terminal.
  public static func terminalSafe(_ text: String) -> String {
    let unsafe = { (scalar: Unicode.Scalar) in scalar != "\n" && scalar != "\t" && needsEscape(scalar) }
    guard text.unicodeScalars.contains(where: unsafe) else { return text }
    var out = ""
    for scalar in text.unicodeScalars {
      if unsafe(scalar) {
        out += "\\u{\(String(scalar.value, radix: 16))}"
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  static func escaped(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: needsEscape) else { return text }
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      case _ where needsEscape(scalar): out += "\\u{\(String(scalar.value, radix: 16))}"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// C0 and C1 controls, DEL, and the bidirectional overrides and isolates that
  /// can reorder what a terminal shows.
  static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0..<0x20, 0x7F..<0xA0, 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: true
    default: false
    }
  }

  /// `text` cut to `width` characters, with an ellipsis when cut.
  static func truncated(_ text: String, to width: Int) -> String {
    text.count <= width ? text : String(text.prefix(width - 1)) + "…"
  }

  public static func padded(_ text: String, to width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
  }
}
