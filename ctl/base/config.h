/* /etc/tb323fu/mesa.conf (docs/design.md §5): key = value lines, # comments. */
#ifndef TB_CONFIG_H
#define TB_CONFIG_H

#include "base/error.h"

#define CONFIG_MAX_KEYS 32
#define CONFIG_MAX_BYTES (1 << 20)

struct config {
	char *source;   /* github:OWNER/REPO */
	char *owner, *repo;
	char *api_url;
	char *channel;  /* stable | testing */
	int require_signature;
	char *public_keys[CONFIG_MAX_KEYS];
	int n_public_keys;
	char *keys_dir;
	char *ca_file;
	char *token_file;
	int smoke;      /* on | off */
	char *smoke_suite;         /* "" (none) | piglit-cl | opencl-cts | dEQP-VK: a suite after every install */
	char *smoke_suite_profile; /* quick | full */
	char *smoke_suite_filter;  /* a regular expression for piglit's -t, "" for all */
	char *cts_dir;             /* OpenCL-CTS's binaries, "" for build-recipes/opencl-cts's */
	char *cts_tests;           /* the CTS binaries to run, "" for the default set */
	long cts_budget;           /* seconds for a CTS run, 0 for no limit */
	char *deqp_dir;            /* dEQP-VK's binary or its directory, "" for build-recipes/deqp-vk's */
	char *deqp_gl_dir;         /* the GL modules' folder (gles2/, gles3/, egl/) or a binary, "" for build-recipes/deqp-gl's */
	char *deqp_groups;         /* the dEQP suite's groups to run, "" for the default set */
	char *deqp_fraction;       /* "N" or "N/K": every N-th case from the K-th, "" for all */
	long deqp_budget;          /* seconds for a dEQP suite's run, 0 for no limit */
	long suite_jobs;           /* processes a suite runs at once, 0 for the number of cores */
	int max_tries;
	int keep_versions;
	long connect_timeout; /* seconds */
	long stall_timeout;   /* seconds */
	long stall_speed;     /* bytes per second */
	int auto_download;    /* the daily check also downloads (docs/design.md §13) */
	/* crash evidence (docs/design.md §18) */
	char *crash_policy;          /* pin (on trial) | report (never act) | pin-always */
	int keep_after_clean_boots;  /* keep a trial after N starts without a crash; 0: never */
	char *session_gl;            /* distro | native | zink: the session's GL after `on` (§6) */
	unsigned set_here;    /* CONFIG_SET_* bits: what mesa.conf itself set */
	char *path;     /* the file read, or NULL when none was */
	char *helper_problem; /* why helper.toml could not be read (signatures are then required) */
};

/* The directory that holds the configuration read (cfg->path), else the default one's
 * (SYSCONFDIR/tb323fu): where files kept beside mesa.conf live. Allocated. */
char *config_dir(const struct config *cfg);

enum { CONFIG_SET_CHANNEL = 1, CONFIG_SET_SIGNATURE = 2, CONFIG_SET_KEYS = 4 };

/* Sets every default of docs/design.md §5. */
void config_defaults(struct config *c);
/* Reads path over the defaults. A missing file is fine when must_exist is 0. A bad line is
 * TB_EUSAGE with a sentence naming the file and the line. */
int config_load(struct config *c, const char *path, int must_exist, struct tb_error *e);
/* Parses text (the file's content) over the current values; name is used in messages. */
int config_parse(struct config *c, const char *text, const char *name, struct tb_error *e);
void config_free(struct config *c);

#endif
