/* Libraries only some commands need (libcurl, libarchive, libcrypto, libxml2, libsystemd, cairo)
 * are loaded the first time one of their functions is called, not at every start: status, list and the
 * shell's completion, which the helper's backend polls, map none of them (docs/design.md §2,
 * tests/bench/startup). A file that calls such a library includes its header, then
 * base/lazy_LIB.h, which names each function it uses as LAZY_CALL(lib, fn): the call goes
 * through a pointer resolved once (dlsym), with the declaration's own type. The program does
 * not link these libraries, so a call of a function not named there fails its link. */
#ifndef TB_LAZYLIB_H
#define TB_LAZYLIB_H

#include "base/error.h"

struct lazylib {
	const char *soname; /* "libcurl.so.4": the ABI the headers were written for */
	void *handle;       /* set on first use */
};

/* fn of lib: a symbol already in the process (a test program linked with the library), else
 * the library loaded now. A library that cannot be loaded ends the program as the dynamic
 * linker would have at its start (exit 127), saying which one and why: through
 * lazylib_fatal when the program set it (the command line: one JSON failure object with
 * --json, reason library-missing), else on stderr. */
void *lazylib_symbol(struct lazylib *lib, const char *fn);
extern void (*lazylib_fatal)(const char *sentence);

/* Loads lib now, for a caller that can go on without it (boot-tick without the journal) or
 * must know before it writes anything (install-local before its staging tree): TB_OK, or a
 * failure (reason library-missing, exit 127) naming the library, why, and what to do. */
int lazylib_load(struct lazylib *lib, struct tb_error *e);

#define LAZY_CALL(lib, fn)                                                             \
	(*({                                                                           \
		static void *lazy_slot_;                                               \
		void *lazy_at_ = __atomic_load_n(&lazy_slot_, __ATOMIC_ACQUIRE);       \
		if (!lazy_at_) {                                                       \
			lazy_at_ = lazylib_symbol(&(lib), #fn);                        \
			__atomic_store_n(&lazy_slot_, lazy_at_, __ATOMIC_RELEASE);     \
		}                                                                      \
		(__typeof__(&fn))lazy_at_;                                             \
	}))

extern struct lazylib lazy_libcurl, lazy_libarchive, lazy_libcrypto, lazy_libxml2, lazy_libsystemd,
	lazy_libcairo;

#endif
