/// How a file lays its records out: one JSON array of objects (`.json` and every other
/// name), or JSON Lines (`.jsonl`, `.ndjson`): one compact object per line.
///
/// The name decides, never the content: a file is read strictly as its layout says, so a
/// `.jsonl` file holding one pretty-printed array is refused, not guessed at.
public enum RecordLayout: String, Sendable, Equatable, CaseIterable {
  case array
  case lines

  /// The layout a file of this name holds: `lines` for a name ending in `.jsonl` or
  /// `.ndjson` (in any case: `TASKS.JSONL`), `array` for every other.
  public init(path: String) {
    let name = path.utf8.reversed().prefix { $0 != UInt8(ascii: "/") }
    var ending: [UInt8] = []
    for byte in name {
      guard byte != UInt8(ascii: ".") else { break }
      ending.append(byte | 0x20)  // lowercase for the ASCII letters compared
    }
    let extensionName = String(decoding: ending.reversed(), as: UTF8.self)
    let hasStem = name.count > ending.count + 1
    self = hasStem && (extensionName == "jsonl" || extensionName == "ndjson") ? .lines : .array
  }

  /// The layout of bytes known to hold records in one of the two layouts (they loaded, or
  /// recsh wrote them), told by their first byte that is not whitespace or a byte-order
  /// mark: `[` opens an array, anything else (`{`) is a line's record; no bytes read as no
  /// records either way. For the history's copy of the records it starts from, which is
  /// the data file's bytes as read or records recsh encoded; a file a user names is read
  /// as its name says.
  package init(sniffing bytes: some Collection<UInt8>) {
    let first = bytes.first { byte in
      byte != 0x20 && byte != 0x0A && byte != 0x0D && byte != 0x09 && byte != 0xEF && byte != 0xBB
        && byte != 0xBF
    }
    self = first == nil || first == UInt8(ascii: "[") ? .array : .lines
  }
}

extension JSONReader {
  /// Reads the records of a file of `layout`: `readArray` or `readLines`, calling `body`
  /// once per record with the reader on it.
  mutating func readRecords(_ layout: RecordLayout, _ body: (inout JSONReader) throws -> Void) throws {
    switch layout {
    case .array: try readArray(body)
    case .lines: try readLines(body)
    }
  }
}
