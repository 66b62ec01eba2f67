/// The JSON number grammar of RFC 8259 §6, for text that claims to be a number.
///
/// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?` — no `+1`, `.5`, `01`,
/// `NaN` or `Infinity`. Used where typed input may become a JSON number.
enum JSONNumberGrammar {
  static func isValid(_ text: String) -> Bool {
    var utf8 = text.utf8[...]
    func digits() -> Int {
      let count = utf8.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }.count
      utf8 = utf8.dropFirst(count)
      return count
    }
    if utf8.first == UInt8(ascii: "-") { utf8 = utf8.dropFirst() }
    if utf8.first == UInt8(ascii: "0") {
      utf8 = utf8.dropFirst()
    } else if digits() == 0 {
      return false
    }
    if utf8.first == UInt8(ascii: ".") {
      utf8 = utf8.dropFirst()
      guard digits() > 0 else { return false }
    }
    if utf8.first == UInt8(ascii: "e") || utf8.first == UInt8(ascii: "E") {
      utf8 = utf8.dropFirst()
      if utf8.first == UInt8(ascii: "+") || utf8.first == UInt8(ascii: "-") { utf8 = utf8.dropFirst() }
      guard digits() > 0 else { return false }
    }
    return utf8.isEmpty
  }
}
