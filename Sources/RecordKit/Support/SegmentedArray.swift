/// An array kept as a list of fixed-size segments (4,096 elements each): what the undo
/// history keeps per step, so that a long history grows without copies.
///
/// Why not `Array`: an array that outgrows its buffer copies every element into one twice
/// the size, and for that moment holds both, so a history of a million steps peaks at about
/// 1.3x what it keeps (the measured memory per step counted that peak). Here a full segment
/// is never moved: appending allocates a new segment (O(1)), and removing from the front
/// (the history dropping its oldest steps) frees whole segments. Copies share segments
/// (each is an `Array`, copied on write), so a copy that then appends copies the directory
/// of segments (one word per 4,096 elements) and the last segment, not the elements.
///
/// Indices are `0..<count`, always: removing from the front renumbers the rest, as
/// `Array.removeFirst` does.
///
/// The last, unfilled segment stands apart from the directory (`tail`), so that an append
/// is one array's append, not an append to an array reached through another (the history
/// appends to several of these for every step it keeps).
struct SegmentedArray<Element> {
  /// log2 of the elements in a segment.
  static var segmentShift: Int { 12 }
  static var segmentSize: Int { 1 << segmentShift }

  /// The full segments, oldest first.
  private(set) var segments: [[Element]] = []
  /// The segment after them, not full (empty when the elements end at a segment's end).
  private var tail: [Element] = []
  /// How many elements at the front of the first segment (the tail when there is no full
  /// segment) were removed (below `segmentSize`).
  private(set) var head = 0
  /// How many elements there are.
  private(set) var count = 0

  init() {}

  init(_ elements: some Sequence<Element>) {
    for element in elements { append(element) }
  }

  /// Appends `element`, moved in (a caller that passes its last use of a value retains
  /// nothing). O(1); allocates a segment every `segmentSize` elements.
  @inline(__always)
  mutating func append(_ element: consuming Element) {
    if tail.isEmpty { tail.reserveCapacity(Self.segmentSize) }
    tail.append(element)
    count += 1
    if tail.count == Self.segmentSize { fillSegment() }
  }

  /// The tail is full: it joins the directory, and the next append starts another.
  private mutating func fillSegment() {
    segments.append(tail)
    tail = []
  }

  /// Removes the first `k` elements (`k <= count`), freeing the segments they emptied. O(1)
  /// amortized per element (the directory moves once per segment freed).
  mutating func removeFirst(_ k: Int) {
    precondition(k >= 0 && k <= count, "removing more elements than a SegmentedArray holds")
    guard k < count else {
      removeAll()
      return
    }
    count -= k
    head += k
    // Some element is left, so the emptied segments are full ones.
    let emptied = head >> Self.segmentShift
    if emptied > 0 {
      segments.removeFirst(emptied)
      head &= Self.segmentSize - 1
    }
  }

  /// Removes the last `k` elements (`k <= count`). O(k).
  mutating func removeLast(_ k: Int = 1) {
    precondition(k >= 0 && k <= count, "removing more elements than a SegmentedArray holds")
    for _ in 0..<k {
      if tail.isEmpty { tail = segments.removeLast() }
      tail.removeLast()
      count -= 1
    }
    if count == 0 { removeAll() }
  }

  /// Removes every element and frees every segment.
  mutating func removeAll() {
    segments = []
    tail = []
    head = 0
    count = 0
  }
}

extension SegmentedArray: RandomAccessCollection, MutableCollection {
  var startIndex: Int { 0 }
  var endIndex: Int { count }

  /// The element at `index` (`0..<count`). O(1): one directory read and one segment read.
  subscript(index: Int) -> Element {
    get {
      precondition(index >= 0 && index < count, "SegmentedArray index out of range")
      let place = head + index
      let segment = place >> Self.segmentShift
      let offset = place & (Self.segmentSize - 1)
      return segment < segments.count ? segments[segment][offset] : tail[offset]
    }
    set {
      precondition(index >= 0 && index < count, "SegmentedArray index out of range")
      let place = head + index
      let segment = place >> Self.segmentShift
      let offset = place & (Self.segmentSize - 1)
      if segment < segments.count {
        segments[segment][offset] = newValue
      } else {
        tail[offset] = newValue
      }
    }
  }
}

extension SegmentedArray: Sendable where Element: Sendable {}
