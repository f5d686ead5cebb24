/* UTF-8 as it is checked on every way out (JSON, terminals): shared by both programs. */
#ifndef TB_UTF8_H
#define TB_UTF8_H

#include <stddef.h>

/* Length (1..4) of the valid UTF-8 character at s, within avail bytes; 0 when the bytes
 * there are not one (a stray continuation byte, an overlong form, a surrogate, beyond
 * U+10FFFF, cut short). */
int utf8_len(const unsigned char *s, size_t avail);

/* How many of the len bytes at s to keep to stay within max bytes without cutting a
 * character in two (bytes that are no character count as one each). */
size_t utf8_cut(const char *s, size_t len, size_t max);

/* 1 when the len bytes at s are valid UTF-8 throughout. */
int utf8_valid(const char *s, size_t len);

#endif
