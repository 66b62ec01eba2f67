// The one header over libedit's readline-compatible API.
//
// Swift 6 cannot read or write mutable C globals, and cannot call C variadic
// functions, so the few globals recsh needs get static inline accessors here.
// No mutable statics live in this header: every importing module would get
// its own copy.
#ifndef RECSH_CEDITLINE_SHIM_H
#define RECSH_CEDITLINE_SHIM_H

#include <stdio.h>
#include <editline/readline.h>

static inline void recsh_rl_set_readline_name(const char *name) { rl_readline_name = name; }
static inline void recsh_rl_set_catch_signals(int value) { rl_catch_signals = value; }
static inline void recsh_rl_set_catch_sigwinch(int value) { rl_catch_sigwinch = value; }
static inline void recsh_rl_set_attempted_completion_function(rl_completion_func_t *function) {
  rl_attempted_completion_function = function;
}
static inline void recsh_rl_set_attempted_completion_over(int value) { rl_attempted_completion_over = value; }
static inline void recsh_rl_set_completion_append_character(int value) { rl_completion_append_character = value; }
static inline void recsh_rl_set_completion_query_items(int value) { rl_completion_query_items = value; }
static inline void recsh_rl_set_basic_word_break_characters(const char *characters) {
  rl_basic_word_break_characters = characters;
}
static inline void recsh_rl_set_getc_function(int (*function)(FILE *)) { rl_getc_function = function; }
static inline const char *recsh_rl_line_buffer(void) { return rl_line_buffer; }

#endif
