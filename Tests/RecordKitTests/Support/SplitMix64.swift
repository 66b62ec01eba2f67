/// A small seeded generator, so every random test can be replayed from its seed.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

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
