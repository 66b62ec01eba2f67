/// Number spellings and equality that respect them.
extension JSONValue {
  /// Whether `spelling` is a JSON number by RFC 8259's grammar (`-0`, `1.50`, `1E+2`; not
  /// `01`, `+1`, `.5`, `1.`, `NaN`). The writer writes spellings as they are, so a
  /// spelling made outside the reader must pass this first.
  static func isValidNumberSpelling(_ spelling: String) -> Bool {
    var bytes = spelling.utf8[...]
    func digits() -> Int {
      let count = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
      bytes = bytes.dropFirst(count)
      return count
    }
    if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
    if bytes.first == UInt8(ascii: "0") {
      bytes = bytes.dropFirst()
    } else if digits() == 0 {
      return false
    }
    if bytes.first == UInt8(ascii: ".") {
      bytes = bytes.dropFirst()
      guard digits() > 0 else { return false }
    }
    if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
      bytes = bytes.dropFirst()
      if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
      guard digits() > 0 else { return false }
    }
    return bytes.isEmpty
  }
}
