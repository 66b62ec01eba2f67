/// The exact value of a JSON number spelling, for the comparisons a schema makes.
///
/// `Double` would get them wrong: `9007199254740993` and `9007199254740992` are one double,
/// `1e400` is infinity, and `0.1` is not one tenth. Here the value is kept as a sign,
/// its significant digits and a decimal exponent, `±0.d₁d₂…dₙ × 10^exponent` with d₁ and
/// dₙ not zero, so `1`, `1.0`, `10e-1` and `0.1e1` are one value, and `-0` equals `0`.
/// Reading a spelling costs O(its length); comparing, O(the digits compared).
struct DecimalNumber: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// `false` for zero.
  let isNegative: Bool
  /// Digit values 0…9, the first and last not zero; empty for zero.
  let digits: [UInt8]
  /// The power of ten just above the first significant digit (0 for zero).
  let exponent: DecimalInteger

  /// The value of `spelling`, or `nil` if it is not a JSON number (`01`, `.5`, `NaN`).
  init?(_ spelling: String) {
    guard JSONValue.isValidNumberSpelling(spelling) else { return nil }
    var bytes = spelling.utf8[...]
    let isNegative = bytes.first == UInt8(ascii: "-")
    if isNegative { bytes = bytes.dropFirst() }
    var mantissa: [UInt8] = []
    var integerDigits = 0
    var seenPoint = false
    var exponentText = Substring().utf8
    scan: while let byte = bytes.first {
      bytes = bytes.dropFirst()
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        mantissa.append(byte - UInt8(ascii: "0"))
        if !seenPoint { integerDigits += 1 }
      case UInt8(ascii: "."):
        seenPoint = true
      default:  // `e` or `E`: the rest is the exponent
        exponentText = bytes
        break scan
      }
    }
    let leadingZeros = mantissa.prefix { $0 == 0 }.count
    let significant = mantissa.dropFirst(leadingZeros)
    let trailingZeros = significant.reversed().prefix { $0 == 0 }.count
    digits = Array(significant.dropLast(trailingZeros))
    self.isNegative = isNegative && !digits.isEmpty
    guard !digits.isEmpty else {
      exponent = DecimalInteger(0)
      return
    }
    let exponentIsNegative = exponentText.first == UInt8(ascii: "-")
    let exponentDigits = exponentText.drop { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") }
    let written = DecimalInteger(
      isNegative: exponentIsNegative, magnitude: exponentDigits.map { $0 - UInt8(ascii: "0") })
    exponent = written + DecimalInteger(integerDigits - leadingZeros)
  }

  var isZero: Bool { digits.isEmpty }

  /// The value of `spelling` when it is an integer written plainly (an optional `-`, then
  /// at most 18 digits, no fraction, no exponent), read without allocating: the common
  /// case of a number in a record, which checks and comparisons take this way first.
  @inline(__always)
  static func smallInteger(_ spelling: String) -> Int? {
    var utf8 = spelling.utf8[...]
    let negative = utf8.first == UInt8(ascii: "-")
    if negative { utf8 = utf8.dropFirst() }
    guard !utf8.isEmpty, utf8.count <= 18 else { return nil }
    // JSON allows no leading zero but in "0" itself.
    if utf8.count > 1, utf8.first == UInt8(ascii: "0") { return nil }
    var value = 0
    for byte in utf8 {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
    }
    return negative ? -value : value
  }

  /// Whether the value is a whole number, as JSON Schema's `integer` asks: `1.0` and `1e3` are.
  var isInteger: Bool { !(exponent < DecimalInteger(digits.count)) }

  /// A whole value that is not negative, as an `Int`; `Int.max` when it is larger.
  /// `nil` when the value is negative or not whole. For `minLength` and `maxLength`.
  var nonNegativeIntClamped: Int? {
    guard isInteger, !isNegative else { return nil }
    guard let places = exponent.intValue, places <= 18 else { return Int.max }
    var value = 0
    for place in 0..<places {
      value = value * 10 + Int(place < digits.count ? digits[place] : 0)
    }
    return value
  }

  /// A canonical spelling, `-0.123e4`: for debugging and test messages, never for files.
  var description: String {
    guard !isZero else { return "0" }
    let sign = isNegative ? "-" : ""
    let exponentText = (exponent.isNegative ? "-" : "") + exponent.magnitude.map(String.init).joined()
    return "\(sign)0.\(digits.map(String.init).joined())e\(exponentText.isEmpty ? "0" : exponentText)"
  }

  static func < (lhs: DecimalNumber, rhs: DecimalNumber) -> Bool {
    if lhs.isNegative != rhs.isNegative { return lhs.isNegative }
    let order = compareMagnitudes(lhs, rhs)
    return lhs.isNegative ? order == .orderedDescending : order == .orderedAscending
  }

  /// Compares absolute values: zero is smallest, then the larger exponent wins, then the digits.
  private static func compareMagnitudes(_ lhs: DecimalNumber, _ rhs: DecimalNumber) -> DecimalInteger.Order {
    if lhs.isZero || rhs.isZero {
      if lhs.isZero == rhs.isZero { return .orderedSame }
      return lhs.isZero ? .orderedAscending : .orderedDescending
    }
    if lhs.exponent != rhs.exponent {
      return lhs.exponent < rhs.exponent ? .orderedAscending : .orderedDescending
    }
    for (left, right) in zip(lhs.digits, rhs.digits) where left != right {
      return left < right ? .orderedAscending : .orderedDescending
    }
    if lhs.digits.count == rhs.digits.count { return .orderedSame }
    return lhs.digits.count < rhs.digits.count ? .orderedAscending : .orderedDescending
  }
}
