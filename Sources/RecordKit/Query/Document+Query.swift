extension Document {
  /// The positions of the records that pass every matcher, ascending: one pass over the
  /// records, each read in place, stopping at the first matcher it fails.
  public func positions(matching matchers: [RecordMatcher<Root>]) -> [Int] {
    records.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return [] }
      var found: [Int] = []
      for position in buffer.indices {
        let record = base + position
        if matchers.allSatisfy({ $0.matches(record) }) { found.append(position) }
      }
      return found
    }
  }

  /// How many records pass every matcher, without listing them. One and two matchers
  /// (the common cases) are tested without a loop over the matchers.
  public func count(matching matchers: [RecordMatcher<Root>]) -> Int {
    records.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return 0 }
      var count = 0
      switch matchers.count {
      case 0: count = buffer.count
      case 1:
        let first = matchers[0]
        for position in buffer.indices where first.matches(base + position) { count &+= 1 }
      case 2:
        let (first, second) = (matchers[0], matchers[1])
        for position in buffer.indices where first.matches(base + position) && second.matches(base + position)
        {
          count &+= 1
        }
      default:
        for position in buffer.indices where matchers.allSatisfy({ $0.matches(base + position) }) {
          count &+= 1
        }
      }
      return count
    }
  }

  /// `positions` ordered by `keys` (the first decides, the next break its ties, and so
  /// on; ties left keep their order: the sort is stable). O(n log n) comparisons.
  public func sorted(_ positions: [Int], by keys: [(order: RecordOrder<Root>, descending: Bool)]) -> [Int] {
    guard !keys.isEmpty else { return positions }
    return records.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return positions }
      // Stable: the position itself breaks the last tie.
      return positions.sorted { a, b in
        for key in keys {
          let order = key.order(base + a, base + b, descending: key.descending)
          if order != 0 { return order < 0 }
        }
        return a < b
      }
    }
  }
}
