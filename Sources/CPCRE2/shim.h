/* PCRE2's 8-bit library, for the one type that owns its handles:
 * Sources/RecordKit/Kinds/Patterns/CompiledPattern.swift. Swift calls the *_8 functions
 * by name: the unsuffixed names are macros it does not import. */
#ifndef RECSH_CPCRE2_SHIM_H
#define RECSH_CPCRE2_SHIM_H
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

/* The steps one search has taken (every callout: each item of the pattern tried, at
 * every start position and after every backtrack) and how many it may take. */
typedef struct {
  size_t taken;
  size_t budget;
} recsh_pcre2_steps;

/* The callout PCRE2 makes before each item (PCRE2_AUTO_CALLOUT): one step more, and the
 * search ends with PCRE2_ERROR_CALLOUT past the budget. In C, so that it costs a few
 * nanoseconds in every build: it runs up to a million times a search. */
static inline int recsh_pcre2_count_step(pcre2_callout_block_8 *block, void *data) {
  (void)block;
  recsh_pcre2_steps *steps = (recsh_pcre2_steps *)data;
  steps->taken += 1;
  return steps->taken > steps->budget ? PCRE2_ERROR_CALLOUT : 0;
}
#endif
