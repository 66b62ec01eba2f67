import Testing

@Suite struct BinaryPlaceholderTests {
  @Test func placeholder() { #expect(1 + 1 == 2) }
}
