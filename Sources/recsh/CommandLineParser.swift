/// A command line read against its declaration (`CommandLineSpec`): the options given,
/// with their values as the argument's bytes, and the operands in order.
///
/// Options and operands may come in any order; `--` ends the options; `-` alone is an
/// operand; a long option's value follows it (`--kind task`) or an `=` (`--kind=task`); a
/// short one's follows it (`-c list`); short flags cluster (`-ke`). Values are checked as
/// their option declares (`OptionSpec.check`), repetition as it says, then the exclusive
/// pairs, then the operands' count. The arguments are bytes: option names and operands are
/// read as UTF-8 text, values are kept as given (a `-c` text need not be UTF-8).
struct ParsedCommandLine: Equatable {
  /// Each option given, with each value given to it in order (a flag: one empty value per
  /// time it was given).
  var values: [OptionKey: [[UInt8]]] = [:]
  var operands: [String] = []

  /// Whether `key` was given.
  func has(_ key: OptionKey) -> Bool { values[key] != nil }

  /// The value `key` was given last, as text.
  func text(_ key: OptionKey) -> String? {
    values[key]?.last.map { String(decoding: $0, as: UTF8.self) }
  }

  /// Every value `key` was given, in order, as bytes.
  func all(_ key: OptionKey) -> [[UInt8]] { values[key] ?? [] }

  /// `arguments` (argv after the program's name and the subcommand's) read as `spec`
  /// declares, or the first thing wrong with them. O(arguments × options).
  static func parse(_ arguments: [[UInt8]], as spec: CommandLineSpec) throws(CommandLineError) -> Self {
    var parsed = Self()
    var index = 0
    var optionsEnded = false
    func record(_ option: OptionSpec, _ value: [UInt8]) throws(CommandLineError) {
      if option.repetition == .once, parsed.has(option.key) { throw .givenTwice(option: option.displayName) }
      if option.value != nil { try option.check(String(decoding: value, as: UTF8.self)) }
      if option.repetition == .collect {
        parsed.values[option.key, default: []].append(value)
      } else {
        parsed.values[option.key] = [value]
      }
    }
    while index < arguments.count {
      let raw = arguments[index]
      let argument = String(decoding: raw, as: UTF8.self)
      index += 1
      if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
        parsed.operands.append(argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      var name = argument
      var inline: [UInt8]?
      if argument.hasPrefix("--"), let equals = raw.firstIndex(of: UInt8(ascii: "=")) {
        name = String(decoding: raw[..<equals], as: UTF8.self)
        inline = Array(raw[(equals + 1)...])
      }
      if let option = spec.option(spelled: name) {
        guard option.value != nil else {
          if inline != nil { throw .unexpectedValue(option: name, token: argument) }
          try record(option, [])
          continue
        }
        if let inline {
          try record(option, inline)
        } else {
          guard index < arguments.count else { throw .missingValue(option: name) }
          try record(option, arguments[index])
          index += 1
        }
        continue
      }
      // Clustered short flags: -ke.
      guard !argument.hasPrefix("--"), argument.count > 2 else { throw .unknownOption(token: argument) }
      for letter in argument.dropFirst() {
        guard let flag = spec.options.first(where: { $0.short == letter }), flag.value == nil else {
          throw .unknownFlag(letter, cluster: argument)
        }
        try record(flag, [])
      }
    }
    for (first, second) in spec.exclusive where parsed.has(first) && parsed.has(second) {
      throw .exclusive(
        spec.option(first)?.displayName ?? first.rawValue, spec.option(second)?.displayName ?? second.rawValue
      )
    }
    if !parsed.has(.help), let error = spec.operandCheck(parsed.operands) { throw error }
    return parsed
  }
}
