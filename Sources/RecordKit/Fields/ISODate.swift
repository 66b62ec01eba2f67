/// An ISO 8601 date (`2026-12-01`) or date-time (`2026-12-01T09:30:00Z`),
/// kept as spelled.
///
/// The spelling is the value: a file's `2026-12-01` must not come back as a
/// date-time, so nothing here converts through `Foundation.Date`. Validation is
/// strict about the calendar (no February 30) and the shape:
/// `YYYY-MM-DD[THH:MM[:SS[.fraction]][Z|±HH:MM]]`.
public struct ISODate: Equatable, Hashable, Sendable {
  let spelling: String

  public init?(_ spelling: String) {
    guard Self.isValid(Array(spelling.utf8)) else { return nil }
    self.spelling = spelling
  }

  /// Whether the spelling has a time part.
  var hasTime: Bool { spelling.utf8.count > 10 }

  private static func isValid(_ bytes: [UInt8]) -> Bool {
    var scanner = DigitScanner(bytes: bytes)
    guard let year = scanner.number(digits: 4), scanner.take("-"),
      let month = scanner.number(digits: 2), scanner.take("-"),
      let day = scanner.number(digits: 2),
      (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day)
    else { return false }
    if scanner.atEnd { return true }
    guard scanner.take("T"), let hour = scanner.number(digits: 2), hour < 24, scanner.take(":"),
      let minute = scanner.number(digits: 2), minute < 60
    else { return false }
    if scanner.take(":") {
      guard let second = scanner.number(digits: 2), second < 61 else { return false }
      if scanner.take(".") {
        guard scanner.skipDigits() > 0 else { return false }
      }
    }
    if scanner.atEnd || scanner.take("Z") { return scanner.atEnd }
    guard scanner.take("+") || scanner.take("-"), let zoneHour = scanner.number(digits: 2), zoneHour < 24,
      scanner.take(":"), let zoneMinute = scanner.number(digits: 2), zoneMinute < 60
    else { return false }
    return scanner.atEnd
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
  let bytes: [UInt8]
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
    if a.spelling == b.spelling { return 0 }
    guard a.hasTime, b.hasTime else {
      let left = a.spelling.utf8.prefix(10)
      let right = b.spelling.utf8.prefix(10)
      if left.elementsEqual(right) { return 0 }
      return left.lexicographicallyPrecedes(right) ? -1 : 1
    }
    let (x, y) = (a.instant, b.instant)
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

  /// A date-time as whole seconds since 1970-01-01T00:00:00Z (its offset applied; no
  /// offset is read as UTC) and the digits of its fraction of a second.
  private var instant: (seconds: Int64, fraction: ArraySlice<UInt8>) {
    let bytes = Array(spelling.utf8)
    func number(_ start: Int, _ count: Int) -> Int64 {
      var value: Int64 = 0
      for byte in bytes[start..<start + count] { value = value * 10 + Int64(byte - UInt8(ascii: "0")) }
      return value
    }
    let days = Self.daysSinceEpoch(year: number(0, 4), month: number(5, 2), day: number(8, 2))
    var seconds = days * 86400 + number(11, 2) * 3600 + number(14, 2) * 60
    var index = 16
    var fraction: ArraySlice<UInt8> = []
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
