/* Named points where a test can stop a writer so that its kill lands there every time
 * (docs/design.md §14). Inert unless TB323FU_TEST_PAUSE is set. */
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

#endif
