/* Named points where a test can stop a writer so that its kill lands there every time
 * (docs/design.md §14), and pack's compression level for the tests' stand-in releases. Inert
 * unless TB323FU_TEST_PAUSE or TB323FU_TEST_GZIP_LEVEL is set. */
#ifndef TB_TESTHOOK_H
#define TB_TESTHOOK_H

/* TB323FU_TEST_PAUSE=<point>:<fifo>: when point is the one named, and fifo is a FIFO owned by
 * the caller (not a link), writes "<point>\n" into it and waits there until the reader closes
 * its end or a signal arrives; the test SIGKILLs the writer meanwhile. At most once a process;
 * anything else does nothing. */
void testhook_pause(const char *point);

/* TB323FU_TEST_<NAME>=<bytes>: a bound a test lowers (the children's output and memory,
 * docs/design.md §14) so that reaching it takes little; the value is used only when it is a
 * number below normal, so the variable can only make a bound smaller. normal otherwise. */
unsigned long long testhook_bound(const char *name, unsigned long long normal);
/* TB323FU_TEST_GZIP_LEVEL=1…9: the gzip level pack uses instead of its 9, for the tests' stand-in
 * releases (built dozens of times a run, never compared with a release packed without it);
 * NULL when it is not set or not one digit of 1…9. */
const char *testhook_gzip_level(void);

#endif
