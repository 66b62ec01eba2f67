/// Objects read member by member by a caller that knows which keys it expects: loading
/// records. The caller steps through the members itself (`enterObject`, `readMemberKey`,
/// a value, `advanceInObject`) and checks duplicates itself.
extension JSONReader {
  /// A member's key: one of the expected names, by its index, or any other key as text.
  enum MemberKey: Equatable {
    case name(Int)
    case other(String)
  }

  /// Reads a member's key and its `:`, leaving the reader on the value and `tokenStart`
  /// on the key, with the same checks and errors as `readKey`.
  ///
  /// A key spelled without escapes that is byte for byte one of `names` makes no
  /// `String`: that is most keys of a file recsh wrote. Any other key is read as text
  /// and looked up with `String`'s `==`, as `FieldTable.index(ofField:)` does.
  mutating func readMemberKey(in names: JSONNameTable) throws(JSONSyntaxError) -> MemberKey {
    guard bytes[index] == UInt8(ascii: "\"") else {
      throw unexpected(.key, at: index, inside: .object)
    }
    let keyStart = index
    var ignored = false
    let stop = JSONStringScan.firstSpecial(in: bytes, from: keyStart + 1, sawNonASCII: &ignored)
    let key: MemberKey
    if stop < bytes.count, bytes[stop] == UInt8(ascii: "\""),
      let found = names.index(of: UnsafeBufferPointer(rebasing: bytes[keyStart + 1..<stop]))
    {
      index = stop + 1
      key = .name(found)
    } else {
      let text = try readStringToken()
      key = names.index(ofText: text).map(MemberKey.name) ?? .other(text)
    }
    guard try content(in: .object) == UInt8(ascii: ":") else {
      throw unexpected(.colon, at: index, inside: .object)
    }
    _ = try skipToContent(in: .object)
    tokenStart = keyStart
    return key
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

/// The keys a caller of `readMemberKey` expects, as UTF-8 bytes in one buffer.
///
/// Records have a handful of declared keys, so a scan comparing lengths first finds one
/// faster than hashing the key would.
struct JSONNameTable: Sendable {
  /// Every name's bytes, one after the other.
  private let utf8: [UInt8]
  /// Where each name starts in `utf8`, and one more entry for the end of the last.
  private let starts: [Int]
  private let names: [String]

  init(_ names: [String]) {
    self.names = names
    var utf8: [UInt8] = []
    var starts = [0]
    for name in names {
      utf8 += name.utf8
      starts.append(utf8.count)
    }
    self.utf8 = utf8
    self.starts = starts
  }

  /// The index of the name whose bytes are `key`.
  @inline(__always)
  func index(of key: UnsafeBufferPointer<UInt8>) -> Int? {
    starts.withUnsafeBufferPointer { starts in
      utf8.withUnsafeBufferPointer { utf8 in
        for index in 0..<starts.count - 1 where starts[index + 1] - starts[index] == key.count {
          let start = starts[index]
          var offset = 0
          while offset < key.count, utf8[start + offset] == key[offset] { offset += 1 }
          if offset == key.count { return index }
        }
        return nil
      }
    }
  }

  /// The index of the name equal to `text` (`String`'s `==`).
  func index(ofText text: String) -> Int? {
    names.firstIndex(of: text)
  }
}
