/// The keys of one object seen so far, compared by their UTF-8 bytes.
///
/// Not `Set<String>`: Swift compares strings by canonical equivalence, so `"é"` (NFC)
/// and `"e\u0301"` (NFD) would count as one key, while JSON and the file hold two.
/// Records have a handful of keys, so a linear scan serves; a hashed set takes over
/// for big objects so that they stay linear.
struct JSONKeySet {
  private var keys: [String] = []
  private var hashed: Set<UTF8Key>?
  private static let scanLimit = 16

  /// Adds `key`; false when it was already there.
  mutating func insert(_ key: String) -> Bool {
    if var hashed {
      self.hashed = nil
      defer { self.hashed = hashed }
      return hashed.insert(UTF8Key(key)).inserted
    }
    for existing in keys where existing.utf8.elementsEqual(key.utf8) {
      return false
    }
    keys.append(key)
    if keys.count > Self.scanLimit {
      hashed = Set(keys.map(UTF8Key.init))
      keys = []
    }
    return true
  }

  private struct UTF8Key: Hashable {
    let string: String

    init(_ string: String) { self.string = string }

    static func == (lhs: UTF8Key, rhs: UTF8Key) -> Bool {
      lhs.string.utf8.elementsEqual(rhs.string.utf8)
    }

    func hash(into hasher: inout Hasher) {
      for byte in string.utf8 { hasher.combine(byte) }
    }
  }
}
