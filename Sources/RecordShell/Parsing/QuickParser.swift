import RecordKit

/// The parser's fast lane for the two commands long scripts are made of:
/// `use REF` and `set FIELD VALUE` with one declared field and a bare or
/// plainly double-quoted value.
///
/// A million-edit script spends most of its parsing time building token arrays,
/// `Token`s and a parse context for lines like these. This reads the line's
/// bytes once and says where its words are (`QuickCommand`), from which the session
/// runs it or the command is made. It gives exactly what
/// `ShellParser.parse` gives for the lines it takes, or `nil`, and then the full
/// parser runs: anything it is not sure of (a quote glued to text, an escape, a
/// list, `#`, a control character, a custom or read-only field, several
/// commands or pairs) goes that way, errors included. `QuickParserTests`
/// compares the two on generated lines.
package struct QuickParser {
  /// The kind's declared fields that `set` may write: one reference, so that a copy of
  /// the parser (the script runner makes one for each line) retains one object.
  private let fields: FieldNames

  /// The names, and their bytes one after another with where each ends: a name is looked
  /// for by comparing bytes in one buffer, not by reaching into an array per field.
  private final class FieldNames: Sendable {
    let bytes: [UInt8]
    let ends: [Int]
    /// Each name's index in the kind's table (`FieldTable.names`), which a `QuickCommand`
    /// holds.
    let tableIndices: [Int]
    /// The kind's table's names.
    let tableNames: [String]

    /// The names of `table` but those in `readOnly`.
    init(table tableNames: [String], readOnly: Set<String>) {
      self.tableNames = tableNames
      tableIndices = tableNames.indices.filter { !readOnly.contains(tableNames[$0]) }
      bytes = tableIndices.flatMap { Array(tableNames[$0].utf8) }
      var end = 0
      ends = tableIndices.map {
        end += tableNames[$0].utf8.count
        return end
      }
    }
  }

  package init<Root: Record>(kind: Root.Type) {
    let table = Root.fields
    fields = FieldNames(table: table.names, readOnly: table.readOnlyNames)
  }

  /// The command `line` holds, or `nil` when the full parser must read it.
  func parse(_ line: String) -> ShellCommand? {
    line.utf8.withContiguousStorageIfAvailable { parse(bytes: $0) } ?? nil
  }

  /// The same for a line's bytes, which must be UTF-8 (the script runner checks every line
  /// first, `Tokenizer.validateUTF8`): the words are made `String`s without checking them
  /// again.
  package func parse(bytes: UnsafeBufferPointer<UInt8>) -> ShellCommand? {
    scan(bytes: bytes)?.command(in: bytes, names: fields.tableNames)
  }

  /// The command a line's bytes hold, its words left where they are, or `nil` when the
  /// full parser must read it: `parse(bytes:)` without making the command, for a caller
  /// that runs it from the line (`Session.execute(_:in:)`). O(the line's length).
  package func scan(bytes: UnsafeBufferPointer<UInt8>) -> QuickCommand? {
    var scanner = Scanner(bytes: bytes)
    scanner.skipSpace()
    guard let name = scanner.bareWord(), name.count == 3 else { return nil }
    scanner.skipSpace()
    let (first, second, third) = (name[name.startIndex], name[name.startIndex + 1], name[name.startIndex + 2])
    let isUse = first == UInt8(ascii: "u") && second == UInt8(ascii: "s") && third == UInt8(ascii: "e")
    guard isUse || (first == UInt8(ascii: "s") && second == UInt8(ascii: "e") && third == UInt8(ascii: "t"))
    else { return nil }
    if isUse {
      guard let ref = scanner.bareWord(), scanner.atEndAfterSpace() else { return nil }
      return .use(ref: ref.startIndex..<ref.endIndex)
    }
    guard let fieldBytes = scanner.bareWord(), let field = field(named: fieldBytes) else { return nil }
    scanner.skipSpace()
    let value: Range<Int>
    let quoted: Bool
    if let text = scanner.plainQuoted() {
      (value, quoted) = (text.startIndex..<text.endIndex, true)
    } else if let word = scanner.bareWord() {
      (value, quoted) = (word.startIndex..<word.endIndex, false)
    } else {
      return nil
    }
    guard scanner.atEndAfterSpace() else { return nil }
    return .set(field: fields.tableIndices[field], value: value, quoted: quoted)
  }

  /// The index in `fields.tableIndices` of the field spelled `bytes`.
  private func field(named bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
    let word = UnsafeBufferPointer(rebasing: bytes)
    return fields.bytes.withUnsafeBufferPointer { all in
      fields.ends.withUnsafeBufferPointer { ends in
        var start = 0
        for index in ends.indices {
          let end = ends[index]
          if end - start == word.count,
            CanonicalJSON.sameBytes(UnsafeBufferPointer(rebasing: all[start..<end]), word)
          {
            return index
          }
          start = end
        }
        return nil
      }
    }
  }

  /// Whether any of the eight bytes of `word` is a quote, a backslash, a control
  /// character or DEL (what ends or refuses a plain quoted string). Never false when
  /// one is: each test is exact about whether a byte meets it, though not about which.
  ///
  /// `JSONStringScan.specialBytes` and DEL, written again here: called from this module,
  /// that function was not inlined, and the call cost about 30 instructions a pair.
  static func holdsSpecial(_ word: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    /// High bits where a byte of `value` is below `limit` (at most 0x80).
    func below(_ limit: UInt8, _ value: UInt64) -> UInt64 {
      (value &- UInt64(limit) &* ones) & ~value & highs
    }
    return below(0x20, word) | below(1, word ^ (0x22 &* ones)) | below(1, word ^ (0x5C &* ones))
      | below(1, word ^ (0x7F &* ones)) != 0
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
      // Eight bytes at a time up to the first word that holds a byte to look at; the
      // loop below looks at it byte by byte.
      if let base = bytes.baseAddress.map(UnsafeRawPointer.init) {
        while end + 8 <= bytes.count,
          !QuickParser.holdsSpecial(base.loadUnaligned(fromByteOffset: end, as: UInt64.self))
        {
          end += 8
        }
      }
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

/// A `use REF` or `set FIELD VALUE` line as the parser's fast lane read it
/// (`QuickParser.scan`): where its words are in the line's bytes, made `String`s only
/// when the command runs. Holds no bytes and no references (so it is copied and dropped
/// for nothing): each use takes the line it was read from and the kind's field names.
package enum QuickCommand: Equatable {
  /// `use REF`: the ref's bytes.
  case use(ref: Range<Int>)
  /// `set FIELD VALUE`: a declared field, by its index in the kind's table
  /// (`FieldTable.names`), and the value's bytes (inside its quotes when `quoted`).
  case set(field: Int, value: Range<Int>, quoted: Bool)

  /// The command this is, its words made from `line`, the bytes it was read from, and the
  /// field named from `names`, the kind's table's names.
  package func command(in line: UnsafeBufferPointer<UInt8>, names: [String]) -> ShellCommand {
    switch self {
    case .use(let ref): .use(ref: Self.word(ref, in: line))
    case .set(let field, let value, let quoted):
      .set(
        FieldAssignments(
          FieldAssignment(
            names[field], ValueToken(word: UnsafeBufferPointer(rebasing: line[value]), quoted: quoted))
        ))
    }
  }

  /// A word of the line as a `String`. The line is UTF-8 (the fast lane needs it) and a
  /// word starts and ends beside an ASCII byte (a space, a quote, the line's ends), so
  /// its bytes are UTF-8 too: they are copied without the check `String(decoding:as:)`
  /// makes again (about half its cost, and a script's `use` and `set` lines make two
  /// strings each).
  static func word(_ range: Range<Int>, in line: UnsafeBufferPointer<UInt8>) -> String {
    UTF8Validation.knownValidString(UnsafeBufferPointer(rebasing: line[range]))
  }
}
