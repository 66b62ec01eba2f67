/// How a script or a message types a name or a text so that the command line reads it
/// back as exactly that text: bare when plain, else quoted.
enum ScriptWords {
  /// A name as a word, quoted unless it is plain.
  static func word(_ text: String) -> String { isPlain(text) ? text : quoted(text) }

  /// Whether the text reads back as itself typed bare, anywhere in a command: letters,
  /// digits and `_ . : / -`, not first a `-` or `+`.
  static func isPlain(_ text: String) -> Bool {
    guard let first = text.utf8.first, first != UInt8(ascii: "-"), first != UInt8(ascii: "+") else {
      return false
    }
    return text.utf8.allSatisfy { byte in
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ":"),
        UInt8(ascii: "/"), UInt8(ascii: "-"):
        true
      default: false
      }
    } && text != "null" && text != "true" && text != "false" && text != "where"
  }

  /// The text in single quotes (raw) when it holds no `'` and nothing a terminal would not
  /// show, else in double quotes: `\` and `"` escaped, then the rest as `TextCell` escapes
  /// it (`\n`, `\t`, `\r`, `\u{…}`), which are the escapes a double-quoted word reads.
  static func quoted(_ text: String) -> String {
    if !text.unicodeScalars.contains(where: { $0 == "'" || TextCell.needsEscape($0) }) {
      return "'" + text + "'"
    }
    let backslashed = text.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"")
    return "\"" + TextCell.escaped(backslashed) + "\""
  }
}
