/* What doctor finds (docs/design.md §5): the store and its session switch, the session files
 * and the boot-tick unit, the versions' files, this shell's variables, the system's loaders
 * and ICD files, the current version against this system and its build record. The engine
 * looks and words each finding (with what to do about a problem); the command renders the
 * report, and adds what its own helpers find (rules, exports, crash evidence). */
#ifndef TB_HEALTH_H
#define TB_HEALTH_H

#include <stddef.h>

#include "base/config.h"
#include "base/error.h"
#include "release/buildrecord.h"
#include "release/elfcheck.h"
#include "store/marks.h"
#include "store/store.h"

/* One thing found, in the order found: a sentence, or a problem (its sentence says what to
 * do), or one of the store's marks, which the command words (a refused release's is a
 * problem). */
struct health_finding {
	int problem;
	char *text;              /* NULL for a mark */
	const struct mark *mark; /* in the report's marks, or NULL */
};

/* A loader the system has: its path ("" when it has none) and the version of its real file's
 * name (libvulkan.so.1.3.239 → "1.3.239", or ""). */
struct health_loader {
	char *path;
	char *version;
};

/* An ICD file and the library it names ("" when none); found: the library is there (a bare
 * name: the dynamic linker finds it); store: the file is the store's. */
struct health_icd {
	char *file;
	char *library_path;
	int found, store;
};

struct health_icds {
	struct health_icd *v;
	size_t n;
};

/* A driver variable of this shell and its value (the environment's). */
struct health_var {
	const char *name, *value;
};

struct health_findings {
	struct health_finding *v;
	size_t n;
};

struct health_report {
	struct health_findings found; /* in the order found */
	/* the Flatpak overrides that decide a sandbox's OpenCL (§17): said after the store's
	 * exports and what a Flatpak start from the session gets */
	struct health_findings flatpak;
	int n_problems; /* of both */

	/* the store and its switch */
	const char *store;   /* its root */
	char *current;       /* what current names, gone or not ("": none) */
	char *previous;      /* "": none */
	int enabled;
	char *trial;         /* the version on trial, "": none */
	const char *smoke;   /* the last smoke test of a current that is there, else "none" */
	struct marks marks;
	int boot_tick;       /* -1: not looked at (nothing on trial while on), else enabled */

	/* this shell and the system */
	struct health_var *env; /* the driver variables set, in envfile_vars' order */
	size_t n_env;
	struct health_loader vulkan_loader, opencl_loader;
	struct health_icds vulkan_icds, opencl_icds;
	char arch[64], glibc[32];

	/* the current version that is there (else these stay zero) */
	struct elf_report elf;     /* against this system, as far as the checks got */
	int have_record;           /* its build record was looked at: record */
	struct record_view record;
};

/* Looks at everything above, the store opened as a reader. TB_OK, or the failure to know
 * this system (e, r empty). Free with health_free. */
int health_check(const struct store *s, const struct config *cfg, struct health_report *r,
		 struct tb_error *e);
void health_free(struct health_report *r);

#endif
