// The module is its header's one inline function; a C target needs a source file.
#include "CacheHint.h"
