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

void *lazylib_symbol(struct lazylib *lib, const char *fn)
{
	void *at = dlsym(RTLD_DEFAULT, fn);
	if (at)
		return at;
	void *h = __atomic_load_n(&lib->handle, __ATOMIC_ACQUIRE);
	if (!h) {
		/* RTLD_LOCAL: its symbols are ours to ask for, not the process's to bind by name */
		h = dlopen(lib->soname, RTLD_NOW | RTLD_LOCAL);
		if (!h) {
			/* what a missing DT_NEEDED library would have said at the start */
			fprintf(stderr, "tb323fu-ctl: cannot load %s, which this command needs (%s); reinstall the package that provides it (apt-get install --fix-broken tb323fu-mesa)\n",
				lib->soname, dlerror());
			_exit(TB_ENOT_FOUND);
		}
		__atomic_store_n(&lib->handle, h, __ATOMIC_RELEASE);
	}
	at = dlsym(h, fn);
	if (!at) {
		fprintf(stderr, "tb323fu-ctl: %s has no %s (%s); reinstall the package that provides it\n",
			lib->soname, fn, dlerror());
		_exit(TB_ENOT_FOUND);
	}
	return at;
}
