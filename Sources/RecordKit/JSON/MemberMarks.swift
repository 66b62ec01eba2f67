/// Where each member of an object lies in the text the reader wrote of it
/// (`JSONReader.readCanonicalObject(into:members:keying:)`: canonical, or keyed, each key
/// written as its code, which the mark then holds), and what each list member holds:
/// what a record's read hands inference, the schema check and the key's identity, so that
/// none of them finds a member's ends, or walks a list's elements, again. A record's text
/// is below 4 GiB (the reader's limit on a file is lower).
struct MemberMarks {
  /// One member's mark.
  struct Mark {
    /// Where the member starts — at the comma written before it, for all but the first —
    /// in the high 32 bits, where its value starts in the low 32. The key token ends at
    /// the `:` before the value; the value, at the next member's start or at the object's
    /// `}`.
    var place: Int
    /// The kinds of the member's elements when its value is a list, as `ValueKinds(_:_:)`
    /// tells them from the text (none for an empty list and for any other value).
    var elements: ValueKinds
    /// The key's code (`KeyCodes.shared`) when the reader wrote it in place of the key's
    /// token and colon (a keyed read); -1 when it wrote the token.
    var code: Int32
  }

  /// The marks, `count` of them; those after are a record's before, kept for their room:
  /// the marks are made again for every record, and emptying an array cost more than
  /// the marks themselves.
  private var marks: [Mark] = []
  private(set) var count = 0

  /// Mark `place` (below `count`).
  @inline(__always)
  subscript(place: Int) -> Mark {
    precondition(place < count, "a member that was marked")
    return marks[place]
  }

  /// Notes the next member: it starts at `start`, its value at `valueStart`, it holds a
  /// list of `elements` (none when it holds no list) and its key is written as `code`
  /// (-1: as its token).
  @inline(__always)
  mutating func append(start: Int, valueStart: Int, elements: ValueKinds, code: Int32 = -1) {
    let mark = Mark(place: start << 32 | valueStart, elements: elements, code: code)
    if count < marks.count {
      marks[count] = mark
    } else {
      marks.append(mark)
    }
    count += 1
  }

  /// Forgets every member (keeping the room).
  @inline(__always)
  mutating func removeAll() { count = 0 }

  /// Member `place`'s key token and value in `text`, the text the marks were made of: the
  /// token in the text, or in `KeyCodes.shared` for a key written as its code.
  @inline(__always)
  func member(_ place: Int, of text: UnsafeBufferPointer<UInt8>) -> (
    key: UnsafeBufferPointer<UInt8>, value: Range<Int>
  ) {
    precondition(place < count, "a member that was marked")
    return marks.withUnsafeBufferPointer { Self.member(place, of: text, marks: $0, count: count) }
  }

  /// Calls `body` with each member of `text` (the key token, as `member(_:of:)` gives it,
  /// the value and, for a list, its elements' kinds; `nil` for any other value), in order,
  /// as `CanonicalJSON.forEachMember` does, without scanning a byte of the text; stops when
  /// `body` returns false. Inlined, so that `body` is inlined with the walk.
  @inline(__always)
  func forEach(
    in text: UnsafeBufferPointer<UInt8>,
    _ body: (_ key: UnsafeBufferPointer<UInt8>, _ value: Range<Int>, _ elements: ValueKinds?) -> Bool
  ) {
    let count = count
    marks.withUnsafeBufferPointer { marks in
      for place in 0..<count {
        let (key, value) = Self.member(place, of: text, marks: marks, count: count)
        let elements = text[value.lowerBound] == UInt8(ascii: "[") ? marks[place].elements : nil
        guard body(key, value, elements) else { return }
      }
    }
  }

  /// Member `place`'s key token and value, from the first `count` of `marks`: it runs from
  /// its mark (after the comma there) to the next member's, or to the object's `}`.
  @inline(__always)
  private static func member(
    _ place: Int, of text: UnsafeBufferPointer<UInt8>, marks: UnsafeBufferPointer<Mark>, count: Int
  ) -> (key: UnsafeBufferPointer<UInt8>, value: Range<Int>) {
    let mark = marks[place]
    let valueStart = mark.place & 0xFFFF_FFFF
    let valueEnd = place &+ 1 < count ? marks[place &+ 1].place >> 32 : text.count &- 1
    guard mark.code < 0 else { return (KeyCodes.shared.token(Int(mark.code)), valueStart..<valueEnd) }
    let start = mark.place >> 32
    let keyStart = text[start] == UInt8(ascii: ",") ? start &+ 1 : start
    return (UnsafeBufferPointer(rebasing: text[keyStart..<(valueStart &- 1)]), valueStart..<valueEnd)
  }
}
