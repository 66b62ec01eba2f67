/// Writes JSON the way recsh saves files: pretty-printed, byte for byte predictable.
///
/// The layout is Python's `json.dumps(indent=2, ensure_ascii=False)` plus a final
/// newline: each element or member on its own line, indented two spaces per level,
/// `"key": value`, `[]` and `{}` for empty containers. A stable layout is what makes
/// a file saved without edits byte-identical and diffs between saves small.
///
/// Use `write(_:)` for a whole `JSONValue`, or the streaming calls (`beginObject`,
/// `key`, `string`, …, `finish`) to write records without building a tree; the writer
/// places commas, newlines and indentation itself. It appends raw bytes to one buffer,
/// with no `String` formatting per value, because saving a million records should take
/// well under a second.
public struct JSONWriter {
  /// The document so far.
  public internal(set) var bytes: [UInt8]
  /// How many containers are open.
  private var depth = 0
  /// A newline and the indentation for `depth`, appended in one go before each line.
  private var lineStart: [UInt8] = [UInt8(ascii: "\n")]
  /// Whether the innermost open container already has an element (so the next needs a comma).
  private var hasElements = false
  /// Whether a key was just written, so the next value goes on its line.
  private var afterKey = false

  public init(reservingCapacity capacity: Int = 0) {
    bytes = []
    bytes.reserveCapacity(capacity)
  }

  /// The complete document for `value`, final newline included. Saving a file that was
  /// loaded can pass its size as `reservingCapacity`, sparing the buffer's regrowth.
  public static func write(_ value: JSONValue, reservingCapacity capacity: Int = 0) -> [UInt8] {
    var writer = JSONWriter(reservingCapacity: capacity)
    writer.value(value)
    writer.finish()
    return writer.bytes
  }

  /// Hands the bytes written so far to `sink` and empties the buffer, keeping its
  /// capacity, so that a big file can be saved in chunks instead of held whole in memory.
  public mutating func drain<Failure: Error>(
    into sink: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Void
  ) throws(Failure) {
    try bytes.withUnsafeBufferPointer { (buffer) throws(Failure) in try sink(buffer) }
    bytes.removeAll(keepingCapacity: true)
  }

  /// Ends the document with its final newline.
  public mutating func finish() {
    assert(depth == 0 && !afterKey, "JSONWriter.finish() with an unclosed container")
    bytes.append(UInt8(ascii: "\n"))
  }

  public mutating func beginArray() {
    open(UInt8(ascii: "["))
  }

  public mutating func endArray() {
    close(UInt8(ascii: "]"))
  }

  public mutating func beginObject() {
    open(UInt8(ascii: "{"))
  }

  /// Writes a member's key; the next call writes its value.
  public mutating func key(_ key: String) {
    assert(depth > 0 && !afterKey, "JSONWriter.key(_:) outside an object or twice in a row")
    startElement()
    appendString(key)
    bytes.append(UInt8(ascii: ":"))
    bytes.append(UInt8(ascii: " "))
    afterKey = true
  }

  public mutating func endObject() {
    close(UInt8(ascii: "}"))
  }

  public mutating func string(_ string: String) {
    startValue()
    appendString(string)
  }

  /// Writes a number as spelled; the spelling must follow the JSON grammar, as the
  /// reader's spellings do (`JSONValue.isValidNumberSpelling` checks others).
  public mutating func numberSpelling(_ spelling: String) {
    assert(JSONValue.isValidNumberSpelling(spelling), "not a JSON number: \(spelling)")
    startValue()
    bytes.append(contentsOf: spelling.utf8)
  }

  public mutating func bool(_ value: Bool) {
    startValue()
    bytes.append(contentsOf: value ? Self.trueBytes : Self.falseBytes)
  }

  public mutating func null() {
    startValue()
    bytes.append(contentsOf: Self.nullBytes)
  }

  /// Writes `value` whole at the current place.
  public mutating func value(_ value: borrowing JSONValue) {
    switch value {
    case .null: null()
    case .bool(let flag): bool(flag)
    case .number(let spelling): numberSpelling(spelling)
    case .string(let text): string(text)
    case .array(let elements):
      beginArray()
      for element in elements { self.value(element) }
      endArray()
    case .object(let object):
      beginObject()
      for member in object.members {
        key(member.key)
        self.value(member.value)
      }
      endObject()
    }
  }

  private static let trueBytes: [UInt8] = Array("true".utf8)
  private static let falseBytes: [UInt8] = Array("false".utf8)
  private static let nullBytes: [UInt8] = Array("null".utf8)

  private mutating func open(_ opener: UInt8) {
    startValue()
    bytes.append(opener)
    depth += 1
    lineStart.append(UInt8(ascii: " "))
    lineStart.append(UInt8(ascii: " "))
    hasElements = false
  }

  private mutating func close(_ closer: UInt8) {
    assert(depth > 0 && !afterKey, "JSONWriter: unbalanced close or a key without a value")
    depth -= 1
    lineStart.removeLast(2)
    if hasElements { newline() }
    bytes.append(closer)
    hasElements = true
  }

  /// Puts a value in place: right after its key, or on a new element line in an array.
  @inline(__always)
  private mutating func startValue() {
    if afterKey {
      afterKey = false
    } else if depth > 0 {
      startElement()
    }
  }

  private mutating func startElement() {
    if hasElements { bytes.append(UInt8(ascii: ",")) }
    newline()
    hasElements = true
  }

  private mutating func newline() {
    lineStart.withUnsafeBufferPointer { bytes.append(contentsOf: $0) }
  }
}
