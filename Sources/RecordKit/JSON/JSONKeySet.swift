/// The keys of one object read so far, for refusing duplicates.
///
/// Keys live in the reader's shared `keyStack` (this object's from `base` up), so that
/// checking a record's keys allocates nothing; nested objects push above and pop their
/// own. Keys are compared by their UTF-8 bytes, not by Swift's `==` alone, which treats
/// `"é"` (NFC) and `"e\u0301"` (NFD) as equal while JSON and the file hold two keys.
/// Records have a handful of keys, so a linear scan serves; a hashed set takes over
/// for big objects so that they stay linear.
struct JSONKeySet {
  private let base: Int
  private var hashed: Set<UTF8Key>?
  /// One bit per class of key (byte count and first byte) seen so far: a key whose bit
  /// is clear cannot be a duplicate, so most keys skip the scan altogether.
  private var classes: UInt64 = 0
  /// Past this many keys an object's keys are hashed rather than scanned.
  static let scanLimit = 16

  /// A key's class: one bit of 64 chosen by its byte count and first byte. Two keys of
  /// different classes differ, so a key whose class no earlier key had needs no scan.
  @inline(__always)
  static func keyClass(count: Int, first: UInt8) -> UInt64 {
    1 &<< UInt64(truncatingIfNeeded: count &* 7 &+ Int(first))
  }

  init(base: Int) {
    self.base = base
  }

  /// Adds `key` to `stack`; false when this object already has it.
  mutating func insert(_ key: String, into stack: inout [String]) -> Bool {
    if var set = hashed {
      hashed = nil
      defer { hashed = set }
      return set.insert(UTF8Key(key)).inserted
    }
    let utf8 = key.utf8
    let keyClass = Self.keyClass(count: utf8.count, first: utf8.first ?? 0)
    if classes & keyClass != 0 {
      for index in base..<stack.count where JSONValue.sameBytes(stack[index], key) {
        return false
      }
    }
    classes |= keyClass
    stack.append(key)
    if stack.count - base > Self.scanLimit {
      hashed = Set(stack[base...].map(UTF8Key.init))
    }
    return true
  }

  /// Pops this object's keys when it ends.
  func removeAll(from stack: inout [String]) {
    stack.removeSubrange(base...)
  }

  private struct UTF8Key: Hashable {
    let string: String

    init(_ string: String) { self.string = string }

    static func == (lhs: UTF8Key, rhs: UTF8Key) -> Bool {
      JSONValue.sameBytes(lhs.string, rhs.string)
    }

    func hash(into hasher: inout Hasher) {
      for byte in string.utf8 { hasher.combine(byte) }
    }
  }
}
