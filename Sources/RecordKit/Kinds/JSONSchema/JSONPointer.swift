/// A place inside a JSON document, as RFC 6901 writes it: `/properties/year/minimum`.
///
/// Schema errors name the keyword they are about with one, and violations name the part of
/// the checked value that breaks a rule (`/tags/2`), so a caller can find it in the file.
package struct JSONPointer: Hashable, Sendable, CustomStringConvertible {
  /// The reference tokens, unescaped: member names and array indices.
  var tokens: [String]

  init(_ tokens: [String] = []) {
    self.tokens = tokens
  }

  /// The whole document.
  static let root = JSONPointer()

  /// The pointer one level down, to member `token` (or to the element at index `token`).
  func appending(_ token: String) -> JSONPointer {
    JSONPointer(tokens + [token])
  }

  /// The pointer to element `index` of the array here.
  func appending(index: Int) -> JSONPointer {
    appending(String(index))
  }

  /// The pointer with `other`'s tokens after this one's.
  func appending(_ other: JSONPointer) -> JSONPointer {
    JSONPointer(tokens + other.tokens)
  }

  /// Whether `self` is `other` or inside it.
  func hasPrefix(_ other: JSONPointer) -> Bool {
    tokens.starts(with: other.tokens)
  }

  /// The RFC 6901 form, `~` and `/` in tokens escaped as `~0` and `~1`; `/` for the root,
  /// which reads better in a message than RFC 6901's empty string.
  package var description: String {
    guard !tokens.isEmpty else { return "/" }
    return tokens.map { "/" + $0.replacing("~", with: "~0").replacing("/", with: "~1") }.joined()
  }

  /// The pointer a URI fragment holds (`#/$defs/a%20b`, without the `#`): percent-decoded,
  /// then split at `/` and unescaped. `nil` when it is not one: a bad `%` escape, a `~`
  /// not followed by `0` or `1`, or text that does not start with `/` (an anchor name).
  init?(uriFragment fragment: Substring) {
    guard let decoded = Self.percentDecoded(fragment) else { return nil }
    guard !decoded.isEmpty else {
      self.init()
      return
    }
    guard decoded.first == "/" else { return nil }
    var tokens: [String] = []
    for part in decoded.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
      guard let token = Self.unescaped(part) else { return nil }
      tokens.append(token)
    }
    self.init(tokens)
  }

  /// The value at this pointer in `document`, or `nil` when there is none.
  package func value(in document: JSONValue) -> JSONValue? {
    var current = document
    for token in tokens {
      switch current {
      case .object(let object):
        guard let member = object.members.first(where: { $0.key.utf8.elementsEqual(token.utf8) }) else {
          return nil
        }
        current = member.value
      case .array(let items):
        let isIndex = token.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        guard isIndex, token == "0" || token.first != "0",
          let index = Int(token), items.indices.contains(index)
        else { return nil }
        current = items[index]
      default:
        return nil
      }
    }
    return current
  }

  private static func unescaped(_ part: Substring) -> String? {
    var result = ""
    var iterator = part.makeIterator()
    while let character = iterator.next() {
      guard character == "~" else {
        result.append(character)
        continue
      }
      switch iterator.next() {
      case "0": result.append("~")
      case "1": result.append("/")
      default: return nil
      }
    }
    return result
  }

  private static func percentDecoded(_ text: Substring) -> String? {
    var bytes: [UInt8] = []
    var iterator = text.utf8.makeIterator()
    while let byte = iterator.next() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
        return nil
      }
      bytes.append(high << 4 | low)
    }
    let decoded = String(decoding: bytes, as: UTF8.self)
    return decoded.utf8.elementsEqual(bytes) ? decoded : nil
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
