/* The store's layout (docs/design.md §3): its default place, the variable that moves it, and
 * the name of every part in it, relative to the root. Both programs build their paths from
 * these names and from no others; the engine's store (ctl/store/store.c) adds the checks, the
 * launcher (common/storepath.h) only reads. Names only: no stdio, no allocation. */
#ifndef TB_STORELAYOUT_H
#define TB_STORELAYOUT_H

#define STORE_DEFAULT_ROOT "/var/lib/tb323fu/mesa"
/* $TB323FU_MESA_DIR: the store when no --store is given. */
#define STORE_ROOT_VAR "TB323FU_MESA_DIR"
/* $TB323FU_MESA_VERSION: set by `run` for the program it starts (with TB323FU_MESA_DIR, the
 * store it started it from): the version it runs on, which `which` names inside it. */
#define STORE_VERSION_VAR "TB323FU_MESA_VERSION"

/* versions/<v>/: a release's tree, its MANIFEST at the top; versions/.<v>.tmp while unpacked,
 * versions/.<v>.rm.tmp while removed. */
#define STORE_VERSIONS "versions"
#define STORE_MANIFEST "MANIFEST"
#define STORE_STAGING_SUFFIX ".tmp"
#define STORE_REMOVING_SUFFIX ".rm.tmp"
/* cts/<v>/: a CTS release's tree (MANIFEST, lib/deqp-vk/…, lib/opencl-cts/…), staged and
 * removed as versions/ are; cts/current links to the one the suites use. */
#define STORE_CTS "cts"
#define STORE_CTS_CURRENT STORE_CTS "/current"
/* Links to versions/<v>. */
#define STORE_CURRENT "current"
#define STORE_PREVIOUS "previous"
/* The life-cycle state (key=value lines) and the session's env file (empty when off). */
#define STORE_STATE "state"
#define STORE_ENV_CONF "env.conf"
/* The session's Flatpak file (docs/design.md §17): FLATPAK_GL_DRIVERS naming current's
 * extension while on and exported, else empty. */
#define STORE_FLATPAK_CONF "flatpak.conf"
/* env/<v>.env for each version, env/current.env for current. */
#define STORE_ENV_DIR "env"
#define STORE_ENV_SUFFIX ".env"
#define STORE_CURRENT_ENV STORE_ENV_DIR "/current" STORE_ENV_SUFFIX
/* env/<v>.gl and env/<v>.zink, env/current.gl and env/current.zink: a version's GL on its own
 * gallium driver and on Zink (docs/design.md §6), beside its env file; no version's env file
 * ends so. */
#define STORE_GL_SUFFIX ".gl"
#define STORE_ZINK_SUFFIX ".zink"
#define STORE_CURRENT_GL_ENV STORE_ENV_DIR "/current" STORE_GL_SUFFIX
#define STORE_CURRENT_ZINK_ENV STORE_ENV_DIR "/current" STORE_ZINK_SUFFIX
/* The loaders' files: icd/versions/<v>/{turnip.json,opencl/rusticl.icd,…}, and current's in
 * icd/ itself. */
#define STORE_ICD_DIR "icd"
#define STORE_ICD_VERSIONS STORE_ICD_DIR "/versions"
#define STORE_OPENCL_SUBDIR "opencl"
#define STORE_VULKAN_ICD_NAME "turnip.json"
#define STORE_OPENCL_ICD_NAME "rusticl.icd"
#define STORE_ICD_OPENCL STORE_ICD_DIR "/" STORE_OPENCL_SUBDIR
#define STORE_CURRENT_VULKAN_ICD STORE_ICD_DIR "/" STORE_VULKAN_ICD_NAME
#define STORE_CURRENT_OPENCL_ICD STORE_ICD_OPENCL "/" STORE_OPENCL_ICD_NAME
/* glvnd's EGL vendor file of a version with GL: icd/versions/<v>/egl_vendor.json, and
 * current's in icd/ itself. */
#define STORE_EGL_VENDOR_NAME "egl_vendor.json"
#define STORE_CURRENT_EGL_VENDOR STORE_ICD_DIR "/" STORE_EGL_VENDOR_NAME
/* smoke/<v>.json: the smoke results of each version. */
#define STORE_SMOKE_DIR "smoke"
#define STORE_SMOKE_SUFFIX ".json"
/* cache/: the release list, partial downloads, suite results of the distribution's side. */
#define STORE_CACHE_DIR "cache"
#define STORE_SUITES_CACHE STORE_CACHE_DIR "/suites"
/* The store's directories, parents first: what a writer makes. */
#define STORE_DIRS                                                                                 \
	STORE_VERSIONS, STORE_ICD_DIR, STORE_ICD_OPENCL, STORE_ICD_VERSIONS, STORE_ENV_DIR,        \
		STORE_SMOKE_DIR, STORE_CACHE_DIR

/* bisect's work folder (docs/design.md §13): a store of its own for the versions it fetched,
 * removed when it ends unless kept. */
#define STORE_BISECT_DIR "bisect"
/* bisect's steps' output: written as bisect/step-output.log while it runs, and moved to
 * bisect.log at the store's root when it ends (replacing the last one). */
#define STORE_BISECT_RUNNING_LOG "step-output.log"
#define STORE_BISECT_LOG "bisect.log"

/* Every bench kept (docs/design.md §10): {"runs":[…]}, newest last, at most 50 runs a version
 * and 500 in all; written by bench, a reader, as smoke/<v>.json is (a rename, no lock). */
#define STORE_BENCH_HISTORY "bench-history.json"

/* The system's per-application rules (docs/design.md §16). */
#define STORE_APP_RULES "app-rules"
/* What was read of the journal's crash evidence, and the pins it made (docs/design.md §18). */
#define STORE_CRASH_RECORD "crash-record"
/* The readers' pins of versions (docs/design.md §3): .pins/<v> (a flock: shared by readers,
 * exclusive for a removal) and .pins/<v>@<pid> naming each reader. */
#define STORE_PINS ".pins"
/* The versions the store remembers as gone wrong (docs/design.md §12). */
#define STORE_MARKS "marked"

/* The writers' lock, the commit journal, and the running operation. */
#define STORE_LOCK ".lock"
#define STORE_RUNNING "running"
/* A reader's publication (smoke, bench, verify pin their version and take no lock):
 * .running-reader.<pid>, the same record with the process's start time */
#define STORE_RUNNING_READER ".running-reader."
#define STORE_LAST_OPERATION "last-operation"
#define STORE_JOURNAL ".journal"
/* Space kept free so that a commit on a full disk still completes. */
#define STORE_RESERVE ".reserve"

#endif
