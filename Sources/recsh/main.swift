import Glibc
import RecordKit
import RecordShell

signal(SIGPIPE, SIG_IGN)
let options: Options
do {
  options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
  FileHandleOutput.standardError("recsh: \(error)\nTry 'recsh --help'.\n")
  exit(2)
}
if options.help {
  print(Options.usage)
  exit(0)
}
if options.version {
  print("recsh \(recshVersion)")
  exit(0)
}
exit(
  options.kind == "contact"
    ? Shell.run(ContactRecord.self, options: options) : Shell.run(TaskRecord.self, options: options))
