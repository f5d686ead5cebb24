/* The fields of crash evidence (docs/design.md §18), read from what the journal holds: a
 * process's maps and environment as systemd-coredump records them (COREDUMP_PROC_MAPS,
 * COREDUMP_ENVIRON), the kernel's lines for an unhandled fault and the msm driver's for a GPU
 * fault or hang, and a cgroup's application scope. Every input is bounded by its length,
 * may hold any byte (NUL, invalid UTF-8) and is never trusted to be well formed: a field that
 * does not read as expected gives nothing. No allocation. */
#ifndef TB_CRASH_FIELDS_H
#define TB_CRASH_FIELDS_H

#include <stddef.h>

/* The version whose tree (prefix "<root>/versions/", the store's real path) a maps text maps
 * a file of, the first such line winning: the version name into out (n bytes), 1. 0 when no
 * line maps a file under prefix with a valid version name. *other_driver (when not NULL) is
 * set when a Vulkan, OpenCL or Mesa GL driver library outside prefix is mapped
 * (libvulkan_*.so, lib*OpenCL*.so, *_dri.so, libgallium-*, libEGL_mesa.so*, libGLX_mesa.so*). */
int crash_maps_version(const char *maps, size_t len, const char *prefix, char *out, size_t n,
		       int *other_driver);

/* The value of name in an environment blob ("KEY=VALUE" entries separated by newlines or NUL
 * bytes, as COREDUMP_ENVIRON has them): copied into out (n bytes), 1; 0 when absent or
 * longer than out. */
int crash_environ_get(const char *blob, size_t len, const char *name, char *out, size_t n);

/* What a kernel line says about a fault. */
enum crash_kline_kind {
	KLINE_NONE = 0,
	KLINE_SEGFAULT,  /* "comm[pid]: segfault at … in OBJECT[…]" (x86), also "general protection fault", "trap" */
	KLINE_EXCEPTION, /* arm64: "comm[pid]: unhandled exception: …" (object after " in ") */
	KLINE_GPU_FAULT, /* msm: "*** gpu fault: …" (no task named) */
	KLINE_GPU_HANG,  /* msm: "…: offending task: comm (cmdline)" */
};
struct crash_kline {
	enum crash_kline_kind kind;
	char comm[64];     /* the task's name ("" when the line names none) */
	long pid;          /* 0 when none */
	char object[256];  /* the file name of the faulting object ("" when none) */
	char cmdline[256]; /* GPU hang: the task's command line as the driver said it */
};
/* Reads one kernel line (MESSAGE of a kernel entry, without its time prefix): 1 and *k filled
 * when it is one of the lines above, 0 otherwise. */
int crash_kernel_line(const char *msg, size_t len, struct crash_kline *k);

/* The desktop application ID of a cgroup path's application unit (the desktop's convention:
 * "app[-LAUNCHER]-ID[@…].service" or "app[-LAUNCHER]-ID-RANDOM.scope", '-' in ID escaped as
 * \x2d), with ".desktop" appended, into out: 1; 0 when the path's last unit is none. */
int crash_cgroup_app(const char *cgroup, size_t len, char *out, size_t n);

/* What the journal itself says of an entry that carries systemd-coredump's MESSAGE_ID: the
 * fields journald sets from the sender's credentials and cgroup, which no sender can set
 * (each a byte string of its length; NULL when absent). */
struct crash_trust {
	const char *transport, *unit, *comm, *exe, *uid, *coredump_uid;
	size_t transport_len, unit_len, comm_len, exe_len, uid_len, coredump_uid_len;
};
/* 1 when systemd-coredump wrote the entry (docs/design.md §18, "Whose evidence counts"):
 * _TRANSPORT journal; _SYSTEMD_UNIT a systemd-coredump@….service; _COMM "systemd-coredum"
 * (the kernel keeps 15 bytes) or _EXE a file named systemd-coredump, at least one of them and
 * neither other; COREDUMP_UID a number; _UID that number (systemd-coredump sends as the user
 * whose process crashed), 0, or a system account's when COREDUMP_UID is one (it sends as its
 * own user then). 0 otherwise. *uid gets COREDUMP_UID when 1. */
int crash_coredump_trusted(const struct crash_trust *t, long *uid);
/* The first user number of an account that is no system account (systemd's default). */
#define CRASH_FIRST_USER_UID 1000

/* A signal's number as a name ("SIGSEGV"); "signal N" form into out for others. */
const char *crash_signal_name(int sig, char *out, size_t n);

#endif
