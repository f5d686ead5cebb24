/* The table of tb323fu-ctl's commands and options (see cli_table.h); docs/design.md §5. */
#include "cli/cli_table.h"
#include "trial/bench.h"

#include <stddef.h>
#include <string.h>

#define END {NULL, NULL, NULL, 0, 0, 0, 0, NULL, 0}
/* An option and its target in the command's struct of cli/cli_opts.h. */
#define FLAG(name, type, field, help) {name, NULL, help, OPT_FLAG, offsetof(type, field), 0, 0, NULL, 0}
#define STRING(name, arg, type, field, help) {name, arg, help, OPT_STRING, offsetof(type, field), 0, 0, NULL, 0}
#define LIST(name, arg, type, field, help) {name, arg, help, OPT_LIST, offsetof(type, field), 0, 0, NULL, 0}
#define CHOICE(name, arg, choices, type, field, help) \
	{name, arg, help, OPT_CHOICE, offsetof(type, field), 0, 0, choices, 0}

const struct cli_option cli_global_options[] = {
	STRING("--store", "DIR", struct cli_globals, store,
	       "the store to use (default $" STORE_ROOT_VAR ", else " STORE_DEFAULT_ROOT ")"),
	STRING("--config", "FILE", struct cli_globals, config,
	       "the configuration file (default $TB323FU_MESA_CONFIG, else " TB_SYSCONFDIR "/tb323fu/mesa.conf)"),
	FLAG("--json", struct cli_globals, json, "print one JSON object instead of sentences"),
	{"--progress", "MODE", "auto, bar, json (JSON lines on stderr) or none", OPT_CHOICE,
	 offsetof(struct cli_globals, progress), 0, 0, "auto|bar|json|none", 0},
	FLAG("--wait", struct cli_globals, wait, "wait for another writer instead of exiting 3 (busy)"),
	FLAG("--quiet", struct cli_globals, quiet,
	     "(or -q) for scripts: no sentence on success and no progress; errors are still said, exit codes are the same"),
	{"--help", NULL, "show help and exit", OPT_HELP, 0, 0, 0, NULL, 0},
	{"--version", NULL, "print the program's version and exit", OPT_VERSION, 0, 0, 0, NULL, 0},
	END,
};
const size_t cli_global_options_count = sizeof cli_global_options / sizeof *cli_global_options - 1;

static const struct cli_option no_options[] = {END};
/* --dry-run: the store is only read, whoever may write it (docs/design.md §11). */
#define DRY_RUN(type) \
	{"--dry-run", NULL, "say exactly what the command would do, and change nothing", OPT_FLAG, \
	 offsetof(type, dry_run), 0, 0, NULL, -1}
static const struct cli_option install_options[] = {
	FLAG("--no-smoke", struct opts_install, no_smoke,
	     "skip the smoke tests (as `smoke = off` in mesa.conf)"),
	DRY_RUN(struct opts_install),
	END,
};
static const struct cli_option dry_run_only[] = {
	DRY_RUN(struct opts_version),
	END,
};
static const struct cli_option install_local_options[] = {
	STRING("--sums", "FILE", struct opts_install_local, sums,
	       "the SHA256SUMS to check the tarball against (default: beside it)"),
	STRING("--sig", "FILE", struct opts_install_local, sig,
	       "the minisign signature of the sums (default: SUMS.minisig when present)"),
	FLAG("--no-smoke", struct opts_install_local, no_smoke, "skip the smoke tests"),
	END,
};
static const struct cli_option verify_options[] = {
	{"--repair", NULL, "fetch a damaged version anew from the release source", OPT_FLAG,
	 offsetof(struct opts_verify, repair), 0, 0, NULL, 1},
	END,
};
static const struct cli_option smoke_options[] = {
	LIST("--tests", "LIST", struct opts_smoke, tests,
	     "run only these of the six tests (vk.compute,cl.kernel…); with --suite opencl-cts the CTS binaries (basic,api…)"),
	CHOICE("--suite", "SUITE", "piglit-cl|opencl-cts|dEQP-VK|deqp-vk", struct opts_smoke, suite,
	       "piglit-cl, opencl-cts or dEQP-VK (deqp-vk is the same)"),
	CHOICE("--profile", "quick|full", "quick|full", struct opts_smoke, profile,
	       "piglit's profile (with --suite piglit-cl)"),
	STRING("--filter", "REGEX", struct opts_smoke, filter,
	       "only piglit's tests that match (with --suite piglit-cl)"),
	STRING("--subtests", "REGEX", struct opts_smoke, subtests,
	       "only the OpenCL-CTS sub-tests whose BINARY/SUB-TEST matches (with --suite opencl-cts)"),
	{"--budget", "SECONDS", "stop an OpenCL-CTS or dEQP-VK run after this long, saying what did not run",
	 OPT_INT, offsetof(struct opts_smoke, budget), 1, 7 * 86400, NULL, 0},
	{"--jobs", "N", "run this many OpenCL-CTS or dEQP-VK processes at once (default: the cores)",
	 OPT_INT, offsetof(struct opts_smoke, jobs), 1, 64, NULL, 0},
	LIST("--groups", "LIST", struct opts_smoke, groups,
	     "the dEQP-VK groups (default compute,synchronization,synchronization2,memory_model; quick: api.smoke,info)"),
	STRING("--fraction", "N[/K]", struct opts_smoke, fraction,
	       "every N-th dEQP-VK case from the K-th on (with --suite dEQP-VK)"),
	STRING("--cts", "DIR", struct opts_smoke, cts,
	       "the OpenCL-CTS binaries (default cts_dir of mesa.conf, else build-recipes/opencl-cts's)"),
	STRING("--deqp", "PATH", struct opts_smoke, deqp,
	       "the dEQP-VK binary or its directory (default deqp_dir of mesa.conf, else build-recipes/deqp-vk's); "
	       "without --suite, run it over --caselist on the store's build alone"),
	STRING("--caselist", "FILE", struct opts_smoke, caselist,
	       "dEQP-VK cases to run, one name a line (instead of --groups)"),
	FLAG("--all", struct opts_smoke, all,
	     "a suite's table lists every test, not only those whose results differ"),
	END,
};
static const struct cli_option bench_options[] = {
	STRING("--command", "CMD", struct opts_bench, command,
	       "another benchmark, by sh -c, its \"label : 12.5 GB/s\" lines read (default clpeak, its XML read)"),
	LIST("--tests", "LIST", struct opts_bench, tests,
	     "only these of clpeak's tests (compute-sp,kernel-latency…)"),
	{"--rounds", "N", "rounds through run and distro alternately (default " BENCH_ROUNDS_TEXT ")",
	 OPT_INT, offsetof(struct opts_bench, rounds), 1, 1000, NULL, 0},
	END,
};
/* The caller's own rules: the store is only read (its versions), whoever may write it. */
#define APP_USER \
	{"--user", NULL, "your own rules (in your configuration and ~/.local/share/applications), no root needed", \
	 OPT_FLAG, offsetof(struct opts_app, user), 0, 0, NULL, -1}
static const struct cli_option app_user[] = {APP_USER, END};
static const struct cli_option app_set_options[] = {APP_USER, DRY_RUN(struct opts_app), END};
#define PACK(name, arg, field, help) STRING(name, arg, struct opts_pack, field, help)
static const struct cli_option pack_options[] = {
	PACK("--stage", "DIR", stage, "the release tree (DIR/lib/…, DIR/share/…); required"),
	PACK("--version", "V", version, "the release's version, like 2026.10.06; required"),
	PACK("--arch", "A", arch, "its architecture (default: this machine's)"),
	PACK("--commit", "C", commit, "the port's Mesa commit"),
	PACK("--base", "B", base, "the upstream Mesa commit it is based on"),
	PACK("--mesa-version", "M", mesa_version, "Mesa's own version, like 26.3.0-devel"),
	LIST("--drivers", "LIST", struct opts_pack, drivers, "vulkan,opencl (default both)"),
	PACK("--vulkan-lib", "PATH", vulkan_lib, "the Vulkan driver in the tree (lib/libvulkan_freedreno.so)"),
	PACK("--vulkan-api", "X.Y.Z", vulkan_api, "the api_version of the ICD file"),
	PACK("--vulkan-driver-id", "N", vulkan_driver_id, "the VkDriverId the smoke test expects"),
	PACK("--opencl-lib", "PATH", opencl_lib, "the OpenCL driver in the tree (lib/libRusticlOpenCL.so.1)"),
	PACK("--rusticl-enable", "DRIVER", rusticl_enable, "RUSTICL_ENABLE's value (freedreno)"),
	PACK("--ld-library-path", "lib", ld_library_path, "the release needs LD_LIBRARY_PATH=its lib/"),
	PACK("--min-glibc", "X.Y", min_glibc, "the glibc the release needs at least"),
	CHOICE("--compress", "gz|zst|xz", "gz|zst|xz", struct opts_pack, compress,
	       "the tarball's compression (default gz)"),
	FLAG("--keep-links", struct opts_pack, keep_links,
	     "keep the tree's symbolic links as links (old tools cannot read them)"),
	END,
};

/* How the body gets the store, where its operand goes, and whether it must be there. */
#define READS OPEN_READER, 0, 0, NULL, NULL, 0, 0
#define WRITES OPEN_WRITER, 0, 0, NULL, NULL, 0, 0
#define OPERAND(open, type, field, required, check) open, offsetof(type, field), required, check, NULL, 0, 0
/* A writer that may make the store where there is none (it brings a release or a rule in). */
#define WRITES_MAKING_STORE OPEN_WRITER, 0, 0, NULL, NULL, 1, 0
#define OPERAND_MAKING_STORE(open, type, field, required, check) \
	open, offsetof(type, field), required, check, NULL, 1, 0
/* A writer whose VERSION goes: completion offers only the versions it would take. */
#define OPERAND_REMOVING(type, field) OPEN_WRITER, offsetof(type, field), 1, NULL, NULL, 0, 1
/* A group: the words after its name are one of its commands'. */
#define GROUP(subs) OPEN_NONE, 0, 0, NULL, subs, 0, 0

/* `app …`: per-application rules (docs/design.md §16). */
static const struct cli_command app_commands[] = {
	{"app set", cmd_app_set, "APP current|previous|VERSION|distro [--user] [--dry-run]",
	 "give one desktop application its own Mesa, kept in its desktop entry",
	 "tb323fu-ctl mesa app set org.darktable.darktable distro", 1, OPERAND_APP_CHOICE, app_set_options,
	 OPERAND_MAKING_STORE(OPEN_WRITER, struct opts_app, app, 2, check_app_set)},
	{"app unset", cmd_app_unset, "APP [--user]",
	 "remove an application's rule, and the desktop entry that carried it",
	 "tb323fu-ctl mesa app unset org.darktable.darktable", 1, OPERAND_APP, app_user,
	 OPERAND(OPEN_WRITER, struct opts_app, app, 1, NULL)},
	{"app list", cmd_app_list, "[--user]", "every application rule, the system's and your own (--user: yours)",
	 "tb323fu-ctl mesa app list", 0, OPERAND_NONE, app_user,
	 READS},
	{"app refresh", cmd_app_refresh, "[--user]",
	 "rebuild the rules' desktop entries from their originals (the package's trigger runs it)",
	 "tb323fu-ctl mesa app refresh", 1, OPERAND_NONE, app_user,
	 WRITES},
	/* The package's prerm: the entries start the launcher that goes with the package. Ours
	 * are told from another's by the one rule every app command applies, not by a grep.
	 * A reader: it changes no rule and must not create a store on the way out. */
	{"app clear", cmd_app_clear, "[--user]",
	 "remove every desktop entry of ours, keeping the rules (the package's removal runs it)",
	 "tb323fu-ctl mesa app clear", 0, OPERAND_NONE, app_user,
	 READS},
	{.name = NULL},
};

/* Keep in the order of docs/design.md §5: help lists them as they are here. */
const struct cli_command cli_commands[] = {
	{"status", cmd_status, "", "what is installed and switched on (the default command)",
	 "tb323fu-ctl mesa status --json", 0, OPERAND_NONE, no_options,
	 READS},
	{"list", cmd_list, "", "installed versions, newest first",
	 "tb323fu-ctl mesa list", 0, OPERAND_NONE, no_options,
	 READS},
	{"check", cmd_check, "", "refresh the release list and say what the channel offers",
	 "tb323fu-ctl mesa check", 1, OPERAND_NONE, no_options,
	 WRITES_MAKING_STORE},
	{"download", cmd_download, "[VERSION]",
	 "fetch, verify and unpack a version (default the newest) without installing it",
	 "tb323fu-ctl mesa download 2026.10.06", 1, OPERAND_RELEASE, no_options,
	 OPERAND_MAKING_STORE(OPEN_WRITER, struct opts_version, version, 0, NULL)},
	{"install", cmd_install, "[VERSION] [--no-smoke] [--dry-run]",
	 "make a downloaded version current and smoke-test it (rolls back on failure)",
	 "tb323fu-ctl mesa install 2026.10.06", 1, OPERAND_VERSION, install_options,
	 OPERAND(OPEN_WRITER, struct opts_install, version, 0, NULL)},
	{"update", cmd_update, "[--no-smoke] [--dry-run]",
	 "check, download and install when the channel has a newer version",
	 "tb323fu-ctl mesa update", 1, OPERAND_NONE, install_options,
	 WRITES_MAKING_STORE},
	{"install-local", cmd_install_local, "FILE [--sums FILE] [--sig FILE] [--no-smoke]",
	 "verify, unpack, install and smoke-test a release tarball on disk",
	 "tb323fu-ctl mesa install-local tb323fu-mesa-2026.10.06-aarch64.tar.gz", 1, OPERAND_FILE,
	 install_local_options,
	 OPERAND_MAKING_STORE(OPEN_WRITER, struct opts_install_local, file, 1, NULL)},
	{"on", cmd_on, "", "use the current version for every program from the next login (on trial)",
	 "tb323fu-ctl mesa on", 1, OPERAND_NONE, no_options,
	 WRITES},
	{"off", cmd_off, "", "use the distribution's Mesa again from the next login",
	 "tb323fu-ctl mesa off", 1, OPERAND_NONE, no_options,
	 WRITES},
	{"keep", cmd_keep, "", "confirm the version on trial", "tb323fu-ctl mesa keep", 1,
	 OPERAND_NONE, no_options,
	 WRITES},
	{"rollback", cmd_rollback, "[--dry-run]", "swap the current and the previous version",
	 "tb323fu-ctl mesa rollback", 1, OPERAND_NONE, dry_run_only,
	 WRITES},
	{"boot-tick", cmd_boot_tick, "",
	 "count one start of the version on trial (run once a boot by systemd)",
	 "tb323fu-ctl --wait mesa boot-tick", 1, OPERAND_NONE, no_options,
	 WRITES},
	{"remove", cmd_remove, "VERSION [--dry-run]", "remove a version that is neither current nor previous",
	 "tb323fu-ctl mesa remove 2026.09.30", 1, OPERAND_VERSION, dry_run_only,
	 OPERAND_REMOVING(struct opts_version, version)},
	{"verify", cmd_verify, "[VERSION] [--repair]",
	 "re-hash an installed version (default current) against its MANIFEST",
	 "tb323fu-ctl mesa verify", 0, OPERAND_VERSION, verify_options,
	 OPERAND(OPEN_READER, struct opts_verify, version, 0, NULL)},
	{"smoke", cmd_smoke, "[VERSION] [--tests LIST | --suite SUITE [OPTIONS] | --deqp PATH --caselist FILE]",
	 "run the smoke tests against a version (default current)",
	 "tb323fu-ctl mesa smoke 2026.10.06", 1, OPERAND_VERSION, smoke_options,
	 OPERAND(OPEN_WRITER, struct opts_smoke, version, 0, check_smoke)},
	{"bench", cmd_bench, "[VERSION] [--command CMD | --tests LIST] [--rounds N]",
	 "run a benchmark through run and distro alternately and compare the medians",
	 "tb323fu-ctl mesa bench --rounds 5", 1, OPERAND_VERSION, bench_options,
	 OPERAND(OPEN_WRITER, struct opts_bench, version, 0, check_bench)},
	{"doctor", cmd_doctor, "",
	 "explain what programs get now and list every problem (exit 1 when there is one)",
	 "tb323fu-ctl mesa doctor", 0, OPERAND_NONE, no_options,
	 READS},
	{"notes", cmd_notes, "[VERSION]",
	 "the release notes of a version (default the channel's newest), from the cached release list, and its build record when installed",
	 "tb323fu-ctl mesa notes", 0, OPERAND_RELEASE, no_options,
	 OPERAND(OPEN_READER, struct opts_version, version, 0, NULL)},
	{"takeover", cmd_takeover, "",
	 "complete a store the Open Device Helper made with this tool's files, keeping its state",
	 "tb323fu-ctl mesa takeover", 1, OPERAND_NONE, no_options,
	 READS},
	{"auto-check", cmd_auto_check, "",
	 "what the daily timer runs: check, and download when auto_download = on",
	 "tb323fu-ctl mesa auto-check", 1, OPERAND_NONE, no_options,
	 WRITES_MAKING_STORE},
	{"app", NULL, "set|unset|list|refresh [ARGS] [--user]",
	 "give one desktop application its own Mesa, kept in its desktop entry",
	 "tb323fu-ctl mesa app set org.darktable.darktable distro", 0, OPERAND_NONE, no_options,
	 GROUP(app_commands)},
	{"pack", cmd_pack, "--stage DIR --version V [OPTIONS] OUTDIR",
	 "make a release (tarball and SHA256SUMS) from a release tree",
	 "tb323fu-ctl mesa pack --stage stage --version 2026.10.06 out", 0, OPERAND_DIR,
	 pack_options,
	 OPERAND(OPEN_NONE, struct opts_pack, outdir, 1, check_pack)},
};
const size_t cli_commands_count = sizeof cli_commands / sizeof *cli_commands;

const struct cli_command *cli_command_find(const char *name)
{
	for (size_t i = 0; i < cli_commands_count; i++)
		if (!strcmp(cli_commands[i].name, name))
			return &cli_commands[i];
	return NULL;
}

const struct cli_command *cli_sub_find(const struct cli_command *group, const char *word)
{
	size_t n = strlen(group->name);
	for (const struct cli_command *sub = group->subs; sub && sub->name; sub++)
		if (!strcmp(sub->name + n + 1, word))
			return sub;
	return NULL;
}

const struct cli_option *cli_option_find(const struct cli_option *list, const char *name)
{
	size_t n = strcspn(name, "=");
	for (; list && list->name; list++)
		if (strlen(list->name) == n && !strncmp(list->name, name, n))
			return list;
	return NULL;
}
