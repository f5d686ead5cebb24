/* JSON output written by hand (the launcher prints JSON; it never parses any). */
#ifndef TB_JSONOUT_H
#define TB_JSONOUT_H

#include <stdio.h>

/* Writes s as a JSON string with its quotes; bytes that are not UTF-8 become U+FFFD. */
void json_string(FILE *f, const char *s);

#endif
