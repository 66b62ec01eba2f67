/// Writes JSON the way recsh saves files: pretty-printed, byte for byte predictable.
///
/// The layout is Python's `json.dumps(indent=2, ensure_ascii=False)` plus a final
/// newline: each element or member on its own line, indented two spaces per level,
/// `"key": value`, `[]` and `{}` for empty containers. A stable layout is what makes
/// a file saved without edits byte-identical and diffs between saves small.
///
/// Use `write(_:)` for a whole `JSONValue`, or the streaming calls (`beginObject`,
/// `key`, `string`, …, `finish`) to write records without building a tree; the writer
/// places commas, newlines and indentation itself, and `drain(into:)` hands over what
/// it holds so that a big file is saved in chunks.
///
/// The bytes go to memory the writer allocates and owns, which is why it is
/// `~Copyable`: each call checks the room it needs once and then stores bytes through a
/// pointer, where appending to an `[UInt8]` checks uniqueness and capacity for every
/// piece (a comma, an indent, a quote; the figures are in docs/PERFORMANCE.md).
public struct JSONWriter: ~Copyable {
  private var storage: UnsafeMutablePointer<UInt8>
  private var capacity: Int
  /// How many bytes the writer holds.
  private(set) var byteCount = 0
  /// How many containers are open.
  private var depth = 0
  /// Whether the innermost open container already has an element (so the next needs a comma).
  private var hasElements = false
  /// Whether a key was just written, so the next value goes on its line.
  private var afterKey = false
  /// Compact output (JSON Lines, `jq -c`'s layout): no newlines, no indentation, no space
  /// after a colon.
  private let compact: Bool

  public init(reservingCapacity capacity: Int = 0, compact: Bool = false) {
    self.capacity = max(capacity, 64)
    self.compact = compact
    storage = .allocate(capacity: self.capacity)
  }

  /// Ends a line between top-level values (JSON Lines).
  public mutating func lineBreak() {
    assert(depth == 0 && !afterKey, "JSONWriter.lineBreak() inside a container")
    reserve(1)
    put(UInt8(ascii: "\n"))
    hasElements = false
  }

  deinit {
    storage.deallocate()
  }

  /// The bytes written so far (a copy).
  public var bytes: [UInt8] {
    Array(UnsafeBufferPointer(start: storage, count: byteCount))
  }

  /// Calls `body` with the bytes written so far, in place (the writer alive meanwhile).
  func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
    try body(unsafeBytes)
  }

  /// The bytes written so far, not copied: valid until the next write or the writer's end.
  var unsafeBytes: UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: storage, count: byteCount)
  }

  /// The bytes written so far without a final newline (a copy).
  var bytesWithoutFinalNewline: [UInt8] { Array(withoutFinalNewline) }

  /// The text written so far, without a final newline (a copy).
  public var text: String { String(decoding: withoutFinalNewline, as: UTF8.self) }

  /// The bytes written so far, a final newline left out; valid until the next write.
  private var withoutFinalNewline: UnsafeBufferPointer<UInt8> {
    let count = byteCount > 0 && storage[byteCount - 1] == UInt8(ascii: "\n") ? byteCount - 1 : byteCount
    return UnsafeBufferPointer(start: storage, count: count)
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
  mutating func drain<Failure: Error>(
    into sink: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Void
  ) throws(Failure) {
    try sink(UnsafeBufferPointer(start: storage, count: byteCount))
    byteCount = 0
  }

  /// Ends the document with its final newline.
  public mutating func finish() {
    assert(depth == 0 && !afterKey, "JSONWriter.finish() with an unclosed container")
    reserve(1)
    put(UInt8(ascii: "\n"))
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
    startKey()
    appendString(key)
    endKey()
  }

  /// Writes a member's key from its canonical string token (`"name"`, quotes and escapes
  /// as `CanonicalJSON` has them): the bytes are the key's encoding already. Inlined: a
  /// record's read writes every key so.
  @inline(__always)
  mutating func canonicalKey(_ token: UnsafeBufferPointer<UInt8>) {
    startKey()
    append(token)
    endKey()
  }

  /// Writes a member's key as its code (`KeyCodes`) in place of its token and colon: the
  /// keyed form a run-time record's text is kept in. The next call writes its value. For a
  /// compact writer only (the keyed form is of canonical text).
  @inline(__always)
  mutating func keyCode(_ code: Int) {
    assert(compact, "JSONWriter: the keyed form is of compact text")
    startKey()
    reserve(3)
    byteCount += KeyCodes.write(code, at: storage + byteCount)
    afterKey = true
  }

  /// Writes the key just written — its token and colon, written since `memberStart` (where
  /// its comma is, when it has one) — as its code in `codes` instead (`keyCode(_:)`), when
  /// the token has or is given one; returns the code, or -1 with the token left as it is.
  mutating func codeKeyWritten(since memberStart: Int, codes: KeyCodes = .shared) -> Int32 {
    var none: [Int32] = []
    return codeKeyWritten(since: memberStart, place: 0, recent: &none, codes: codes)
  }

  /// `codeKeyWritten(since:codes:)` of member `place` of the object being written, its
  /// code taken from `recent` when it is the one noted there for that place (the codes of
  /// the object written before, by place: `KeyedText.code(of:place:codes:recent:)`).
  mutating func codeKeyWritten(
    since memberStart: Int, place: Int, recent: inout [Int32], codes: KeyCodes = .shared
  ) -> Int32 {
    assert(compact && afterKey, "JSONWriter: a key just written by a compact writer")
    let tokenStart = storage[memberStart] == UInt8(ascii: ",") ? memberStart + 1 : memberStart
    // The token ends before the colon.
    let token = UnsafeBufferPointer(start: storage + tokenStart, count: byteCount - 1 - tokenStart)
    guard let code = KeyedText.code(of: token, place: place, codes: codes, recent: &recent) else { return -1 }
    byteCount = tokenStart + KeyCodes.write(code, at: storage + tokenStart)
    return Int32(code)
  }

  /// Writes a member's key from its encoded form, made once per name: saving writes the
  /// same few keys for every record.
  mutating func key(_ key: Key) {
    startKey()
    key.bytes.withUnsafeBufferPointer { bytes in
      // The space after the colon is the key's last byte.
      append(compact ? UnsafeBufferPointer(rebasing: bytes.dropLast()) : bytes)
    }
    afterKey = true
  }

  /// Before a key: its comma and line.
  @inline(__always)
  private mutating func startKey() {
    assert(depth > 0 && !afterKey, "JSONWriter: a key outside an object or twice in a row")
    startElement()
  }

  /// After a key's string: `:` (and a space, unless compact); the next call writes its value.
  @inline(__always)
  private mutating func endKey() {
    reserve(2)
    put(UInt8(ascii: ":"))
    if !compact { put(UInt8(ascii: " ")) }
    afterKey = true
  }

  /// Writes a scalar's canonical token (a string, a number, `true`, `false` or `null`)
  /// as it is.
  @inline(__always)
  mutating func canonicalScalar(_ token: UnsafeBufferPointer<UInt8>) {
    startValue()
    append(token)
  }

  /// Empties the writer, keeping its memory: a builder reused for every record of a file
  /// allocates once.
  mutating func reset() {
    byteCount = 0
    depth = 0
    hasElements = false
    afterKey = false
  }

  public mutating func endObject() {
    close(UInt8(ascii: "}"))
  }

  mutating func string(_ string: String) {
    startValue()
    appendString(string)
  }

  /// A string value given as its UTF-8 bytes (`BlockText`'s).
  mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
    startValue()
    appendString(utf8: utf8)
  }

  /// Writes a number as spelled; the spelling must follow the JSON grammar, as the
  /// reader's spellings do (`JSONValue.isValidNumberSpelling` checks others).
  mutating func numberSpelling(_ spelling: String) {
    assert(JSONValue.isValidNumberSpelling(spelling), "not a JSON number: \(spelling)")
    startValue()
    var spelling = spelling
    spelling.withUTF8 { append($0) }
  }

  /// Writes an integer in decimal, as `String(value)` spells it.
  mutating func integer(_ value: Int) {
    startValue()
    // `Int.min` is the longest: a minus sign and 19 digits.
    reserve(20)
    var magnitude = value.magnitude
    var digits = 1
    var probe = magnitude
    while probe >= 10 {
      probe /= 10
      digits += 1
    }
    if value < 0 { put(UInt8(ascii: "-")) }
    var cursor = end + digits
    repeat {
      cursor -= 1
      cursor.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
      magnitude /= 10
    } while magnitude != 0
    advance(by: digits)
  }

  mutating func bool(_ value: Bool) {
    startValue()
    append(value ? "true" : "false")
  }

  mutating func null() {
    startValue()
    append("null")
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

  /// A key as the writer puts it before a member's value, `"name": `, encoded once.
  struct Key: Sendable {
    let bytes: [UInt8]

    init(_ name: String) {
      var writer = JSONWriter()
      writer.appendString(name)
      writer.reserve(2)
      writer.put(UInt8(ascii: ":"))
      writer.put(UInt8(ascii: " "))
      bytes = writer.bytes
    }
  }

  private mutating func open(_ opener: UInt8) {
    startValue()
    reserve(1)
    put(opener)
    depth += 1
    hasElements = false
  }

  private mutating func close(_ closer: UInt8) {
    assert(depth > 0 && !afterKey, "JSONWriter: unbalanced close or a key without a value")
    depth -= 1
    if hasElements { newline() }
    reserve(1)
    put(closer)
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

  /// A comma after the previous element, then a new line indented for `depth`.
  @inline(__always)
  private mutating func startElement() {
    if hasElements {
      reserve(1)
      put(UInt8(ascii: ","))
    }
    newline()
    hasElements = true
  }

  /// A newline and two spaces per open container, the spaces stored a word at a time.
  @inline(__always)
  private mutating func newline() {
    if compact { return }
    let indent = 2 &* depth
    reserve(indent &+ 1 &+ 8)
    put(UInt8(ascii: "\n"))
    var out = UnsafeMutableRawPointer(end)
    var left = indent
    while left > 0 {
      out.storeBytes(of: 0x2020_2020_2020_2020 as UInt64, as: UInt64.self)
      out += 8
      left &-= 8
    }
    byteCount &+= indent
  }

  // MARK: - Raw bytes

  /// Makes room for `count` more bytes, so that the stores after it need no checks.
  @inline(__always)
  mutating func reserve(_ count: Int) {
    if byteCount &+ count > capacity { grow(toHold: byteCount + count) }
  }

  private mutating func grow(toHold needed: Int) {
    let newCapacity = max(needed, capacity * 2)
    let newStorage = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    newStorage.initialize(from: storage, count: byteCount)
    storage.deallocate()
    storage = newStorage
    capacity = newCapacity
  }

  /// Stores one byte in room made by `reserve`.
  @inline(__always)
  mutating func put(_ byte: UInt8) {
    storage[byteCount] = byte
    byteCount &+= 1
  }

  @inline(__always)
  mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    reserve(bytes.count)
    if let base = bytes.baseAddress { Self.copy(bytes.count, from: base, to: storage + byteCount) }
    byteCount += bytes.count
  }

  /// Copies `count` bytes from `source` to `target`. Up to sixteen go as two loads and two
  /// stores that overlap (the first and last eight, four or two bytes; all loads before
  /// any store, so the two may overlap): most of what a read of records appends is a key
  /// or a short value, and the call into `memmove` cost more than such a copy. Also what
  /// `EditRecordHead` lays out its parts with.
  @inline(__always)
  static func copy(_ count: Int, from source: UnsafeRawPointer, to target: UnsafeMutableRawPointer) {
    switch count {
    case 8...16:
      let first = source.loadUnaligned(as: UInt64.self)
      let last = source.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
      target.storeBytes(of: first, as: UInt64.self)
      target.storeBytes(of: last, toByteOffset: count &- 8, as: UInt64.self)
    case 4..<8:
      let first = source.loadUnaligned(as: UInt32.self)
      let last = source.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
      target.storeBytes(of: first, as: UInt32.self)
      target.storeBytes(of: last, toByteOffset: count &- 4, as: UInt32.self)
    case 2..<4:
      let first = source.loadUnaligned(as: UInt16.self)
      let last = source.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self)
      target.storeBytes(of: first, as: UInt16.self)
      target.storeBytes(of: last, toByteOffset: count &- 2, as: UInt16.self)
    case 1: target.storeBytes(of: source.load(as: UInt8.self), as: UInt8.self)
    case 0: break
    default: target.copyMemory(from: source, byteCount: count)
    }
  }

  @inline(__always)
  private mutating func append(_ literal: StaticString) {
    append(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
  }

  /// The writable memory from the current end on, `count` bytes of which `reserve` made
  /// room for; `advance(by:)` then takes what was stored there.
  @inline(__always)
  var end: UnsafeMutablePointer<UInt8> { storage + byteCount }

  @inline(__always)
  mutating func advance(by count: Int) {
    byteCount &+= count
  }
}
