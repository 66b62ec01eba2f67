import RecordShell

#if canImport(Glibc)
  import Glibc
#endif

/// `recsh-bench`: the measuring half of `scripts/bench`. The script runs it next to
/// python3 and jq and compares their outputs; this program only does the work and times it.
do throws(BenchError) {
  let command = try BenchCommand(arguments: Array(CommandLine.arguments.dropFirst()))
  print(try command.run())
} catch {
  let message = Array("recsh-bench: \(error)\n".utf8)
  _ = message.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
  exit(error.isUsage ? 2 : 1)
}
