/// A list of strings kept as one text (`BlockText`): each element's UTF-8 bytes after its
/// length (LEB128: one byte below 128), in order. What the shipped kinds' tags are: a read
/// puts a record's list in the read's shared blocks (`TextArena.build`), so it costs its
/// bytes and a byte an element, not an array (a 32-byte header and the allocator's own)
/// with a `String` each. Elements are made `String`s only when asked for (`elements`).
///
/// Equal lists are equal texts: the same elements, by their bytes, in the same order.
struct TextList: Equatable, Sendable, ExpressibleByArrayLiteral {
  /// The packed elements.
  let packed: BlockText

  /// The list whose packed text is `packed` (`append(_:to:)` made it).
  init(packed: BlockText) { self.packed = packed }

  /// A list of `elements`, in a block of its own.
  init(_ elements: [String]) {
    var packed: [UInt8] = []
    for element in elements {
      var element = element
      element.withUTF8 { Self.append($0, to: &packed) }
    }
    self.packed = packed.withUnsafeBufferPointer { BlockText(copying: $0) }
  }

  init(arrayLiteral elements: String...) { self.init(elements) }

  /// Appends one element, `bytes`, to a packed list.
  static func append(_ bytes: UnsafeBufferPointer<UInt8>, to packed: inout [UInt8]) {
    var length = bytes.count
    while length >= 0x80 {
      packed.append(UInt8(truncatingIfNeeded: length) | 0x80)
      length >>= 7
    }
    packed.append(UInt8(length))
    packed.append(contentsOf: bytes)
  }

  /// Calls `body` with each element's bytes, in order, until it returns false. O(the text).
  func forEachElement(_ body: (UnsafeBufferPointer<UInt8>) -> Bool) {
    packed.withBytes { text in
      var offset = 0
      while offset < text.count {
        var length = 0
        var shift = 0
        while text[offset] & 0x80 != 0 {
          length |= Int(text[offset] & 0x7F) << shift
          shift += 7
          offset += 1
        }
        length |= Int(text[offset]) << shift
        offset += 1
        guard body(UnsafeBufferPointer(rebasing: text[offset..<(offset + length)])) else { return }
        offset += length
      }
    }
  }

  /// The elements as `String`s (a new array).
  var elements: [String] {
    var elements: [String] = []
    forEachElement { bytes in
      elements.append(UTF8Validation.knownValidString(bytes))
      return true
    }
    return elements
  }

  /// Whether an element has the bytes of `element`. No allocation.
  func contains(_ element: String) -> Bool {
    var element = element
    return element.withUTF8 { wanted in
      var found = false
      forEachElement { bytes in
        found = CanonicalJSON.sameBytes(bytes, wanted)
        return !found
      }
      return found
    }
  }
}
