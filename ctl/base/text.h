/* Small text helpers: lines, blanks, hex, and text on its way to a terminal. */
#ifndef TB_TEXT_H
#define TB_TEXT_H

#include <stddef.h>

/* Walks a text in place: returns the line at *cursor without its newline (and a trailing \r)
 * and moves *cursor past it; NULL once the text is used up. */
char *next_line(char **cursor);

/* Strips leading and trailing blanks in place; returns the first non-blank character. */
char *trim(char *s);

/* s for a terminal: control characters shown as \xNN, never obeyed (newlines kept when
 * keep_newlines). Every sentence and progress line goes through it where it is printed; JSON
 * output does not. Free the result. */
char *term_text(const char *s, int keep_newlines);

/* A NUL-terminated copy of len bytes of a small text file's content; NULL when it is longer
 * than max or holds a NUL byte (a line reader would stop there). Free it. */
char *text_copy_checked(const char *text, size_t len, size_t max);

/* The first element of a comma-separated list that valid(element, length) refuses, as a
 * copy (free it); NULL when every one is valid. An empty element is one too. */
char *list_first_invalid(const char *list, int (*valid)(const char *s, size_t len));

/* Lowercase hex of n bytes into out (2n+1 bytes). */
void hex_encode(const unsigned char *in, size_t n, char *out);

#endif
