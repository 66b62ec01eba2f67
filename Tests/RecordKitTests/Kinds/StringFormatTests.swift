import Testing

@testable import RecordKit

/// `StringFormat`: cases beyond the official suite's examples (IPv6 literals, offsets).
@Suite struct StringFormatTests {
  static let formats: [(StringFormat, String, Bool)] = [
    (.date, "2026-12-01", true),
    (.date, "2026-12-1", false),
    (.dateTime, "2026-12-01T09:30:00.5-01:00", true),
    (.dateTime, "2026-12-01T09:30:00", false),
    (.dateTime, "2026-12-31T23:59:60Z", true),
    (.dateTime, "2026-12-31T22:59:60-01:00", true),
    (.email, "a.b+c@example.co.uk", true),
    (.email, "a@-example.com", false),
    (.email, "a@[IPv6:2001:db8::1]", true),
    (.email, "a@[IPv6:2001:db8::1::2]", false),
    (.email, "a@[IPv6::2001:db8::1]", false),
    (.email, "a@[IPv6:1:2:3:4:5:6:7:8]", true),
    (.email, "a@[IPv6:1:2:3:4:5:6:1.2.3.4]", true),
    (.email, "a@[IPv6:1:2:3:4:5:6:7]", false),
    (.email, "\"\"@example.com", false),
  ]

  @Test(arguments: formats)
  func formatsAreCheckedBeyondTheSuitesExamples(_ format: StringFormat, _ text: String, _ admitted: Bool) {
    #expect(format.admits(text) == admitted)
  }
}
