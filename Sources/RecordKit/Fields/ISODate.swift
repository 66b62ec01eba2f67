/// An ISO 8601 date (`2026-12-01`) or date-time (`2026-12-01T09:30:00Z`),
/// kept as spelled.
///
/// The spelling is the value: a file's `2026-12-01` must not come back as a
/// date-time, so nothing here converts through `Foundation.Date`. Validation is
/// strict about the calendar (no February 30) and the shape:
/// `YYYY-MM-DD[THH:MM[:SS[.fraction]][Z|±HH:MM]]`.
public struct ISODate: Equatable, Hashable, Sendable {
  public let spelling: String

  public init?(_ spelling: String) {
    guard Self.isValid(Array(spelling.utf8)) else { return nil }
    self.spelling = spelling
  }

  /// Whether the spelling has a time part.
  public var hasTime: Bool { spelling.utf8.count > 10 }

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
