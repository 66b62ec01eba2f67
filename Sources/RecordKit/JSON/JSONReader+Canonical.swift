/// Reading a value into its canonical text (`CanonicalJSON`) instead of a tree.
extension JSONReader {
  /// Reads the value at the current byte (the caller has peeked it) and writes its
  /// canonical text to `writer`, a compact one: a string without escapes and a number are
  /// copied as they are, a string with escapes is decoded and written as the writer
  /// escapes, arrays and objects are walked. Checks the source exactly as `parseValue`
  /// does — the same token steps, so the same errors at the same places — and builds no
  /// `JSONValue`: what a record's members cost to load is a copy of their bytes.
  mutating func readCanonical(into writer: inout JSONWriter) throws(JSONSyntaxError) {
    switch bytes[index] {
    case UInt8(ascii: "\""):
      guard let content = try plainString() else {
        // An escape, a control byte or the end: the string reader reads or words it.
        writer.string(try readStringToken())
        return
      }
      writer.canonicalScalar(UnsafeBufferPointer(rebasing: bytes[index...content.upperBound]))
      index = content.upperBound + 1
    case UInt8(ascii: "["):
      writer.beginArray()
      if try enterArray() {
        repeat {
          try readCanonical(into: &writer)
        } while try advanceInArray()
      }
      writer.endArray()
    case UInt8(ascii: "{"):
      var unmarked = MemberMarks()
      try readCanonicalObject(into: &writer, marking: false, members: &unmarked)
    case UInt8(ascii: "t"):
      try readLiteral("true")
      writer.bool(true)
    case UInt8(ascii: "f"):
      try readLiteral("false")
      writer.bool(false)
    case UInt8(ascii: "n"):
      try readLiteral("null")
      writer.null()
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      let start = index
      _ = try scanNumberToken()
      writer.canonicalScalar(UnsafeBufferPointer(rebasing: bytes[start..<index]))
    default:
      throw unexpected(.value, at: index, inside: .document)
    }
  }
}

extension JSONReader {
  /// `readCanonical(into:)` of the object at the current byte (the caller has peeked it),
  /// noting in `members` where each of its members lies in `writer`'s bytes and what each
  /// list member's elements are (`MemberMarks`): what a record's read hands inference and
  /// the schema check, which then need not find those ends, or walk those lists, again.
  ///
  /// `keying`: write each key as its code in `KeyCodes.shared` where it has or is given
  /// one (`JSONWriter.keyCode(_:)`), the form a run-time record's text is kept in, and
  /// note the code in its mark; `writer` is then compact.
  mutating func readCanonicalObject(
    into writer: inout JSONWriter, members: inout MemberMarks, keying: Bool = false
  )
    throws(JSONSyntaxError)
  {
    if keying {
      try readCanonicalObject(into: &writer, marking: true, keying: true, members: &members)
    } else {
      try readCanonicalObject(into: &writer, marking: true, keying: false, members: &members)
    }
  }

  /// The object case of `readCanonical(into:)`, marking its members when `marking`, and
  /// writing its keys as their codes when `keying` (with `marking` only).
  @inline(__always)
  private mutating func readCanonicalObject(
    into writer: inout JSONWriter, marking: Bool, keying: Bool = false, members: inout MemberMarks
  )
    throws(JSONSyntaxError)
  {
    writer.beginObject()
    if try enterObject() {
      var keys = CanonicalKeys(base: rawKeyStack.count)
      repeat {
        let memberStart = writer.byteCount
        var code: Int32 = -1
        if marking, !keys.offShape, let place = recordShape.match(bytes, at: index, from: keys.nextShapeKey) {
          if keying { code = recordShape.keys[place].code }
          try readShapedKey(place, into: &writer, keys: &keys, code: code)
        } else {
          keys.offShape = true
          try readCanonicalKey(into: &writer, keys: &keys)
          if keying { code = writer.codeKeyWritten(since: memberStart) }
        }
        if marking {
          let valueStart = writer.byteCount
          let elements: ValueKinds
          if bytes[index] == UInt8(ascii: "[") {
            elements = try readCanonicalList(into: &writer)
          } else {
            elements = []
            try readCanonical(into: &writer)
          }
          members.append(start: memberStart, valueStart: valueStart, elements: elements, code: code)
        } else {
          try readCanonical(into: &writer)
        }
      } while try advanceInObject()
      // A record that left the shape (or found none) is the shape for the next.
      if marking, keys.offShape, keys.strings == nil {
        recordShape.set(met: keys.shapeMet, then: rawKeyStack[keys.base...], in: bytes)
      }
      rawKeyStack.removeSubrange(keys.base...)
      keys.strings?.removeAll(from: &keyStack)
    }
    writer.endObject()
  }

  /// The list case of `readCanonical(into:)` (the caller has peeked its `[`), giving the
  /// kinds of its elements as `ValueKinds(_:_:)` tells them from the text written: each
  /// one's first byte, and a number's spelling (a number is written as it is spelled).
  @inline(__always)
  private mutating func readCanonicalList(into writer: inout JSONWriter) throws(JSONSyntaxError) -> ValueKinds
  {
    var kinds: ValueKinds = []
    writer.beginArray()
    if try enterArray() {
      repeat {
        let start = index
        var kind = ValueKinds(first: bytes[start])
        try readCanonical(into: &writer)
        if kind == .number, ValueKinds.spelledWhole(bytes, start..<index) { kind = .integer }
        kinds.insert(kind)
      } while try advanceInArray()
    }
    writer.endArray()
    return kinds
  }
}

/// The keys of one object `readCanonical` reads, for refusing duplicates as `JSONKeySet`
/// does, without a `String` per key: a key without escapes is its source bytes, kept as a
/// range on the reader's `rawKeyStack` and compared byte for byte after the same check of
/// its class (`JSONKeySet.keyClass`), which most keys fail. An object with an escaped key,
/// or with more keys than `JSONKeySet` scans, goes over to a `JSONKeySet` of strings.
struct CanonicalKeys {
  /// This object's first range on `rawKeyStack`.
  let base: Int
  /// The classes of the raw keys and shape keys seen so far.
  var classes: UInt64 = 0
  /// The string set, once the object needs it (it then holds every key so far).
  var strings: JSONKeySet?
  /// The keys of the reader's `KeyShape` this object's keys met, as bits of their places
  /// (a record's keys only: `readCanonicalObject(into:members:)`); they are not on
  /// `rawKeyStack`.
  var shapeMet: UInt64 = 0
  /// The place in the shape after the last key met.
  var nextShapeKey = 0
  /// Whether a key was read without the shape: every later key is then read so, and
  /// checked against all the keys before it (those met in the shape among them).
  var offShape = false

  init(base: Int) {
    self.base = base
  }
}

extension JSONReader {
  /// The bytes between the quotes of the string token at the current byte, when it has no
  /// escape, checked as UTF-8 (an invalid byte is thrown as `readStringToken` throws it);
  /// `nil` when it has an escape, a control byte or no end, which `readStringToken` reads
  /// or words. The reader does not move.
  @inline(__always)
  private mutating func plainString() throws(JSONSyntaxError) -> Range<Int>? {
    var sawNonASCII = false
    let stop = JSONStringScan.firstSpecial(in: bytes, from: index + 1, sawNonASCII: &sawNonASCII)
    guard stop < bytes.count, bytes[stop] == UInt8(ascii: "\"") else { return nil }
    let content = (index + 1)..<stop
    if sawNonASCII, UTF8Validation.firstInvalidOffset(in: bytes, content) != nil {
      throw invalidUTF8(in: content)
    }
    return content
  }

  /// Reads a member's key and its `:` as `readKey` does (the same errors at the same
  /// places), writing the key to `writer`: copied when it has no escape.
  mutating func readCanonicalKey(into writer: inout JSONWriter, keys: inout CanonicalKeys)
    throws(JSONSyntaxError)
  {
    guard bytes[index] == UInt8(ascii: "\"") else {
      throw unexpected(.key, at: index, inside: .object)
    }
    guard keys.strings == nil,
      rawKeyStack.count - keys.base + keys.shapeMet.nonzeroBitCount < JSONKeySet.scanLimit,
      let key = try plainString()
    else {
      var strings: JSONKeySet
      if let existing = keys.strings {
        strings = existing
      } else {
        strings = JSONKeySet(base: keyStack.count)
        recordShape.forEachKey(met: keys.shapeMet) {
          _ = strings.insert(String(decoding: $0, as: UTF8.self), into: &keyStack)
        }
        for range in rawKeyStack[keys.base...] {
          let known = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
          _ = strings.insert(known, into: &keyStack)
        }
      }
      writer.key(try readKey(checkingAgainst: &strings))
      keys.strings = strings
      return
    }
    let keyStart = index
    let keyClass = JSONKeySet.keyClass(count: key.count, first: key.isEmpty ? 0 : bytes[key.lowerBound])
    if keys.classes & keyClass != 0 {
      let text = UnsafeBufferPointer(rebasing: bytes[key])
      var duplicate = rawKeyStack[keys.base...].contains {
        CanonicalJSON.sameBytes(UnsafeBufferPointer(rebasing: bytes[$0]), text)
      }
      recordShape.forEachKey(met: keys.shapeMet) {
        duplicate = duplicate || CanonicalJSON.sameBytes($0, text)
      }
      if duplicate {
        throw syntaxError(.duplicateKey(String(decoding: text, as: UTF8.self)), at: keyStart)
      }
    }
    keys.classes |= keyClass
    rawKeyStack.append(key)
    index = key.upperBound + 1
    try readColon()
    tokenStart = keyStart
    writer.canonicalKey(UnsafeBufferPointer(rebasing: bytes[keyStart...key.upperBound]))
  }

  /// Reads a record's key whose token is key `place` of `recordShape` (`KeyShape.match`
  /// found it at the current byte) and its `:`, as `readCanonicalKey` does: a key the
  /// shape holds has no escape, is valid UTF-8, and differs from the record's keys before
  /// it, which met the shape at places before `place`.
  @inline(__always)
  private mutating func readShapedKey(
    _ place: Int, into writer: inout JSONWriter, keys: inout CanonicalKeys, code: Int32
  ) throws(JSONSyntaxError) {
    let key = recordShape.keys[place]
    keys.shapeMet |= 1 &<< UInt64(place)
    keys.classes |= key.keyClass
    keys.nextShapeKey = place &+ 1
    let keyStart = index
    index &+= key.count
    try readColon()
    tokenStart = keyStart
    if code >= 0 {
      writer.keyCode(Int(code))
    } else {
      writer.canonicalKey(UnsafeBufferPointer(rebasing: bytes[keyStart..<(keyStart &+ key.count)]))
    }
  }
}
