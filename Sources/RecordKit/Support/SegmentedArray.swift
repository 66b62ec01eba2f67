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
struct SegmentedArray<Element> {
  /// log2 of the elements in a segment.
  static var segmentShift: Int { 12 }
  static var segmentSize: Int { 1 << segmentShift }

  /// The segments, oldest first; every one but the last is full, the last is not empty.
  private(set) var segments: [[Element]] = []
  /// How many elements at the front of the first segment were removed (below `segmentSize`).
  private(set) var head = 0
  /// How many elements there are.
  private(set) var count = 0

  init() {}

  init(_ elements: some Sequence<Element>) {
    for element in elements { append(element) }
  }

  /// Appends `element`. O(1); allocates a segment every `segmentSize` elements.
  mutating func append(_ element: Element) {
    let place = head + count
    if place & (Self.segmentSize - 1) == 0 {
      var segment: [Element] = []
      segment.reserveCapacity(Self.segmentSize)
      segment.append(element)
      segments.append(segment)
    } else {
      segments[segments.count - 1].append(element)
    }
    count += 1
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
      segments[segments.count - 1].removeLast()
      if segments[segments.count - 1].isEmpty { segments.removeLast() }
      count -= 1
    }
    if count == 0 { removeAll() }
  }

  /// Removes every element and frees every segment.
  mutating func removeAll() {
    segments = []
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
      return segments[place >> Self.segmentShift][place & (Self.segmentSize - 1)]
    }
    set {
      precondition(index >= 0 && index < count, "SegmentedArray index out of range")
      let place = head + index
      segments[place >> Self.segmentShift][place & (Self.segmentSize - 1)] = newValue
    }
  }
}

extension SegmentedArray: Sendable where Element: Sendable {}
