import RecordKit

extension Array {
  func pick<G: RandomNumberGenerator>(using generator: inout G) -> Element {
    self[generator.int(count)]
  }
}

extension RandomNumberGenerator {
  /// A number in `0..<upperBound`.
  mutating func int(_ upperBound: Int) -> Int {
    Int(next(upperBound: UInt64(upperBound)))
  }
}
