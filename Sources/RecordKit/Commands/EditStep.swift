/// A one-field edit as the history log keeps a step: a few bytes of framing around the
/// field's name and the two values, with no JSON to write or read around them. The log
/// holds one such step per `set`, so this is the edit path's record; every other command
/// keeps its JSON encoding (`Command+Coding`), and an edit nested in another command
/// (a group, a list of edits) is JSON there too.
///
///     0x02 · action (1 byte: its place in `EditAction.allCases`)
///          · record number (UInt32, little-endian)
///          · field: 0 a declared field, 1 a custom key · the name's length (LEB128) · the name
///          · old value · new value
///
/// and a value is one of
///
///     0                                   absent
///     1 · length (LEB128) · UTF-8 bytes   a string: the text of the JSON string the
///                                         field's codec encodes the value as, unescaped
///     2 · length (LEB128) · compact JSON  any other value, as `appendForCommand` spells it
///
/// A JSON encoding starts with `[` or `{`, so the first byte tells the two apart. Read back
/// (`decode`), a step gives the same field and JSON values as the JSON list
/// `["set", 17, "title", ["a"], ["b"]]` would, and goes through the same checks
/// (`FieldAccessor.decodeEdit`). Hostile bytes give `CommandDecodingError.malformed`:
/// every length is checked against what is left, a string must be UTF-8 and the step must
/// end where its new value does.
package enum EditStep {
  /// The first byte of a step in this form.
  static let mark: UInt8 = 2

  /// How a value is held.
  enum Form: UInt8 {
    case absent = 0
    case text = 1
    case json = 2
  }

  /// Whether `bytes` (a step as the log holds it) are in this form rather than JSON.
  package static func isCompact(_ bytes: some Collection<UInt8>) -> Bool { bytes.first == mark }

  /// What a step says, its values as JSON.
  struct Decoded {
    var action: EditAction
    var record: RecordNumber
    var name: String
    var isCustom: Bool
    var old: JSONValue?
    var new: JSONValue?
  }

  /// Reads a step written by `Head.append`.
  static func decode(_ bytes: [UInt8]) throws(CommandDecodingError) -> Decoded {
    var reader = Reader(bytes: bytes)
    guard try reader.byte() == mark else { throw .malformed("a compact step starts with its mark") }
    let actionIndex = Int(try reader.byte())
    guard actionIndex < EditAction.allCases.count else {
      throw .malformed("a compact step's action \(actionIndex) is unknown")
    }
    var number: UInt32 = 0
    for shift in stride(from: 0, to: 32, by: 8) { number |= UInt32(try reader.byte()) << UInt32(shift) }
    let kind = try reader.byte()
    guard kind <= 1 else { throw .malformed("a compact step's field is neither declared nor custom") }
    let name = try reader.text(try reader.length())
    let old = try reader.value()
    let new = try reader.value()
    guard reader.offset == bytes.count else { throw .malformed("a compact step has bytes after its values") }
    return Decoded(
      action: EditAction.allCases[actionIndex], record: RecordNumber(number), name: name, isCustom: kind == 1,
      old: old, new: new)
  }

  /// The most a step laid out on the stack may take (`Head.append`).
  static let scratchSize = 256

  /// Hands `body` the form and bytes of `value` as `codec` gives them (`nil`: absent, no
  /// bytes).
  @inline(__always)
  static func withValue<Codec: FieldCodec>(
    _ value: Codec.Value?, of codec: Codec, _ body: (Form, UnsafeRawBufferPointer) -> Void
  ) {
    guard let value else { return body(.absent, UnsafeRawBufferPointer(start: nil, count: 0)) }
    codec.withStepBytes(of: value) { isText, bytes in body(isText ? .text : .json, bytes) }
  }

  /// Writes a value's form, and unless absent its length, at `offset` (at most 11 bytes);
  /// where its bytes go.
  @inline(__always)
  static func writeForm(_ form: Form, count: Int, to raw: UnsafeMutableRawBufferPointer, at offset: Int)
    -> Int
  {
    raw[offset] = form.rawValue
    guard form != .absent else { return offset + 1 }
    return offset + 1 + writeLength(count, to: raw, at: offset + 1)
  }

  /// Writes a value's form, length and bytes at `offset`; where it ends. Needs room for
  /// the bytes and 11 more.
  @inline(__always)
  static func write(
    _ form: Form, _ bytes: UnsafeRawBufferPointer, to raw: UnsafeMutableRawBufferPointer, at offset: Int
  ) -> Int {
    let start = writeForm(form, count: bytes.count, to: raw, at: offset)
    if !bytes.isEmpty {
      UnsafeMutableRawBufferPointer(rebasing: raw[start..<(start + bytes.count)]).copyMemory(from: bytes)
    }
    return start + bytes.count
  }

  /// Writes `length` as LEB128 at `offset`; how many bytes it took (at most 10).
  @inline(__always)
  static func writeLength(_ length: Int, to raw: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
    var rest = UInt64(length)
    var index = offset
    while rest >= 0x80 {
      raw[index] = UInt8(truncatingIfNeeded: rest) | 0x80
      rest >>= 7
      index += 1
    }
    raw[index] = UInt8(rest)
    return index + 1 - offset
  }

  /// The part of a step that is the same for every edit of one field, laid out once: the
  /// field's kind, its name's length and the name. `append` writes a whole step.
  struct Head: Sendable {
    /// The field's part.
    private let part: [UInt8]

    init(field name: String, isCustom: Bool) {
      var part: [UInt8] = [isCustom ? 1 : 0]
      withUnsafeTemporaryAllocation(byteCount: 16, alignment: 8) { raw in
        let count = EditStep.writeLength(name.utf8.count, to: raw, at: 0)
        part += UnsafeRawBufferPointer(rebasing: raw[..<count])
      }
      part += name.utf8
      self.part = part
    }

    /// Appends the step of `action` on the record numbered `record`, from `old` to `new`
    /// as `codec` hands their bytes over. A step that fits `scratchSize` bytes (a short
    /// name and short values: nearly every one) is laid out on the stack and appended
    /// once; appending to an array costs about 100 instructions a call, which five
    /// appends a step made most of its cost. A longer one is appended in pieces.
    @inline(__always)
    func append<Codec: FieldCodec>(
      _ action: EditAction, record: RecordNumber, old: Codec.Value?, new: Codec.Value?, of codec: Codec,
      to out: inout [UInt8]
    ) {
      EditStep.withValue(old, of: codec) { oldForm, oldBytes in
        EditStep.withValue(new, of: codec) { newForm, newBytes in
          append(action, record: record, old: (oldForm, oldBytes), new: (newForm, newBytes), to: &out)
        }
      }
    }

    /// `append(_:record:old:new:of:to:)` for an edit that sets a value (`new`, there), read
    /// where the caller holds it, not copied into an optional (a copy retains it).
    @inline(__always)
    func append<Codec: FieldCodec>(
      _ action: EditAction, record: RecordNumber, old: Codec.Value?, setTo new: Codec.Value, of codec: Codec,
      to out: inout [UInt8]
    ) {
      EditStep.withValue(old, of: codec) { oldForm, oldBytes in
        codec.withStepBytes(of: new) { isText, newBytes in
          append(
            action, record: record, old: (oldForm, oldBytes), new: (isText ? .text : .json, newBytes),
            to: &out)
        }
      }
    }

    /// Lays out the step from its values' forms and bytes.
    @inline(__always)
    private func append(
      _ action: EditAction, record: RecordNumber, old: (Form, UnsafeRawBufferPointer),
      new: (Form, UnsafeRawBufferPointer), to out: inout [UInt8]
    ) {
      let (oldForm, oldBytes) = old
      let (newForm, newBytes) = new
      part.withUnsafeBytes { part in
        let size = 6 + part.count + 2 * 11 + oldBytes.count + newBytes.count
        withUnsafeTemporaryAllocation(byteCount: min(size, EditStep.scratchSize), alignment: 8) { raw in
          raw[0] = EditStep.mark
          raw[1] = UInt8(action.index)
          raw.storeBytes(of: record.value.littleEndian, toByteOffset: 2, as: UInt32.self)
          guard size <= EditStep.scratchSize else {
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[..<6]))
            out.append(contentsOf: part)
            for (form, bytes) in [(oldForm, oldBytes), (newForm, newBytes)] {
              let end = EditStep.writeForm(form, count: bytes.count, to: raw, at: 0)
              out.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[..<end]))
              out.append(contentsOf: bytes)
            }
            return
          }
          UnsafeMutableRawBufferPointer(rebasing: raw[6..<(6 + part.count)]).copyMemory(from: part)
          var end = EditStep.write(oldForm, oldBytes, to: raw, at: 6 + part.count)
          end = EditStep.write(newForm, newBytes, to: raw, at: end)
          out.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[..<end]))
        }
      }
    }
  }

  /// Reads a step's bytes from the front, every read checked against the end.
  private struct Reader {
    let bytes: [UInt8]
    var offset = 0

    mutating func byte() throws(CommandDecodingError) -> UInt8 {
      guard offset < bytes.count else { throw .malformed("a compact step ends early") }
      defer { offset += 1 }
      return bytes[offset]
    }

    /// A LEB128 length, no longer than what is left.
    mutating func length() throws(CommandDecodingError) -> Int {
      var value: UInt64 = 0
      var shift: UInt64 = 0
      while true {
        let byte = try byte()
        guard shift < 63 else { throw .malformed("a compact step's length is too large") }
        value |= UInt64(byte & 0x7F) << shift
        if byte & 0x80 == 0 { break }
        shift += 7
      }
      guard value <= UInt64(bytes.count - offset) else { throw .malformed("a compact step ends early") }
      return Int(value)
    }

    /// The next `count` bytes (no more than what is left: `length` checks it).
    mutating func bytes(_ count: Int) -> ArraySlice<UInt8> {
      defer { offset += count }
      return bytes[offset..<(offset + count)]
    }

    /// The next `count` bytes as UTF-8 text.
    mutating func text(_ count: Int) throws(CommandDecodingError) -> String {
      guard let text = String(validating: bytes(count), as: UTF8.self) else {
        throw .malformed("a compact step's text is not UTF-8")
      }
      return text
    }

    mutating func value() throws(CommandDecodingError) -> JSONValue? {
      guard let form = Form(rawValue: try byte()) else {
        throw .malformed("a compact step's value form is unknown")
      }
      switch form {
      case .absent: return nil
      case .text: return .string(try text(try length()))
      case .json:
        let json = bytes(try length())
        do {
          return try JSONValue.parse(bytes: Array(json))
        } catch {
          throw .malformed("a compact step's value: \(error)")
        }
      }
    }
  }
}
