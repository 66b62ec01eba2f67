/// The `email` format: an RFC 5321 `Mailbox`, `Local-part "@" ( Domain / address-literal )`.
extension StringFormat {
  static func isEmail(_ bytes: [UInt8]) -> Bool {
    guard let at = localPartEnd(bytes[...]), at <= 64, at < bytes.count, bytes[at] == UInt8(ascii: "@")
    else { return false }
    let domain = bytes[(at + 1)...]
    guard !domain.isEmpty, domain.count <= 255 else { return false }
    if domain.first == UInt8(ascii: "["), domain.last == UInt8(ascii: "]") {
      return isAddressLiteral(domain.dropFirst().dropLast())
    }
    return isHostName(domain)
  }

  /// The index just past the local part at the start of `bytes` (a dot-atom or a
  /// quoted string), or `nil` when there is none.
  private static func localPartEnd(_ bytes: ArraySlice<UInt8>) -> Int? {
    if bytes.first == UInt8(ascii: "\"") {
      var index = bytes.startIndex + 1
      while index < bytes.endIndex {
        let byte = bytes[index]
        if byte == UInt8(ascii: "\"") { return index > bytes.startIndex + 1 ? index + 1 : nil }
        if byte == UInt8(ascii: "\\") {
          guard index + 1 < bytes.endIndex, (32...126).contains(bytes[index + 1]) else { return nil }
          index += 2
        } else {
          guard (32...126).contains(byte) else { return nil }
          index += 1
        }
      }
      return nil
    }
    let atom = bytes.prefix { isAtomText($0) || $0 == UInt8(ascii: ".") }
    let parts = atom.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    guard !atom.isEmpty, parts.allSatisfy({ !$0.isEmpty }) else { return nil }
    return atom.endIndex
  }

  /// RFC 5322 `atext`: letters, digits and ``!#$%&'*+-/=?^_`{|}~``.
  private static func isAtomText(_ byte: UInt8) -> Bool {
    isLetterOrDigit(byte) || "!#$%&'*+-/=?^_`{|}~".utf8.contains(byte)
  }

  private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
      || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
      || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }

  /// Dot-separated labels of letters, digits and inner hyphens, each 1–63 long.
  private static func isHostName(_ bytes: ArraySlice<UInt8>) -> Bool {
    bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).allSatisfy { label in
      guard let first = label.first, let last = label.last, label.count <= 63 else { return false }
      return isLetterOrDigit(first) && isLetterOrDigit(last)
        && label.allSatisfy { isLetterOrDigit($0) || $0 == UInt8(ascii: "-") }
    }
  }

  private static func isAddressLiteral(_ bytes: ArraySlice<UInt8>) -> Bool {
    let prefix = "IPv6:".utf8
    if bytes.starts(with: prefix) { return isIPv6(bytes.dropFirst(prefix.count)) }
    return isIPv4(bytes)
  }

  /// Four decimal numbers 0–255 separated by dots.
  static func isIPv4(_ bytes: ArraySlice<UInt8>) -> Bool {
    let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    return parts.count == 4
      && parts.allSatisfy { part in
        guard (1...3).contains(part.count), let value = number(part, digits: part.count) else { return false }
        return value <= 255
      }
  }

  /// Eight groups of 1–4 hex digits, or fewer with one `::`; the last two may be an IPv4 address.
  private static func isIPv6(_ bytes: ArraySlice<UInt8>) -> Bool {
    var groups = bytes.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
    var expected = 8
    if let last = groups.last, last.contains(UInt8(ascii: ".")) {
      guard isIPv4(last) else { return false }
      groups.removeLast()
      expected = 6
    }
    let text = Array(bytes)
    let compressions = zip(text, text.dropFirst()).filter {
      $0 == UInt8(ascii: ":") && $1 == UInt8(ascii: ":")
    }
    guard compressions.count <= 1 else { return false }
    let colon = UInt8(ascii: ":")
    let strayColon =
      (text.first == colon && text.dropFirst().first != colon)
      || (text.last == colon && text.dropLast().last != colon)
    guard !strayColon else { return false }
    if compressions.count == 1 {
      let filled = groups.filter { !$0.isEmpty }
      return filled.count < expected && filled.allSatisfy(isHexGroup)
    }
    return groups.count == expected && groups.allSatisfy(isHexGroup)
  }

  private static func isHexGroup(_ group: ArraySlice<UInt8>) -> Bool {
    (1...4).contains(group.count) && group.allSatisfy { $0.isHexDigit }
  }
}

extension UInt8 {
  fileprivate var isHexDigit: Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
      || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
      || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
  }
}
