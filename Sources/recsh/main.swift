import Glibc
import RecordKit
import RecordShell

signal(SIGPIPE, SIG_IGN)
// Past the file size limit (`ulimit -f`) a write fails with EFBIG, which a save reports
// (removing its temporary file), instead of SIGXFSZ killing recsh midway.
signal(SIGXFSZ, SIG_IGN)
// A hang-up or a termination signal is not a normal exit: it must end recsh
// without removing the journal, even when the parent left them ignored.
signal(SIGHUP, SIG_DFL)
signal(SIGTERM, SIG_DFL)
var inheritedMask = sigset_t()
sigemptyset(&inheritedMask)
for blocked in [SIGHUP, SIGTERM, SIGINT] { sigaddset(&inheritedMask, blocked) }
sigprocmask(SIG_UNBLOCK, &inheritedMask, nil)
// `CommandLine.arguments` would have replaced bytes that are not UTF-8 with U+FFFD.
let arguments = (1..<Int(CommandLine.argc)).map { index in
  CommandLine.unsafeArgv[index].map { Array(UnsafeBufferPointer(start: $0, count: strlen($0))) }
    .map { $0.map { UInt8(bitPattern: $0) } } ?? []
}
// `recsh diff A B` compares two files and `recsh merge BASE OURS THEIRS` merges three (a
// file named `diff` or `merge` is opened as `./diff`, `./merge`): the first argument names
// a subcommand of `CommandLineTable` or is the shell's.
let spec = arguments.first.flatMap { CommandLineTable.subcommand(named: String(decoding: $0, as: UTF8.self)) }
let parsed: ParsedCommandLine
do {
  parsed = try ParsedCommandLine.parse(
    Array(arguments.dropFirst(spec == nil ? 0 : 1)), as: spec ?? CommandLineTable.shell)
} catch {
  // The shell points at its help; a subcommand shows its usage line, as it always has.
  let pointer = spec.map(\.usageLine) ?? "Try 'recsh --help'."
  StandardStreams.writeAll(2, Array("recsh: \(error)\n\(pointer)\n".utf8))
  exit(2)
}
if parsed.has(.help) {
  print(CommandLineHelp.text(of: spec ?? CommandLineTable.shell, width: Shell.outputWidth()))
  exit(0)
}
switch spec?.name {
case "diff": exit(FileDiff.run(parsed))
case "merge": exit(FileMerge.run(parsed))
default: break
}
let options = Options(parsed)
if options.version {
  print("recsh \(recshVersion)")
  exit(0)
}
exit(Shell.start(options: options))
