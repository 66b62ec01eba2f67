/// The type of a CSV or TSV column's values, inferred from its cells: every cell is text
/// in the file, and the type says which JSON value each cell's text stands for.
///
/// A column is `integer` when every value is spelled as JSON writes an integer (an
/// optional `-`, then `0` or digits not starting with `0`: a zip code `02134` and `+5`
/// stay text), else `number` when every value is a JSON number spelling (`1.50`, `1e3`),
/// else `bool` when every value is `true` or `false`, else `string`. Dates are strings
/// here; the kind inference recognises date strings among them. A column with no values
/// is `string`.
enum CSVColumnType: Equatable, Hashable, Sendable {
  case integer
  case number
  case bool
  case string

  /// The type of a column whose values (the texts of its cells that are not absent) are
  /// `texts`. O(bytes of the texts).
  init(inferringFrom texts: some Sequence<String>) {
    var inference = Inference()
    for text in texts { inference.include(text) }
    self = inference.type
  }

  /// The type of column `column` of `table`, read from `bytes`, the bytes it was read from:
  /// its cells that are not absent decide. Reads the cells' bytes in place; O(bytes of the
  /// column).
  init(ofColumn column: Int, in table: CSVTable, bytes: UnsafeBufferPointer<UInt8>) {
    var inference = Inference()
    for row in 0..<table.rowCount {
      let cell = table.cell(row: row, column: column)
      if cell.isAbsent { continue }
      // A quote or backslash (the only bytes quoting and escapes change) makes a cell's
      // text a string whether or not it is undone, so the bytes as they are will do.
      inference.include(UnsafeBufferPointer(rebasing: bytes[cell.contentRange]))
    }
    self = inference.type
  }

  /// The type seen so far: each value rules out the types its text is not spelled as.
  struct Inference {
    private var integer = true
    private var number = true
    private var bool = true
    private var count = 0

    /// Takes one more value's text into account.
    mutating func include(_ text: String) {
      var text = text
      text.withUTF8 { include($0) }
    }

    /// Takes one more value's UTF-8 text into account.
    mutating func include(_ text: UnsafeBufferPointer<UInt8>) {
      count += 1
      if number {
        switch CSVColumnType.numberKind(text) {
        case .integer?: break
        case nil: (integer, number) = (false, false)
        default: integer = false
        }
      }
      if bool, !CSVColumnType.isBoolSpelling(text) { bool = false }
    }

    var type: CSVColumnType {
      guard count > 0 else { return .string }
      if integer { return .integer }
      if number { return .number }
      return bool ? .bool : .string
    }
  }

  /// `.integer` for an integer spelling, `.number` for another JSON number spelling, `nil`
  /// for text that is no JSON number.
  static func numberKind(_ text: UnsafeBufferPointer<UInt8>) -> CSVColumnType? {
    var index = 0
    func digits() -> Int {
      let start = index
      while index < text.count, text[index] >= UInt8(ascii: "0"), text[index] <= UInt8(ascii: "9") {
        index += 1
      }
      return index - start
    }
    if index < text.count, text[index] == UInt8(ascii: "-") { index += 1 }
    if index < text.count, text[index] == UInt8(ascii: "0") {
      index += 1
    } else if digits() == 0 {
      return nil
    }
    var kind = CSVColumnType.integer
    if index < text.count, text[index] == UInt8(ascii: ".") {
      index += 1
      guard digits() > 0 else { return nil }
      kind = .number
    }
    if index < text.count, text[index] | 0x20 == UInt8(ascii: "e") {
      index += 1
      if index < text.count, text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") {
        index += 1
      }
      guard digits() > 0 else { return nil }
      kind = .number
    }
    return index == text.count ? kind : nil
  }

  static func isBoolSpelling(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    text.elementsEqual("true".utf8) || text.elementsEqual("false".utf8)
  }
}
