import Testing

@testable import RecordKit

@Suite struct JSONObjectTests {
  @Test func settingAnExistingKeyReplacesInPlaceAndNilRemoves() {
    var object = JSONObject(["a": .number("1"), "b": .string("x")])
    object["a"] = .bool(true)
    object["c"] = .null
    #expect(object.keys == ["a", "b", "c"])
    object["b"] = nil
    #expect(object.keys == ["a", "c"])
    #expect(object["a"] == .bool(true))
  }
}
