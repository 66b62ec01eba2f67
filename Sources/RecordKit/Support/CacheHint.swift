import CCacheHint

/// Hints to the processor that memory will soon be read, so that its cache lines are on
/// their way while other work runs: what a script's lines ahead use to warm their id
/// lookups (`Document.warmSlot(for:)`, `Document.warmRecord(for:)`). A hint reads
/// nothing, writes nothing and never faults, so an address that is stale by the time the
/// line comes (an index that grew, a record that moved) costs a wasted fetch, never a
/// wrong answer. O(cache lines of the span); no allocation.
enum CacheHint {
  /// The size of a cache line on the processors recsh runs on (x86-64 and arm64).
  static var lineSize: Int { 64 }

  /// Asks for every cache line that `count` instances of `T` from `start` touch (none for
  /// `count` 0).
  @inline(__always)
  static func read<T>(_ start: UnsafePointer<T>, count: Int = 1) {
    read(address: Int(bitPattern: start), byteCount: count * MemoryLayout<T>.stride)
  }

  /// Asks for every cache line that `byteCount` bytes from address `address` touch.
  @inline(__always)
  static func read(address: Int, byteCount: Int) {
    for line in lines(from: address, byteCount: byteCount) {
      recsh_prefetch_read(UInt(bitPattern: line))
    }
  }

  /// The addresses of the cache lines that `byteCount` bytes from address `start` touch,
  /// in order: none for `byteCount` 0.
  @inline(__always)
  static func lines(from start: Int, byteCount: Int) -> StrideTo<Int> {
    let first = start & ~(lineSize - 1)
    guard byteCount > 0 else { return stride(from: first, to: first, by: lineSize) }
    let last = (start + byteCount - 1) & ~(lineSize - 1)
    return stride(from: first, to: last + lineSize, by: lineSize)
  }
}
