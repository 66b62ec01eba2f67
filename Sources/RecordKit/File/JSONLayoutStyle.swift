/// How a file lays out its records, as far as recsh must know to write new values into it
/// the way its own are written: line ending, one level of indent, what stands between a
/// key and its value and between the parts of a one-line list, and whether records and the
/// lists and objects inside them spread over lines.
///
/// Read off the file's bytes (`FileImage`): the first record for the file, the record a
/// new one follows for that record. What a file does not show (a file of one-line records
/// shows no indent) is recsh's own default, which is also the whole style of a file recsh
/// creates: two spaces, `": "`, records and their nested values over lines, `\n`.
struct JSONLayoutStyle: Equatable, Sendable {
  var lineEnding: [UInt8] = Array("\n".utf8)
  var indentUnit: [UInt8] = Array("  ".utf8)
  var keySeparator: [UInt8] = Array(": ".utf8)
  var inlineSeparator: [UInt8] = Array(", ".utf8)
  var recordsMultiline = true
  var nestedMultiline = true
  /// The white space before a record on its line (array layout: usually one indent).
  var recordIndent: [UInt8] = Array("  ".utf8)

  /// recsh's own layout, for a file that shows none.
  static let recsh = JSONLayoutStyle()

  /// JSON Lines: one compact record a line, nothing over lines.
  static let lines = JSONLayoutStyle(
    keySeparator: Array(":".utf8), inlineSeparator: Array(",".utf8), recordsMultiline: false,
    nestedMultiline: false, recordIndent: [])

  /// The style `record` shows (a record of `bytes`), what it does not show taken from
  /// `base`. O(the record's bytes and the white space before it).
  init(
    of record: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>, base: JSONLayoutStyle, layout: RecordLayout
  ) {
    self = base
    // The line break in the white space before the record, else in the record: looked for
    // there only, so that a style costs O(the record), not a search of a one-line file.
    var before = record.lowerBound
    while before > 0, JSONSpan.isWhitespace(bytes[before - 1]) { before -= 1 }
    if let newline = bytes[before..<record.lowerBound].firstIndex(of: 0x0A)
      ?? bytes[record].firstIndex(of: 0x0A)
    {
      lineEnding = newline > 0 && bytes[newline - 1] == 0x0D ? Array("\r\n".utf8) : Array("\n".utf8)
    }
    recordIndent = Self.indent(before: record.lowerBound, in: bytes)
    let span = JSONSpan.scan(bytes, at: record.lowerBound)
    guard case .object(let inner, let members) = span.content else { return }
    recordsMultiline = layout == .array && bytes[record].contains(0x0A)
    if let first = members.first {
      let keyEnd = Self.keyEnd(of: first, in: bytes)
      keySeparator = Array(bytes[keyEnd..<first.value.start])
      if recordsMultiline {
        let memberIndent = Self.indent(before: first.keyStart, in: bytes)
        let closingIndent = Self.indent(before: inner.upperBound, in: bytes)
        if memberIndent.starts(with: closingIndent), memberIndent.count > closingIndent.count {
          indentUnit = Array(memberIndent[closingIndent.count...])
        } else if !memberIndent.isEmpty {
          indentUnit = memberIndent
        }
      }
    }
    if !recordsMultiline, members.count >= 2 {
      inlineSeparator = Array(bytes[members[0].value.end..<members[1].keyStart])
    }
    if layout == .lines {
      nestedMultiline = false
      return
    }
    // The first nested list or object with parts says how nested values are laid out.
    for member in members where !member.value.partRanges.isEmpty {
      nestedMultiline = bytes[member.value.range].contains(0x0A)
      let parts = member.value.partRanges
      if !nestedMultiline, parts.count >= 2 {
        inlineSeparator = Array(bytes[parts[0].upperBound..<parts[1].lowerBound])
      }
      break
    }
    if !recordsMultiline { nestedMultiline = false }
  }

  init(
    lineEnding: [UInt8] = Array("\n".utf8), indentUnit: [UInt8] = Array("  ".utf8),
    keySeparator: [UInt8] = Array(": ".utf8), inlineSeparator: [UInt8] = Array(", ".utf8),
    recordsMultiline: Bool = true, nestedMultiline: Bool = true, recordIndent: [UInt8] = Array("  ".utf8)
  ) {
    self.lineEnding = lineEnding
    self.indentUnit = indentUnit
    self.keySeparator = keySeparator
    self.inlineSeparator = inlineSeparator
    self.recordsMultiline = recordsMultiline
    self.nestedMultiline = nestedMultiline
    self.recordIndent = recordIndent
  }

  /// The spaces and tabs between the line break before `offset` and the first byte of its
  /// line that is not one (empty when something else stands before `offset` on its line).
  static func indent(before offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
    var start = offset
    while start > 0, bytes[start - 1] == 0x20 || bytes[start - 1] == 0x09 { start -= 1 }
    guard start == 0 || bytes[start - 1] == 0x0A else { return [] }
    return Array(bytes[start..<offset])
  }

  /// One past a member's key's closing quote.
  static func keyEnd(of member: JSONSpan.Member, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var index = member.keyStart + 1
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "\\") {
        index += 2
      } else if bytes[index] == UInt8(ascii: "\"") {
        return index + 1
      } else {
        index += 1
      }
    }
    return index
  }

  /// `value` as it goes where a line indented `indent` has it: lists and objects over lines
  /// (`multiline`) at one more indent, or on one line.
  func write(_ value: JSONValue, indent: [UInt8], multiline: Bool, into out: inout [UInt8]) {
    switch value {
    case .array(let items) where !items.isEmpty:
      out.append(UInt8(ascii: "["))
      for (position, item) in items.enumerated() {
        separate(position, indent: indent, multiline: multiline, into: &out)
        write(item, indent: indent + indentUnit, multiline: multiline && nestedMultiline, into: &out)
      }
      if multiline {
        out += lineEnding
        out += indent
      }
      out.append(UInt8(ascii: "]"))
    case .object(let object) where !object.isEmpty:
      out.append(UInt8(ascii: "{"))
      for (position, member) in object.members.enumerated() {
        separate(position, indent: indent, multiline: multiline, into: &out)
        Self.writeScalar(.string(member.key), into: &out)
        out += keySeparator
        write(member.value, indent: indent + indentUnit, multiline: multiline && nestedMultiline, into: &out)
      }
      if multiline {
        out += lineEnding
        out += indent
      }
      out.append(UInt8(ascii: "}"))
    default:
      Self.writeScalar(value, into: &out)
    }
  }

  /// What goes before the part at `position` of a list or object being written: a comma
  /// and a line break with the indent, or the file's separator on one line.
  private func separate(_ position: Int, indent: [UInt8], multiline: Bool, into out: inout [UInt8]) {
    if multiline {
      if position > 0 { out.append(UInt8(ascii: ",")) }
      out += lineEnding
      out += indent
      out += indentUnit
    } else if position > 0 {
      out += inlineSeparator
    }
  }

  /// A value on one line, as recsh writes strings (UTF-8, the escapes JSON needs) and
  /// numbers (their spelling).
  static func writeScalar(_ value: JSONValue, into out: inout [UInt8]) {
    var writer = JSONWriter(compact: true)
    writer.value(value)
    out += writer.bytesWithoutFinalNewline
  }
}
