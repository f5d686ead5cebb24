/* Loading a library on its first call (ctl/base/lazylib.h). */
#include "base/lazylib.h"
#include "common/exitcode.h"

#include <dlfcn.h>
#include <stdio.h>
#include <unistd.h>

/* The sonames the Makefile checks against the build's own -dev packages (TB_SONAME_*). */
struct lazylib lazy_libcurl = {TB_SONAME_CURL, NULL};
struct lazylib lazy_libarchive = {TB_SONAME_ARCHIVE, NULL};
struct lazylib lazy_libcrypto = {TB_SONAME_CRYPTO, NULL};
struct lazylib lazy_libxml2 = {TB_SONAME_XML2, NULL};
struct lazylib lazy_libsystemd = {TB_SONAME_SYSTEMD, NULL};
struct lazylib lazy_libcairo = {TB_SONAME_CAIRO, NULL};

void (*lazylib_fatal)(const char *sentence);

/* The handle of lib, loaded now if need be; NULL with the sentence in why. */
static void *handle_of(struct lazylib *lib, char *why, size_t n)
{
	void *h = __atomic_load_n(&lib->handle, __ATOMIC_ACQUIRE);
	if (h)
		return h;
	/* RTLD_LOCAL: its symbols are ours to ask for, not the process's to bind by name */
	h = dlopen(lib->soname, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		/* what a missing DT_NEEDED library would have said at the start */
		snprintf(why, n, "cannot load %s, which this command needs (%s); reinstall the package that provides it (apt-get install --fix-broken tb323fu-mesa)",
			 lib->soname, dlerror());
		return NULL;
	}
	__atomic_store_n(&lib->handle, h, __ATOMIC_RELEASE);
	return h;
}

static void fatal(const char *sentence)
{
	if (lazylib_fatal)
		lazylib_fatal(sentence);
	else
		fprintf(stderr, "tb323fu-ctl: %s\n", sentence);
	_exit(TB_ENOT_FOUND);
}

void *lazylib_symbol(struct lazylib *lib, const char *fn)
{
	void *at = dlsym(RTLD_DEFAULT, fn);
	if (at)
		return at;
	char why[1024];
	void *h = handle_of(lib, why, sizeof why);
	if (!h)
		fatal(why);
	at = dlsym(h, fn);
	if (!at) {
		snprintf(why, sizeof why, "%s has no %s (%s); reinstall the package that provides it (apt-get install --fix-broken tb323fu-mesa)",
			 lib->soname, fn, dlerror());
		fatal(why);
	}
	return at;
}

int lazylib_load(struct lazylib *lib, struct tb_error *e)
{
	char why[1024];
	if (handle_of(lib, why, sizeof why))
		return TB_OK;
	return tb_fail(e, TB_R_LIBRARY_MISSING, "%s", why);
}
