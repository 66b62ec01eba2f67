/// Cells as JSON values and back: what a record holds for a cell, and what a cell holds
/// for a record's value.
extension CSVColumnType {
  /// The value a cell whose text is `text` holds in a column of this type; `nil` (no
  /// value, the field absent) for an absent cell, which `text` being `nil` stands for.
  ///
  /// A number spelling in an `integer` or `number` column is `.number` with that spelling
  /// (a schema may call a column `integer` that holds `1.5`: its check refuses it, this
  /// keeps it as written); `true`/`false` in a `bool` column are `.bool`; every other text,
  /// and every text of a `string` column (`02134`, `true`), is `.string`. The empty string
  /// (a quoted `""`) is `.string("")` in any column.
  func value(ofText text: String?) -> JSONValue? {
    guard let text else { return nil }
    switch self {
    case .integer, .number:
      var utf8 = text
      let isNumber = utf8.withUTF8 { CSVColumnType.numberKind($0) != nil }
      return isNumber ? .number(text) : .string(text)
    case .bool:
      return text == "true" ? .bool(true) : text == "false" ? .bool(false) : .string(text)
    case .string:
      return .string(text)
    }
  }

  /// The value `cell` of `table` holds in a column of this type (see `value(ofText:)`),
  /// read from `bytes`, the bytes the table was read from.
  func value(of cell: CSVCell, in table: CSVTable, bytes: UnsafeBufferPointer<UInt8>) -> JSONValue? {
    value(ofText: cell.isAbsent ? nil : table.text(of: cell, in: bytes))
  }
}

extension CSVWriter.Cell {
  /// The cell that holds `value`: `.absent` for `null`, the text of a string, number
  /// (its spelling) or bool (`true`, `false`); `nil` for a list or an object, which do
  /// not fit a cell. `keepingQuotes` as in `.text`.
  package init?(_ value: JSONValue, keepingQuotes: Bool = false) {
    switch value {
    case .null: self = .absent
    case .bool(let flag): self = .text(flag ? "true" : "false", keepingQuotes: keepingQuotes)
    case .number(let spelling): self = .text(spelling, keepingQuotes: keepingQuotes)
    case .string(let text): self = .text(text, keepingQuotes: keepingQuotes)
    case .array, .object: return nil
    }
  }
}
