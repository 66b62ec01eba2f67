import RecordKit

/// What must hold for any bytes given to the JSON reader: a thrown
/// `JSONSyntaxError` is an answer, a trap or a failed precondition is a bug.
///
/// - An error's position lies inside the input (a line and column from 1).
/// - A document that is read is UTF-8 (after a byte-order mark), and the
///   pull API reads a top-level scalar as the tree does.
/// - What the writer and the compact form make of a value reads back as the
///   same value, and writing that again gives the same bytes.
/// - The canonical reader (what records are read with) refuses exactly what the tree
///   refuses, with the same message at the same place, and otherwise makes the compact
///   writer's text, which decodes to the value and lays out as the writer writes it.
enum JSONCheck {
  static func check(_ bytes: [UInt8]) {
    let value: JSONValue
    let canonical = Result { () throws(JSONSyntaxError) in try CanonicalJSON.read(document: bytes) }
    do {
      value = try JSONValue.parse(bytes: bytes)
    } catch {
      precondition(error.position.line >= 1 && error.position.column >= 1)
      precondition(0 <= error.offset && error.offset <= bytes.count, "\(error) for \(bytes.count) bytes")
      _ = error.description
      guard case .failure(let refusal) = canonical else {
        preconditionFailure("the canonical reader read what the tree refused: \(error)")
      }
      precondition(
        refusal.message == error.message && refusal.offset == error.offset, "\(refusal) vs \(error)")
      return
    }
    checkCanonical(canonical, value)
    let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
    precondition(String(validating: text, as: UTF8.self) != nil, "a document that is not UTF-8 was read")
    checkPullAPI(bytes, value)

    let written = JSONWriter.write(value)
    precondition(reread(written) == value, "the writer's bytes read back as another value")
    precondition(JSONWriter.write(value) == written)
    let compact = value.compactUTF8
    precondition(reread(compact) == value, "the compact bytes read back as another value")
    precondition(value.compactText == String(decoding: compact, as: UTF8.self))
  }

  /// The canonical text of a document the tree read.
  static func checkCanonical(_ canonical: Result<[UInt8], JSONSyntaxError>, _ value: JSONValue) {
    guard case .success(let text) = canonical else {
      preconditionFailure("the canonical reader refused what the tree read: \(canonical)")
    }
    precondition(text == CanonicalJSON.text(of: value), "the canonical text is not the compact writer's")
    let (decoded, laidOut) = CanonicalJSON.decodeAndLayOut(text)
    precondition(decoded == value, "the canonical text decodes to another value")
    precondition(laidOut == JSONWriter.write(value), "the canonical text lays out unlike the writer")
  }

  /// Bytes the writer made must be read without an error.
  static func reread(_ bytes: [UInt8]) -> JSONValue {
    do {
      return try JSONValue.parse(bytes: bytes)
    } catch {
      preconditionFailure("written JSON was refused: \(error)")
    }
  }

  /// A top-level scalar read through `peek` and the typed reads, as the tree read it.
  static func checkPullAPI(_ bytes: [UInt8], _ value: JSONValue) {
    let pulled = Result { () throws(JSONSyntaxError) -> JSONValue? in
      try JSONReader.withReader(over: bytes) {
        (reader: inout JSONReader) throws(JSONSyntaxError) -> JSONValue? in
        let result: JSONValue?
        switch try reader.peek() {
        case .string: result = .string(try reader.readString())
        case .number: result = .number(try reader.readNumberSpelling())
        case .bool: result = .bool(try reader.readBool())
        case .null:
          try reader.readNull()
          result = .null
        default: return nil
        }
        try reader.finish()
        return result
      }
    }
    switch pulled {
    case .success(let scalar?):
      precondition(scalar == value, "the pull API read \(scalar), the tree \(value)")
    case .success(nil): break
    case .failure(let error): preconditionFailure("the pull API refused what the tree read: \(error)")
    }
  }
}
