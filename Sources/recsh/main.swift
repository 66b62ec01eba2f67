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
// `recsh diff A B` compares two files and `recsh merge BASE OURS THEIRS` merges three (a
// file named `diff` or `merge` is opened as `./diff`, `./merge`). (Their paths are read
// as text: a name that is not UTF-8 is not found.)
if CommandLine.arguments.dropFirst().first == "diff" {
  exit(FileDiff.run(Array(CommandLine.arguments.dropFirst(2))))
}
if CommandLine.arguments.dropFirst().first == "merge" {
  exit(FileMerge.run(Array(CommandLine.arguments.dropFirst(2))))
}
let options: Options
do {
  // `CommandLine.arguments` would have replaced bytes that are not UTF-8 with U+FFFD.
  let arguments = (1..<Int(CommandLine.argc)).map { index in
    CommandLine.unsafeArgv[index].map { Array(UnsafeBufferPointer(start: $0, count: strlen($0))) }
      .map { $0.map { UInt8(bitPattern: $0) } } ?? []
  }
  options = try Options.parse(bytes: arguments)
} catch {
  StandardStreams.writeAll(2, Array("recsh: \(error)\nTry 'recsh --help'.\n".utf8))
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
exit(Shell.start(options: options))
