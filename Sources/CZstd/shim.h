// zstd's one header: RecordShell's `Zstd` (Sources/RecordShell/Journal/Zstd.swift) owns
// its contexts.
#include <zstd.h>
