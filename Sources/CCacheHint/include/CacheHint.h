// A hint to the processor that memory will soon be read, so that its cache line is on
// its way while other work runs. Swift has no spelling of the compiler's prefetch, so it
// is reached through this one inline function; RecordKit's `CacheHint` is its only caller.
// A hint never faults and changes no memory: an address that is not mapped is ignored.
// The address comes as an integer: the caller never makes a pointer of memory it only
// names.
#ifndef RECSH_CACHE_HINT_H
#define RECSH_CACHE_HINT_H

#include <stdint.h>

static inline void recsh_prefetch_read(uintptr_t address) {
  __builtin_prefetch((const void *)address, 0, 3);
}

#endif
