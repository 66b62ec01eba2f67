/// What `recsh-bench` was asked to do, parsed once from its arguments.
enum BenchCommand: Equatable {
  /// Load `input` as tasks and save it to `output`, timing each phase.
  case roundTrip(input: String, output: String)
  /// Read `input` with no kind, then infer one, timing each.
  case infer(input: String)
  /// Write `count` generated task records to `output`.
  case generate(count: Int, output: String, seed: UInt64)
  /// Run `script` on `input`, then time `log ref` and `blame ref`, `count` times each.
  case log(input: String, script: String, ref: String, count: Int)

  static let usage = """
    usage: recsh-bench roundtrip FILE OUT
           recsh-bench generate N OUT [--seed S]
           recsh-bench infer FILE
           recsh-bench log FILE SCRIPT REF COUNT
    """

  init(arguments: [String]) throws(BenchError) {
    switch arguments.first {
    case "roundtrip":
      guard arguments.count == 3 else { throw .usage("roundtrip takes FILE and OUT") }
      self = .roundTrip(input: arguments[1], output: arguments[2])
    case "generate":
      var rest = Array(arguments.dropFirst())
      var seed: UInt64 = 1
      if let flag = rest.firstIndex(of: "--seed") {
        guard flag + 1 < rest.count, let value = UInt64(rest[flag + 1]) else {
          throw .usage("--seed takes a non-negative integer")
        }
        seed = value
        rest.removeSubrange(flag...flag + 1)
      }
      guard rest.count == 2, let count = Int(rest[0]), count >= 0 else {
        throw .usage("generate takes a record count N and OUT")
      }
      guard count <= TaskGenerator.maxCount else {
        throw .usage("generate makes at most \(TaskGenerator.maxCount) records")
      }
      self = .generate(count: count, output: rest[1], seed: seed)
    case "infer":
      guard arguments.count == 2 else { throw .usage("infer takes FILE") }
      self = .infer(input: arguments[1])
    case "log":
      guard arguments.count == 5, let count = Int(arguments[4]), count > 0 else {
        throw .usage("log takes FILE, SCRIPT, REF and a COUNT above 0")
      }
      self = .log(input: arguments[1], script: arguments[2], ref: arguments[3], count: count)
    case let other?:
      throw .usage("unknown subcommand \"\(other)\"")
    case nil:
      throw .usage("a subcommand is needed")
    }
  }

  /// Does the work and returns the one line to print.
  func run() throws(BenchError) -> String {
    switch self {
    case .roundTrip(let input, let output):
      return try RoundTrip.run(input: input, output: output).line
    case .generate(let count, let output, let seed):
      let bytes = try TaskGenerator.write(count: count, seed: seed, to: output)
      return "generated records=\(count) bytes=\(bytes) seed=\(seed) file=\(output)"
    case .infer(let input):
      return try Inference.run(input: input)
    case .log(let input, let script, let ref, let count):
      return try LogQuery.run(input: input, script: script, ref: ref, count: count)
    }
  }
}
