/// Bad usage of a command line, with the option and the token it is about: printed with a
/// pointer to the help, exit status 2.
enum CommandLineError: Error, Equatable, CustomStringConvertible {
  /// `token` is not an option this command line knows.
  case unknownOption(token: String)
  /// `flag` (one letter) in a cluster of short flags (`-kx`) is not a flag this command
  /// line knows.
  case unknownFlag(Character, cluster: String)
  /// `option` came last, without its value.
  case missingValue(option: String)
  /// `option` takes no value, but was given one (`--echo=yes`).
  case unexpectedValue(option: String, token: String)
  /// `option` (one that counts once) was given a second time.
  case givenTwice(option: String)
  /// A choice option's value is none of its choices.
  case unknownChoice(option: String, noun: String, value: String, listed: String)
  /// A count option's value is not a whole number ≥ 0.
  case notACount(option: String, meaning: String, value: String)
  /// Two options that exclude each other were both given.
  case exclusive(String, String)
  /// The shell was given a second data file.
  case secondFile(first: String, second: String)
  /// A subcommand was given the wrong number of operands; `expected` says what it takes.
  case operands(subcommand: String, expected: String)

  var description: String {
    switch self {
    case .unknownOption(let token): "unknown option \"\(token)\""
    case .unknownFlag(let flag, let cluster): "unknown option -\(flag) in \"\(cluster)\""
    case .missingValue(let option): "\(option) needs a value"
    case .unexpectedValue(let option, let token): "\(option) takes no value, but was given \"\(token)\""
    case .givenTwice(let option): "\(option) is given twice"
    case .unknownChoice(_, let noun, let value, let listed):
      "unknown \(noun) \"\(value)\"; the \(noun)s are \(listed)"
    case .notACount(let option, let meaning, let value): "\(option) needs \(meaning), not \"\(value)\""
    case .exclusive(let first, let second): "\(first) and \(second) cannot be used together"
    case .secondFile(let first, let second): "one data file at most; got \"\(first)\" and \"\(second)\""
    case .operands(let subcommand, let expected): "'\(subcommand)' takes \(expected)"
    }
  }
}
