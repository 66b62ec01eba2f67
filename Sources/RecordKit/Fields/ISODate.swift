/// An ISO 8601 date (`2026-12-01`) or date-time (`2026-12-01T09:30:00Z`),
/// kept as spelled.
///
/// The spelling is the value: a file's `2026-12-01` must not come back as a
/// date-time, so nothing here converts through `Foundation.Date`. Validation is
/// strict about the calendar (no February 30) and the shape:
/// `YYYY-MM-DD[THH:MM[:SS[.fraction]][Z|±HH:MM]]`.
///
/// Held in 9 bytes with no allocation for every spelling but one with a fraction of a
/// second: its numbers and the shape of its time and offset, packed into a `UInt64`
/// (`Packed`), from which the spelling is written again digit for digit, so it is the
/// same bytes. A spelling with a fraction is kept as a `String` behind a reference (the
/// fraction's digits are not bounded). Since every spelling that packs is packed, two
/// dates are equal exactly when their spellings are.
public struct ISODate: Hashable, Sendable {
  private let storage: Storage

  private enum Storage: Hashable, Sendable {
    case packed(Packed)
    case spelled(Spelled)
  }

  /// A spelling with a fraction of a second.
  private final class Spelled: Hashable, Sendable {
    let text: String
    init(_ text: String) { self.text = text }
    static func == (a: Spelled, b: Spelled) -> Bool { a.text == b.text }
    func hash(into hasher: inout Hasher) { hasher.combine(text) }
  }

  public init?(_ spelling: String) {
    var text = spelling
    switch text.withUTF8({ Self.read($0) }) {
    case nil: return nil
    case .packed(let packed)?: storage = .packed(packed)
    case .fraction?: storage = .spelled(Spelled(spelling))
    }
  }

  /// The date as spelled. Allocates for a date-time (over 15 bytes); `withUTF8` does not.
  var spelling: String {
    switch storage {
    case .packed(let packed): packed.withUTF8 { String(decoding: $0, as: UTF8.self) }
    case .spelled(let spelled): spelled.text
    }
  }

  /// Calls `body` with the spelling's UTF-8 bytes (on the stack for a packed date).
  func withUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
    switch storage {
    case .packed(let packed): return try packed.withUTF8(body)
    case .spelled(let spelled):
      var text = spelled.text
      return try text.withUTF8(body)
    }
  }

  /// Whether the spelling has a time part.
  var hasTime: Bool {
    switch storage {
    case .packed(let packed): packed.timeForm != 0
    case .spelled: true
    }
  }

  /// A spelling's fields, each in its bits of a `UInt64` (from bit 0): year 14 bits, month
  /// 4, day 5; the time's form 2 (none, `HH:MM`, `HH:MM:SS`), hour 5, minute 6, second 6;
  /// the offset's form 2 (none, `Z`, `+`, `-`), its hours 5 and minutes 6.
  struct Packed: Hashable, Sendable {
    let bits: UInt64

    /// Each field's (low bit, width), in the order above: constants, not stored globals (a
    /// global's first use is checked at every use).
    private static var year: (Int, Int) { (0, 14) }
    private static var month: (Int, Int) { (14, 4) }
    private static var day: (Int, Int) { (18, 5) }
    private static var time: (Int, Int) { (23, 2) }
    private static var hour: (Int, Int) { (25, 5) }
    private static var minute: (Int, Int) { (30, 6) }
    private static var second: (Int, Int) { (36, 6) }
    private static var zone: (Int, Int) { (42, 2) }
    private static var zoneHour: (Int, Int) { (44, 5) }
    private static var zoneMinute: (Int, Int) { (49, 6) }

    init(
      year: Int, month: Int, day: Int, timeForm: Int, hour: Int, minute: Int, second: Int, zoneForm: Int,
      zoneHour: Int, zoneMinute: Int
    ) {
      var bits: UInt64 = 0
      func put(_ value: Int, _ field: (Int, Int)) {
        assert(value >= 0 && value < 1 << field.1, "a date's field in its bits")
        bits |= UInt64(value) << field.0
      }
      put(year, Self.year)
      put(month, Self.month)
      put(day, Self.day)
      put(timeForm, Self.time)
      put(hour, Self.hour)
      put(minute, Self.minute)
      put(second, Self.second)
      put(zoneForm, Self.zone)
      put(zoneHour, Self.zoneHour)
      put(zoneMinute, Self.zoneMinute)
      self.bits = bits
    }

    private func value(_ field: (Int, Int)) -> Int { Int((bits >> field.0) & ((1 << field.1) - 1)) }

    var timeForm: Int { value(Self.time) }

    /// Calls `body` with the spelling written again, at most 25 bytes, on the stack.
    func withUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
      try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
        var count = 0
        func digits(_ value: Int, _ width: Int) {
          var value = value
          for index in stride(from: count + width - 1, through: count, by: -1) {
            buffer[index] = UInt8(ascii: "0") + UInt8(value % 10)
            value /= 10
          }
          count += width
        }
        func byte(_ character: Unicode.Scalar) {
          buffer[count] = UInt8(ascii: character)
          count += 1
        }
        digits(value(Self.year), 4)
        byte("-")
        digits(value(Self.month), 2)
        byte("-")
        digits(value(Self.day), 2)
        let form = timeForm
        if form > 0 {
          byte("T")
          digits(value(Self.hour), 2)
          byte(":")
          digits(value(Self.minute), 2)
          if form == 2 {
            byte(":")
            digits(value(Self.second), 2)
          }
          switch value(Self.zone) {
          case 1: byte("Z")
          case 2, 3:
            byte(value(Self.zone) == 2 ? "+" : "-")
            digits(value(Self.zoneHour), 2)
            byte(":")
            digits(value(Self.zoneMinute), 2)
          default: break
          }
        }
        return try body(UnsafeBufferPointer(rebasing: buffer[..<count]))
      }
    }
  }

  /// What a valid spelling holds: its packed form, or a fraction of a second.
  private enum Reading {
    case packed(Packed)
    case fraction
  }

  /// Reads a spelling: `nil` when it is no valid date.
  private static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> Reading? {
    var scanner = DigitScanner(bytes: bytes)
    guard let year = scanner.number(digits: 4), scanner.take("-"),
      let month = scanner.number(digits: 2), scanner.take("-"),
      let day = scanner.number(digits: 2),
      (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day)
    else { return nil }
    func packed(
      time: Int = 0, hour: Int = 0, minute: Int = 0, second: Int = 0, zone: Int = 0, zoneHour: Int = 0,
      zoneMinute: Int = 0
    ) -> Packed {
      Packed(
        year: year, month: month, day: day, timeForm: time, hour: hour, minute: minute, second: second,
        zoneForm: zone, zoneHour: zoneHour, zoneMinute: zoneMinute)
    }
    if scanner.atEnd { return .packed(packed()) }
    guard scanner.take("T"), let hour = scanner.number(digits: 2), hour < 24, scanner.take(":"),
      let minute = scanner.number(digits: 2), minute < 60
    else { return nil }
    var time = 1
    var second = 0
    var hasFraction = false
    if scanner.take(":") {
      guard let seconds = scanner.number(digits: 2), seconds < 61 else { return nil }
      (time, second) = (2, seconds)
      if scanner.take(".") {
        guard scanner.skipDigits() > 0 else { return nil }
        hasFraction = true
      }
    }
    var zone = 0
    var zoneHour = 0
    var zoneMinute = 0
    if scanner.take("Z") {
      zone = 1
    } else if !scanner.atEnd {
      let sign = scanner.take("+") ? 2 : scanner.take("-") ? 3 : 0
      guard sign > 0, let hours = scanner.number(digits: 2), hours < 24, scanner.take(":"),
        let minutes = scanner.number(digits: 2), minutes < 60
      else { return nil }
      (zone, zoneHour, zoneMinute) = (sign, hours, minutes)
    }
    guard scanner.atEnd else { return nil }
    if hasFraction { return .fraction }
    return .packed(
      packed(
        time: time, hour: hour, minute: minute, second: second, zone: zone, zoneHour: zoneHour,
        zoneMinute: zoneMinute))
  }

  private static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }
}

/// A cursor over ASCII bytes for the fixed-width fields of ISO dates.
private struct DigitScanner {
  let bytes: UnsafeBufferPointer<UInt8>
  var index = 0
  var atEnd: Bool { index == bytes.count }

  mutating func take(_ character: Unicode.Scalar) -> Bool {
    guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
    index += 1
    return true
  }

  mutating func number(digits: Int) -> Int? {
    guard index + digits <= bytes.count else { return nil }
    var value = 0
    for byte in bytes[index..<index + digits] {
      guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
    }
    index += digits
    return value
  }

  mutating func skipDigits() -> Int {
    let start = index
    while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
      index += 1
    }
    return index - start
  }
}

extension ISODate {
  /// How two dates compare, for filters and `sort`: negative, zero or positive.
  ///
  /// Two date-times compare as instants (their offsets applied, fractions of a second
  /// digit by digit). When either is a date only, the two compare by calendar day, the
  /// date-time's day as written: `due<=2026-12-01` takes the whole of that day, and
  /// `due=2026-12-01` any time on it. O(length of the spellings), no allocation.
  static func compare(_ a: ISODate, _ b: ISODate) -> Int {
    if a == b { return 0 }
    let bothHaveTime = a.hasTime && b.hasTime
    return a.withUTF8 { left in
      b.withUTF8 { right in
        guard bothHaveTime else {
          let (x, y) = (left.prefix(10), right.prefix(10))
          if x.elementsEqual(y) { return 0 }
          return x.lexicographicallyPrecedes(y) ? -1 : 1
        }
        let (x, y) = (instant(left), instant(right))
        if x.seconds != y.seconds { return x.seconds < y.seconds ? -1 : 1 }
        // Fractions: compare digit by digit, a missing digit being 0.
        let (f, g) = (x.fraction, y.fraction)
        for index in 0..<max(f.count, g.count) {
          let left = index < f.count ? f[f.startIndex + index] : UInt8(ascii: "0")
          let right = index < g.count ? g[g.startIndex + index] : UInt8(ascii: "0")
          if left != right { return left < right ? -1 : 1 }
        }
        return 0
      }
    }
  }

  /// A date-time's spelling as whole seconds since 1970-01-01T00:00:00Z (its offset
  /// applied; no offset is read as UTC) and the digits of its fraction of a second.
  private static func instant(
    _ bytes: UnsafeBufferPointer<UInt8>
  ) -> (seconds: Int64, fraction: Slice<UnsafeBufferPointer<UInt8>>) {
    func number(_ start: Int, _ count: Int) -> Int64 {
      var value: Int64 = 0
      for byte in bytes[start..<start + count] { value = value * 10 + Int64(byte - UInt8(ascii: "0")) }
      return value
    }
    let days = daysSinceEpoch(year: number(0, 4), month: number(5, 2), day: number(8, 2))
    var seconds = days * 86400 + number(11, 2) * 3600 + number(14, 2) * 60
    var index = 16
    var fraction = bytes[0..<0]
    if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
      seconds += number(17, 2)
      index = 19
      if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
        var end = index + 1
        while end < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) { end += 1 }
        fraction = bytes[(index + 1)..<end]
        index = end
      }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
      let offset = number(index + 1, 2) * 3600 + number(index + 4, 2) * 60
      seconds -= bytes[index] == UInt8(ascii: "+") ? offset : -offset
    }
    return (seconds, fraction)
  }

  /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's civil algorithm).
  private static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146097 + dayOfEra - 719468
  }
}
