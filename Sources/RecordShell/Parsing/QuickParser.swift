import RecordKit

/// The parser's fast lane for the two commands long scripts are made of:
/// `use REF` and `set FIELD VALUE` with one declared field and a bare or
/// plainly double-quoted value.
///
/// A million-edit script spends most of its parsing time building token arrays,
/// `Token`s and a parse context for lines like these. This reads the line's
/// bytes once and builds the `ShellCommand` directly. It gives exactly what
/// `ShellParser.parse` gives for the lines it takes, or `nil`, and then the full
/// parser runs: anything it is not sure of (a quote glued to text, an escape, a
/// list, `#`, a control character, a custom or read-only field, several
/// commands or pairs) goes that way, errors included. `QuickParserTests`
/// compares the two on generated lines.
package struct QuickParser {
  /// The kind's declared fields that `set` may write, as bytes to compare and as names.
  private let fields: [(bytes: [UInt8], name: String)]

  package init<Root: Record>(kind: Root.Type) {
    let table = Root.fields
    fields = table.names.filter { !table.readOnlyNames.contains($0) }.map { (Array($0.utf8), $0) }
  }

  /// The command `line` holds, or `nil` when the full parser must read it.
  func parse(_ line: String) -> ShellCommand? {
    line.utf8.withContiguousStorageIfAvailable { parse(bytes: $0) } ?? nil
  }

  /// The same for a line's UTF-8 bytes (bytes that are not UTF-8 are read as
  /// `String(decoding:as:)` reads them, as the line's `String` would hold them).
  package func parse(bytes: UnsafeBufferPointer<UInt8>) -> ShellCommand? {
    var scanner = Scanner(bytes: bytes)
    scanner.skipSpace()
    guard let name = scanner.bareWord(), name.count == 3 else { return nil }
    scanner.skipSpace()
    let isUse = Self.equal(name, Self.use)
    guard isUse || Self.equal(name, Self.set) else { return nil }
    if isUse {
      guard let ref = scanner.bareWord(), scanner.atEndAfterSpace() else { return nil }
      return .use(ref: String(decoding: ref, as: UTF8.self))
    }
    guard let fieldBytes = scanner.bareWord(), let field = field(named: fieldBytes) else { return nil }
    let fieldName = fields[field].name
    scanner.skipSpace()
    let value: ValueToken
    if let quoted = scanner.plainQuoted() {
      value = .quoted(String(decoding: quoted, as: UTF8.self))
    } else if let word = scanner.bareWord() {
      value = .word(String(decoding: word, as: UTF8.self))
    } else {
      return nil
    }
    guard scanner.atEndAfterSpace() else { return nil }
    return .set(FieldAssignments(FieldAssignment(fieldName, value)))
  }

  private static let use = Array("use".utf8)
  private static let set = Array("set".utf8)

  /// The index in `fields` of the field spelled `bytes` (an index, not the entry: a copy of
  /// the entry retained its array and its string on every `set`).
  private func field(named bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
    for index in fields.indices where Self.equal(bytes, fields[index].bytes) { return index }
    return nil
  }

  /// Byte equality without the generic `elementsEqual`, which walks both sides as sequences.
  private static func equal(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, _ other: [UInt8]) -> Bool {
    guard bytes.count == other.count else { return false }
    return other.withUnsafeBufferPointer { other in
      var offset = 0
      while offset < other.count {
        guard bytes[bytes.startIndex + offset] == other[offset] else { return false }
        offset += 1
      }
      return true
    }
  }

  private struct Scanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    /// Skips spaces, tabs and carriage returns.
    mutating func skipSpace() {
      while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
    }

    mutating func atEndAfterSpace() -> Bool {
      skipSpace()
      return index == bytes.count
    }

    /// A run of bare word bytes ending at a space or the end of the line; `nil` when
    /// there is none, when it starts a comment, or when anything else follows it.
    mutating func bareWord() -> UnsafeBufferPointer<UInt8>.SubSequence? {
      let start = index
      guard start < bytes.count, bytes[start] != UInt8(ascii: "#") else { return nil }
      while index < bytes.count, TokenScanner.isWordByte(bytes[index], inList: false) { index += 1 }
      guard index > start, index == bytes.count || Self.isSpace(bytes[index]) else { return nil }
      return bytes[start..<index]
    }

    /// A `"…"` string holding no escape, quote or control character, ending at a
    /// space or the end of the line: its text is its bytes.
    mutating func plainQuoted() -> UnsafeBufferPointer<UInt8>.SubSequence? {
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
      var end = index + 1
      while end < bytes.count {
        let byte = bytes[end]
        if byte == UInt8(ascii: "\"") { break }
        if byte == UInt8(ascii: "\\") || byte < 0x20 || byte == 0x7F { return nil }
        end += 1
      }
      guard end < bytes.count, end + 1 == bytes.count || Self.isSpace(bytes[end + 1]) else { return nil }
      defer { index = end + 1 }
      return bytes[(index + 1)..<end]
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
      byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }
  }
}
