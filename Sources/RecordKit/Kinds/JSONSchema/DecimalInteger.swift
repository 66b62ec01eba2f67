/// An integer of any size, as decimal digits: just what `DecimalNumber` needs for its
/// exponent, which a JSON spelling may write with any number of digits (`1e99999999999999999999`).
///
/// Made from an `Int` or from digits, added and compared; each costs O(number of digits).
struct DecimalInteger: Hashable, Sendable, Comparable {
  /// `false` for zero.
  let isNegative: Bool
  /// Digit values 0…9, most significant first, without leading zeros; empty for zero.
  let magnitude: [UInt8]

  /// The integer `value`.
  init(_ value: Int) {
    var rest = value.magnitude
    var digits: [UInt8] = []
    while rest > 0 {
      digits.append(UInt8(rest % 10))
      rest /= 10
    }
    self.init(isNegative: value < 0, magnitude: digits.reversed())
  }

  /// The integer with these digit values (0…9), most significant first; leading zeros are dropped.
  init(isNegative: Bool, magnitude: some Collection<UInt8>) {
    let digits = Array(magnitude.drop { $0 == 0 })
    self.isNegative = isNegative && !digits.isEmpty
    self.magnitude = digits
  }

  static func + (lhs: DecimalInteger, rhs: DecimalInteger) -> DecimalInteger {
    if lhs.isNegative == rhs.isNegative {
      return DecimalInteger(isNegative: lhs.isNegative, magnitude: add(lhs.magnitude, rhs.magnitude))
    }
    switch compareMagnitudes(lhs.magnitude, rhs.magnitude) {
    case .orderedSame:
      return DecimalInteger(0)
    case .orderedDescending:
      return DecimalInteger(
        isNegative: lhs.isNegative, magnitude: subtract(rhs.magnitude, from: lhs.magnitude))
    case .orderedAscending:
      return DecimalInteger(
        isNegative: rhs.isNegative, magnitude: subtract(lhs.magnitude, from: rhs.magnitude))
    }
  }

  static func < (lhs: DecimalInteger, rhs: DecimalInteger) -> Bool {
    if lhs.isNegative != rhs.isNegative { return lhs.isNegative }
    let order = compareMagnitudes(lhs.magnitude, rhs.magnitude)
    return lhs.isNegative ? order == .orderedDescending : order == .orderedAscending
  }

  /// The value as an `Int`, or `nil` when it does not fit.
  var intValue: Int? {
    var result = 0
    for digit in magnitude {
      let (times, overflow1) = result.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times.addingReportingOverflow(isNegative ? -Int(digit) : Int(digit))
      if overflow1 || overflow2 { return nil }
      result = sum
    }
    return result
  }

  enum Order { case orderedAscending, orderedSame, orderedDescending }

  /// Compares two magnitudes without leading zeros: the longer is larger, else the first digit
  /// that differs decides.
  static func compareMagnitudes(_ lhs: [UInt8], _ rhs: [UInt8]) -> Order {
    if lhs.count != rhs.count { return lhs.count < rhs.count ? .orderedAscending : .orderedDescending }
    for (left, right) in zip(lhs, rhs) where left != right {
      return left < right ? .orderedAscending : .orderedDescending
    }
    return .orderedSame
  }

  private static func add(_ lhs: [UInt8], _ rhs: [UInt8]) -> [UInt8] {
    var result: [UInt8] = []
    var carry: UInt8 = 0
    var left = lhs.reversed().makeIterator()
    var right = rhs.reversed().makeIterator()
    while true {
      let a = left.next()
      let b = right.next()
      if a == nil, b == nil { break }
      let sum = (a ?? 0) + (b ?? 0) + carry
      result.append(sum % 10)
      carry = sum / 10
    }
    if carry > 0 { result.append(carry) }
    return result.reversed()
  }

  /// `larger - smaller`, where `larger` is at least `smaller`.
  private static func subtract(_ smaller: [UInt8], from larger: [UInt8]) -> [UInt8] {
    var result: [UInt8] = []
    var borrow: Int = 0
    var right = smaller.reversed().makeIterator()
    for digit in larger.reversed() {
      var difference = Int(digit) - Int(right.next() ?? 0) - borrow
      borrow = difference < 0 ? 1 : 0
      if difference < 0 { difference += 10 }
      result.append(UInt8(difference))
    }
    return result.reversed()
  }
}
