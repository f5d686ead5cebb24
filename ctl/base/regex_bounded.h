/* Regular expressions from the command line and mesa.conf, compiled within a bound. */
#ifndef TB_REGEX_BOUNDED_H
#define TB_REGEX_BOUNDED_H

#include <regex.h>

#include "base/error.h"

/* The most a pattern may be, and the most memory its compilation may take beyond what the
 * process already has: glibc's regcomp expands every repetition count into the automaton, so
 * `a{1,32000}` alone needs 8 GB and `a{1,32000}{1,32000}` grows past 16 GB. */
#define REGEX_MAX_LENGTH 1024
#define REGEX_MAX_COMPILE_BYTES ((long)64 << 20)

/* regcomp(re, pattern, cflags) when pattern is at most REGEX_MAX_LENGTH bytes and compiles
 * within REGEX_MAX_COMPILE_BYTES (tried first in a child process under that limit, so the
 * tool itself never grows past it); else one sentence naming what (an option or a key, such
 * as "--subtests"), TB_EFAIL with reason "failed", and nothing to free. */
int regex_compile_bounded(regex_t *re, const char *pattern, int cflags, const char *what,
			  struct tb_error *e);

#endif
