/// libFuzzer's entry point: one input is one journal, raw or framed by the check.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzJournal(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  JournalCheck.check(UnsafeBufferPointer(start: data, count: size))
  return 0
}
