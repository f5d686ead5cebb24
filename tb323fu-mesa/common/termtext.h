/* Text from outside (a MANIFEST, a release list, a file name) on its way to a terminal:
 * control characters are shown, never obeyed. Shared by both programs' printers; JSON output
 * does not go through it (it stays exact, and JSON escapes them itself). */
#ifndef TB_TERMTEXT_H
#define TB_TERMTEXT_H

#include <stddef.h>

/* Copies in into out (cap bytes, always NUL-terminated, cut short when it does not fit, never
 * inside a character) with every C0 control byte, DEL, UTF-8-encoded C1 control and byte that
 * is not part of a valid UTF-8 character (a raw 0x9b, 0xff) shown as \xNN (\n kept when
 * keep_newlines). 4 * strlen(in) + 1 bytes always suffice. Returns the length written. No
 * allocation and no stdio: the launcher uses it on its way to execvp. */
size_t term_escape(char *out, size_t cap, const char *in, int keep_newlines);

#endif
