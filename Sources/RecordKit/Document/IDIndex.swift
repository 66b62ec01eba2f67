/// Where each record is, by id: the index behind `Document`'s lookups.
///
/// Open addressing with linear probing over `Int32` positions, at most half full. The
/// ids are not kept here: a probe reads the id of the record a slot points to, and the
/// record is what the caller reads next anyway. A `[String: Int]` kept a second copy
/// of every id beside an `Int`, 24 bytes a bucket at most 3/4 full: 6.3 MB for 100k
/// records, a fifth of their file, where this takes 1 MB. Ids hash with the standard
/// library's `Hasher`, which is seeded per process, so no file can be made to collide.
///
/// Positions are `Int32`: two billion records would not fit in memory anyway.
struct IDIndex<Root: Record>: Sendable {
  private static var empty: Int32 { -1 }
  private var slots: [Int32]
  private(set) var count = 0

  /// An empty index with room for `capacity` ids before it grows.
  init(capacity: Int = 0) {
    slots = Array(repeating: Self.empty, count: Self.slotCount(for: capacity))
  }

  /// A power of two at least twice `count`.
  private static func slotCount(for count: Int) -> Int {
    var slots = 16
    while slots < count * 2 { slots *= 2 }
    return slots
  }

  private static func hash(_ id: String) -> Int {
    var hasher = Hasher()
    hasher.combine(id)
    return hasher.finalize()
  }

  /// The slot that holds `id`, or the empty slot where it would go.
  private func slot(of id: String, in records: UnsafeBufferPointer<Root>) -> (slot: Int, position: Int?) {
    slots.withUnsafeBufferPointer { slots in
      let mask = slots.count - 1
      var slot = Self.hash(id) & mask
      while true {
        let position = Int(slots[slot])
        if position < 0 { return (slot, nil) }
        if records[position].id == id { return (slot, position) }
        slot = (slot + 1) & mask
      }
    }
  }

  /// The position of the record with `id`.
  func position(of id: String, in records: UnsafeBufferPointer<Root>) -> Int? {
    slot(of: id, in: records).position
  }

  /// Adds the record at `position`, unless its id is already there: then returns that
  /// record's position and changes nothing. Every position in the index must be right
  /// for `records`.
  mutating func insert(position: Int, in records: UnsafeBufferPointer<Root>) -> Int? {
    if (count + 1) * 2 > slots.count { grow(in: records) }
    let found = slot(of: records[position].id, in: records)
    if let existing = found.position { return existing }
    slots[found.slot] = Int32(truncatingIfNeeded: position)
    count += 1
    return nil
  }

  /// Removes the record at `position` (which must be in the index).
  mutating func remove(position: Int, in records: UnsafeBufferPointer<Root>) {
    let found = slot(of: records[position].id, in: records)
    guard found.position != nil else { return }
    count -= 1
    // Backward-shift deletion: later slots of the probe run move into the hole when
    // their own probe would pass it, so no run is cut short and no tombstones build up.
    slots.withUnsafeMutableBufferPointer { slots in
      let mask = slots.count - 1
      var hole = found.slot
      var next = (hole + 1) & mask
      while slots[next] >= 0 {
        let home = Self.hash(records[Int(slots[next])].id) & mask
        // The entry at `next` may fill the hole unless its home lies after the hole,
        // up to `next` itself (cyclically).
        let homeAfterHole = hole <= next ? (home > hole && home <= next) : (home > hole || home <= next)
        if !homeAfterHole {
          slots[hole] = slots[next]
          hole = next
        }
        next = (next + 1) & mask
      }
      slots[hole] = Self.empty
    }
  }

  /// Adds `delta` to every position from `start` on: records moved by an insert or a removal.
  mutating func shiftPositions(from start: Int, by delta: Int32) {
    let start = Int32(truncatingIfNeeded: start)
    slots.withUnsafeMutableBufferPointer { slots in
      for index in slots.indices where slots[index] >= start { slots[index] &+= delta }
    }
  }

  /// Twice the slots, every record placed again.
  private mutating func grow(in records: UnsafeBufferPointer<Root>) {
    var grown = IDIndex(capacity: max(count + 1, slots.count))
    slots.withUnsafeBufferPointer { slots in
      for position in slots where position >= 0 {
        let found = grown.slot(of: records[Int(position)].id, in: records)
        grown.slots[found.slot] = position
      }
    }
    grown.count = count
    self = grown
  }
}
