/// Byte ranges in order (each record's bytes in a file, each part's in a container),
/// held compact: two `UInt32` a range — 8 bytes, where a `Range<Int>` takes 16 — while
/// every bound fits, as in any file under 4 GiB. The first bound past `UInt32.max`
/// widens the whole list to `Int` pairs, so that no size of file is refused.
///
/// A `FileImage` keeps one range per record for the life of a session.
///
/// Reading a range is O(1); `append` is amortized O(1), and the one widening O(count).
struct SpanList: RandomAccessCollection, ExpressibleByArrayLiteral, Sendable, Equatable {
  /// Each range as one word, its lower bound in the low 32 bits and its upper bound in the
  /// high 32, while every bound fits in a `UInt32` (one append a range).
  private var narrow: [UInt64] = []
  /// The ranges once one bound did not fit; `narrow` is then empty.
  private var wide: [Range<Int>] = []
  private var isWide = false

  /// Whether the ranges are held in 8 bytes each: every bound so far fits in a `UInt32`.
  var isCompact: Bool { !isWide }

  init() {}

  init(_ ranges: some Sequence<Range<Int>>) {
    reserveCapacity(ranges.underestimatedCount)
    for range in ranges { append(range) }
  }

  init(arrayLiteral ranges: Range<Int>...) { self.init(ranges) }

  var startIndex: Int { 0 }
  var endIndex: Int { isWide ? wide.count : narrow.count }

  @inline(__always)
  subscript(position: Int) -> Range<Int> {
    if isWide { return wide[position] }
    let word = narrow[position]
    return Int(truncatingIfNeeded: word & 0xFFFF_FFFF)..<Int(truncatingIfNeeded: word &>> 32)
  }

  /// Appends `range`, whose bounds must not be negative. Inlined: a file's read appends
  /// one a record.
  @inline(__always)
  mutating func append(_ range: Range<Int>) {
    precondition(range.lowerBound >= 0, "a byte range starts at an offset")
    if !isWide {
      if range.upperBound <= Int(UInt32.max) {
        narrow.append(
          UInt64(truncatingIfNeeded: range.lowerBound) | UInt64(truncatingIfNeeded: range.upperBound) &<< 32)
        return
      }
      widen()
    }
    wide.append(range)
  }

  /// Room for `count` ranges in all.
  mutating func reserveCapacity(_ count: Int) {
    if isWide { wide.reserveCapacity(count) } else { narrow.reserveCapacity(count) }
  }

  /// The first `count` ranges, in a list of their own.
  func leading(_ count: Int) -> SpanList {
    var list = SpanList()
    list.isWide = isWide
    if isWide { list.wide = Array(wide[..<count]) } else { list.narrow = Array(narrow[..<count]) }
    return list
  }

  @inline(never)
  private mutating func widen() {
    wide.reserveCapacity(Swift.max(narrow.capacity, narrow.count + 1))
    for index in narrow.indices { wide.append(self[index]) }
    narrow = []
    isWide = true
  }

  static func == (lhs: SpanList, rhs: SpanList) -> Bool { lhs.elementsEqual(rhs) }
}
