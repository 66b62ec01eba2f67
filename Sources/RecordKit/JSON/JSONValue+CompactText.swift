extension JSONValue {
  /// The value as one line of JSON (`{"a": [1, 2]}`), for `show`, error messages
  /// and the command encoding's readable form. Files use the pretty writer.
  public var compactText: String {
    var out = ""
    appendCompact(to: &out)
    return out
  }

  private func appendCompact(to out: inout String) {
    switch self {
    case .null: out += "null"
    case .bool(let value): out += value ? "true" : "false"
    case .number(let spelling): out += spelling
    case .string(let text): Self.appendQuoted(text, to: &out)
    case .array(let items):
      out += "["
      for (index, item) in items.enumerated() {
        if index > 0 { out += ", " }
        item.appendCompact(to: &out)
      }
      out += "]"
    case .object(let object):
      out += "{"
      for (index, member) in object.members.enumerated() {
        if index > 0 { out += ", " }
        Self.appendQuoted(member.key, to: &out)
        out += ": "
        member.value.appendCompact(to: &out)
      }
      out += "}"
    }
  }

  private static func appendQuoted(_ text: String, to out: inout String) {
    out += "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }
}
