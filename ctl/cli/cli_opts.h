/* What each command's options and operand are once parsed: the targets of the table's
 * options (ctl/cli/cli_table.c names each field by its offset). A command body reads its own
 * struct and never the command line. */
#ifndef TB_CLI_OPTS_H
#define TB_CLI_OPTS_H

/* The options taken before `mesa` and after any command. */
struct cli_globals {
	const char *store, *config, *progress;
	int json, wait;
	int quiet; /* -q: no success sentence, no progress; errors still said */
};

/* A command with at most a VERSION (download, remove, notes) or nothing at all. */
struct opts_version {
	const char *version;
	int dry_run; /* remove, rollback: say what would be done, change nothing */
};

struct opts_install {
	const char *version;
	int no_smoke;
	int dry_run; /* install, update: say what would be done, change nothing */
};

struct opts_install_local {
	const char *file, *sums, *sig;
	int no_smoke;
};

struct opts_verify {
	const char *version;
	int repair;
};

struct opts_smoke {
	const char *version, *tests, *suite, *profile, *filter, *deqp, *caselist;
	const char *subtests, *cts; /* --suite opencl-cts */
	const char *groups, *fraction; /* --suite dEQP-VK */
	int budget; /* seconds, 0: cts_budget or deqp_budget of mesa.conf */
	int jobs;   /* 0: suite_jobs of mesa.conf, else the number of cores */
	int all; /* every test in a suite's table, not only those that differ */
};

struct opts_bench {
	const char *version, *command, *tests;
	int rounds; /* 0: the default */
};

struct opts_pack {
	const char *outdir, *stage, *version, *arch, *commit, *base, *mesa_version, *drivers,
		*vulkan_lib, *vulkan_api, *vulkan_driver_id, *opencl_lib, *rusticl_enable,
		*ld_library_path, *min_glibc, *compress;
	int keep_links;
};

/* The app group's commands: the application, app set's choice, --user. */
struct opts_app {
	const char *app, *choice; /* app set's two operands, in this order */
	int user;
	int dry_run; /* app set: say which entry would be written, change nothing */
};

/* --- flatpak export|list|unexport (docs/design.md §17) --- */
struct opts_flatpak {
	const char *version; /* VERSION or current (NULL: current), checked by the body */
	const char *branch;  /* --branch: one runtime branch (NULL: every installed one) */
	int user;            /* --user: the user's Flatpak installation, no root needed */
};
/* --- end flatpak --- */

/* Room for any command's options; each member starts at the union's start, so a table
 * offset into one struct is an offset into the union. */
union cli_opts {
	struct opts_version version;
	struct opts_install install;
	struct opts_install_local install_local;
	struct opts_verify verify;
	struct opts_smoke smoke;
	struct opts_bench bench;
	struct opts_pack pack;
	struct opts_app app;
	struct opts_flatpak flatpak; /* flatpak (§17) */
};

#endif
