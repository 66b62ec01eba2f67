/// The journal's bytes: a magic line, then records, each
///
///     length (UInt32 LE) · checksum (UInt32 LE, CRC-32 of sequence + payload)
///     · sequence (UInt64 LE) · payload (`length` bytes of compact JSON)
///
/// Sequence numbers count from 0 (the header) without gaps, so a record that
/// is whole but misplaced is caught too.
package enum JournalFraming {
  package static let magic = Array("RECSH-JOURNAL 1\n".utf8)
  static let recordHeaderSize = 16

  /// How much of a payload the record's CRC-32 covers: all of it, except for the start
  /// records (`JournalEntry.base`), whose records are checked by their content hash
  /// when needed: there it covers the mark, the hash's length and the hash.
  static func checkedLength(of payload: ArraySlice<UInt8>) -> Int {
    payload.withUnsafeBytes { checkedLength(of: $0) }
  }

  /// `checkedLength` of a payload's bytes where they are.
  static func checkedLength(of payload: UnsafeRawBufferPointer) -> Int {
    guard payload.count >= 2, JournalEntry.isBase(payload[0]) else { return payload.count }
    return min(payload.count, 2 + Int(payload[1]))
  }

  package static func record(sequence: UInt64, payload: some Collection<UInt8>) -> [UInt8] {
    let all = Array(payload)
    return head(sequence: sequence, length: all.count, checked: all[..<checkedLength(of: all[...])]) + all
  }

  /// Fills in the checksum of the record that starts at `start` in `raw`, whose length,
  /// sequence and payload are in place (the buffer's in-place framing: `Journal.Pending`),
  /// as `record` makes it; returns where the record ends.
  static func fillChecksum(ofRecordAt start: Int, in raw: UnsafeMutableRawBufferPointer) -> Int {
    let length = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: start, as: UInt32.self)))
    let payload = start + recordHeaderSize
    let checked =
      payload + checkedLength(of: UnsafeRawBufferPointer(rebasing: raw[payload..<(payload + length)]))
    let crc = CRC32.checksum(UnsafeRawBufferPointer(rebasing: raw[(start + 8)..<checked]))
    raw.storeBytes(of: crc.littleEndian, toByteOffset: start + 4, as: UInt32.self)
    return payload + length
  }

  /// A record's 16 header bytes for a payload of `length` bytes whose first bytes are
  /// `checked` (what its CRC-32 covers, `checkedLength`): the one place a header is made
  /// apart from the buffer's in-place framing (`fillChecksum`, the same bytes).
  static func head(sequence: UInt64, length: Int, checked: ArraySlice<UInt8>) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: recordHeaderSize)
    bytes.withUnsafeMutableBytes { raw in
      raw.storeBytes(of: UInt32(truncatingIfNeeded: length).littleEndian, toByteOffset: 0, as: UInt32.self)
      raw.storeBytes(of: sequence.littleEndian, toByteOffset: 8, as: UInt64.self)
      let seeded = CRC32.checksum(UnsafeRawBufferPointer(rebasing: raw[8...]))
      let crc = checked.withUnsafeBytes { CRC32.checksum($0, startingWith: seeded) }
      raw.storeBytes(of: crc.littleEndian, toByteOffset: 4, as: UInt32.self)
    }
    return bytes
  }

  /// The records of a journal file, in order.
  package struct Contents: Equatable {
    /// Each record's payload, as a slice of the bytes read (no copy: a log keeps a copy of
    /// the data file, which may be hundreds of megabytes).
    package var payloads: [ArraySlice<UInt8>]
    /// Where each record ends (the offset just after it).
    var ends: [Int] = []
    /// Where the last good record ends: appending resumes here.
    package var validLength: Int
    /// Why bytes after `validLength` were dropped (a torn last record), if any.
    package var tornTail: String?
  }

  /// Reads every whole record. A damaged or incomplete LAST record is a torn
  /// write (a crash mid-append) and is dropped with a note; damage followed by
  /// more records is refused, never silently truncated.
  package static func read(_ bytes: [UInt8]) throws(JournalError) -> Contents {
    guard bytes.count >= magic.count, Array(bytes[0..<magic.count]) == magic else {
      if bytes.count < magic.count, bytes == Array(magic[0..<bytes.count]) {
        return Contents(
          payloads: [], ends: [], validLength: 0, tornTail: bytes.isEmpty ? nil : "an incomplete header")
      }
      throw .notAJournal
    }
    var offset = magic.count
    var payloads: [ArraySlice<UInt8>] = []
    var ends: [Int] = []
    while offset < bytes.count {
      let remaining = bytes.count - offset
      guard remaining >= recordHeaderSize else {
        return Contents(
          payloads: payloads, ends: ends, validLength: offset,
          tornTail: "an incomplete record of \(remaining) bytes")
      }
      let length = Int(littleEndian32(bytes, offset))
      let checksum = littleEndian32(bytes, offset + 4)
      let end = offset + recordHeaderSize + length
      guard end <= bytes.count else {
        if let next = nextRecord(after: offset, sequence: UInt64(payloads.count + 1), in: bytes) {
          throw .damaged(record: payloads.count, offset: offset, nextGood: next)
        }
        return Contents(
          payloads: payloads, ends: ends, validLength: offset, tornTail: "an incomplete last record")
      }
      // The checksum and sequence read in place: no copy but the payload's own.
      let checkedEnd = offset + 16 + checkedLength(of: bytes[(offset + 16)..<end])
      let (expected, sequence) = bytes.withUnsafeBytes { raw in
        (
          CRC32.checksum(UnsafeRawBufferPointer(rebasing: raw[(offset + 8)..<checkedEnd])),
          UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
        )
      }
      guard checksum == expected, sequence == UInt64(payloads.count) else {
        // Damage with a good record after it is damage in the middle: refused,
        // never truncated. Without one, it is the tail a crash tore.
        if let next = nextRecord(after: offset, sequence: UInt64(payloads.count + 1), in: bytes) {
          throw .damaged(record: payloads.count, offset: offset, nextGood: next)
        }
        return Contents(
          payloads: payloads, ends: ends, validLength: offset, tornTail: "a damaged last record")
      }
      let payload = bytes[(offset + 16)..<end]
      payloads.append(payload)
      ends.append(end)
      offset = end
    }
    return Contents(payloads: payloads, ends: ends, validLength: offset, tornTail: nil)
  }

  /// The offset of a whole, valid record numbered `sequence` after `offset`,
  /// searched byte by byte (a damaged length hides where it starts).
  static func nextRecord(after offset: Int, sequence: UInt64, in bytes: [UInt8]) -> Int? {
    var candidate = offset + 1
    while candidate + recordHeaderSize <= bytes.count {
      defer { candidate += 1 }
      var found: UInt64 = 0
      for index in 0..<8 { found |= UInt64(bytes[candidate + 8 + index]) << (8 * index) }
      guard found == sequence else { continue }
      let length = Int(littleEndian32(bytes, candidate))
      let end = candidate + recordHeaderSize + length
      guard end <= bytes.count else { continue }
      let payload = bytes[(candidate + 16)..<end]
      let checked = Array(payload.prefix(checkedLength(of: payload)))
      let crc = CRC32.checksum(
        checked, startingWith: CRC32.checksum(Array(bytes[(candidate + 8)..<(candidate + 16)])))
      if crc == littleEndian32(bytes, candidate + 4) { return candidate }
    }
    return nil
  }

  private static func littleEndian32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
    (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
  }
}

/// Why a journal cannot be used.
public enum JournalError: Error, Equatable, Sendable, Hashable {
  case notAJournal
  /// Record `record` (0 = the header) at byte `offset` is damaged, and a good
  /// record follows at `nextGood`.
  case damaged(record: Int, offset: Int, nextGood: Int)
  case badEntry(record: Int, reason: String)
  case baseMismatch
  case replayFailed(record: Int, reason: String)
  /// The log was written by a newer recsh (its format number).
  case newerFormat(Int)
  /// The log was written for another kind of records.
  case otherKind(String)
}

extension JournalError: CustomStringConvertible {
  public var description: String {
    switch self {
    case .notAJournal: "the journal file is not a recsh journal"
    case .damaged(let record, let offset, let next):
      "the journal is damaged at record \(record) (byte \(offset)), with good records after it (byte \(next)); "
        + "it was not applied"
    case .badEntry(let record, let reason): "journal record \(record) cannot be read: \(reason)"
    case .baseMismatch:
      "the journal was written for another version of the file (it was changed since); it was not applied"
    case .replayFailed(let record, let reason): "journal record \(record) does not apply: \(reason)"
    case .newerFormat(let format):
      "the journal is in format \(format), written by a newer recsh (this one reads up to \(JournalEntry.format))"
    case .otherKind(let kind): "the journal was written for records of kind \(kind)"
    }
  }
}
