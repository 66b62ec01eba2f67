/// Objects read member by member by a caller that knows which keys it expects: loading
/// records. The caller steps through the members itself (`enterObject`, `readMemberKey`,
/// `readColon`, a value, `advanceInObject`) and checks duplicates itself, between the key
/// and the colon, where `readKey` checks them.
extension JSONReader {
  /// A member's key: one of the expected names, by its index, or any other key as text.
  enum MemberKey: Equatable {
    case name(Int)
    case other(String)
  }

  /// Reads a member's key, leaving the reader after it and `tokenStart` on the key, with
  /// the same checks and errors as `readKey`; `readColon()` then reads the `:`. The caller
  /// checks for a duplicate in between, so that a duplicate key followed by a bad colon
  /// is refused as the tree refuses it: as a duplicate.
  ///
  /// A key spelled without escapes that is byte for byte one of `names` makes no
  /// `String`: that is most keys of a file recsh wrote. Any other key is read as text
  /// and looked up with `String`'s `==`, as `FieldTable.index(ofField:)` does.
  mutating func readMemberKey(in names: JSONNameTable) throws(JSONSyntaxError) -> MemberKey {
    guard bytes[index] == UInt8(ascii: "\"") else {
      throw unexpected(.key, at: index, inside: .object)
    }
    let keyStart = index
    let key: MemberKey
    if let (found, end) = names.match(in: bytes, at: keyStart + 1) {
      index = end + 1
      key = .name(found)
    } else {
      let text = try readStringToken()
      key = names.index(ofText: text).map(MemberKey.name) ?? .other(text)
    }
    tokenStart = keyStart
    return key
  }

  /// Reads the `:` after a key `readMemberKey` read, leaving the reader on the value.
  /// Inlined: it comes after every key, and the call cost as much as the usual step.
  @inline(__always)
  mutating func readColon() throws(JSONSyntaxError) {
    // `": "` then the value, as recsh writes it, and `":"` then the value, as JSON Lines
    // have it, are stepped over at once.
    if index &+ 2 < bytes.count, bytes[index] == UInt8(ascii: ":") {
      if bytes[index &+ 1] == UInt8(ascii: " "), !Self.isWhitespace(bytes[index &+ 2]) {
        index &+= 2
        return
      }
      if !Self.isWhitespace(bytes[index &+ 1]) {
        index &+= 1
        return
      }
    }
    try readSpacedColon()
  }

  /// `readColon` where white space stands around the `:`, or the bytes end.
  private mutating func readSpacedColon() throws(JSONSyntaxError) {
    guard try content(in: .object) == UInt8(ascii: ":") else {
      throw unexpected(.colon, at: index, inside: .object)
    }
    _ = try skipToContent(in: .object)
  }

  @inline(__always)
  private static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }

  /// Where the reader is, to come back to with `rewind(to:)`.
  struct Mark {
    fileprivate let index: Int
    fileprivate let tokenStart: Int
    fileprivate let depth: Int
    fileprivate let keyCount: Int
  }

  var mark: Mark {
    Mark(index: index, tokenStart: tokenStart, depth: depth, keyCount: keyStack.count)
  }

  /// Goes back to `mark`, taken at a value's start in the same container, to read the
  /// value again another way; it forgets the keys of objects entered since.
  mutating func rewind(to mark: Mark) {
    index = mark.index
    tokenStart = mark.tokenStart
    depth = mark.depth
    keyStack.removeSubrange(mark.keyCount...)
  }
}

/// The keys a caller of `readMemberKey` expects, as UTF-8 bytes.
///
/// Records have a handful of declared keys, mostly shorter than eight bytes, so each name
/// is kept as its length and its first eight bytes in a word: a key is found by
/// comparing words, and only longer names compare the rest byte by byte.
struct JSONNameTable: Sendable {
  private struct Entry: Sendable {
    let count: Int
    /// The first eight bytes, little-endian, zero past the end.
    let head: UInt64
    /// The bytes after the first eight.
    let tail: [UInt8]
  }

  private let entries: [Entry]
  private let names: [String]

  init(_ names: [String]) {
    self.names = names
    entries = names.map { name in
      let utf8 = Array(name.utf8)
      return Entry(count: utf8.count, head: Self.head(of: utf8.prefix(8)), tail: Array(utf8.dropFirst(8)))
    }
  }

  private static func head(of bytes: some Collection<UInt8>) -> UInt64 {
    var word: UInt64 = 0
    for (shift, byte) in bytes.enumerated() { word |= UInt64(byte) << (8 * UInt64(shift)) }
    return word
  }

  /// The name spelled, without escapes, by the string whose text starts at `start` in
  /// `bytes` (after its opening quote): its index, and the offset of the closing quote.
  /// `nil` when the string is something else, has an escape, or is not closed.
  ///
  /// A key of up to seven bytes is found with one load: the first byte that needs
  /// attention (`JSONStringScan.specialBytes`) must be its closing quote.
  @inline(__always)
  func match(in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> (index: Int, end: Int)? {
    let count: Int
    let head: UInt64
    if start &+ 8 <= bytes.count, let base = bytes.baseAddress {
      let word = UInt64(littleEndian: UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self))
      let special = JSONStringScan.specialBytes(word)
      if special != 0 {
        count = special.trailingZeroBitCount &>> 3
        guard bytes[start &+ count] == UInt8(ascii: "\"") else { return nil }
        head = count == 0 ? 0 : word & (UInt64.max &>> (64 &- 8 &* UInt64(count)))
      } else {
        return matchLong(in: bytes, at: start)
      }
    } else {
      return matchLong(in: bytes, at: start)
    }
    return entries.withUnsafeBufferPointer { entries in
      for index in entries.indices where entries[index].count == count && entries[index].head == head {
        return (index, start &+ count)
      }
      return nil
    }
  }

  /// `match` for keys of more than eight bytes, and near the end of the input.
  private func matchLong(in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> (index: Int, end: Int)? {
    var ignored = false
    let stop = JSONStringScan.firstSpecial(in: bytes, from: start, sawNonASCII: &ignored)
    guard stop < bytes.count, bytes[stop] == UInt8(ascii: "\"") else { return nil }
    let key = UnsafeBufferPointer(rebasing: bytes[start..<stop])
    var head: UInt64 = 0
    for offset in 0..<min(key.count, 8) { head |= UInt64(key[offset]) &<< (8 &* UInt64(offset)) }
    for index in entries.indices where entries[index].count == key.count && entries[index].head == head {
      if key.count <= 8 || entries[index].tail.elementsEqual(UnsafeBufferPointer(rebasing: key[8...])) {
        return (index, stop)
      }
    }
    return nil
  }

  /// The index of the name equal to `text` (`String`'s `==`).
  func index(ofText text: String) -> Int? {
    names.firstIndex(of: text)
  }
}
