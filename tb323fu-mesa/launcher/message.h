/* Messages of the launcher: one sentence to stderr, written with write(2) so the launch
 * path never touches stdio. */
#ifndef TB_MESSAGE_H
#define TB_MESSAGE_H

/* Writes "tb323fu-mesa: " and the strings (up to a NULL) and a newline to stderr. */
void say_error(const char *first, ...) __attribute__((sentinel));

/* The same, then returns code: `return fail(1, "…", NULL);`. */
int fail(int code, const char *first, ...) __attribute__((sentinel));

#endif
