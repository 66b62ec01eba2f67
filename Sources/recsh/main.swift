import RecordShell

#if canImport(Glibc)
  import Glibc
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--version") {
  print("recsh \(recshVersion)")
  exit(0)
}
if arguments.contains("-h") || arguments.contains("--help") {
  print("usage: recsh [options] [FILE]   (the shell itself lands with the shell issue)")
  exit(0)
}
FileHandleOutput.standardError("recsh: the shell is not built yet; try --help\n")
exit(2)
