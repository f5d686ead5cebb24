/* The table of tb323fu-ctl's commands and options (see cli_table.h); docs/design.md §5. */
#include "cli_table.h"
#include "bench.h"

#include <string.h>

#define END {NULL, NULL, NULL}

const struct cli_option cli_global_options[] = {
	{"--store", "DIR", "the store to use (default $TB323FU_MESA_DIR, else " STORE_DEFAULT_DIR ")"},
	{"--config", "FILE", "the configuration file (default $TB323FU_MESA_CONFIG, else " TB_SYSCONFDIR "/tb323fu/mesa.conf)"},
	{"--json", NULL, "print one JSON object instead of sentences"},
	{"--progress", "MODE", "auto, bar, json (JSON lines on stderr) or none"},
	{"--wait", NULL, "wait for another writer instead of exiting 3 (busy)"},
	{"--help", NULL, "show help and exit"},
	{"--version", NULL, "print the program's version and exit"},
	END,
};
const size_t cli_global_options_count = sizeof cli_global_options / sizeof *cli_global_options - 1;

static const struct cli_option no_options[] = {END};
static const struct cli_option no_smoke[] = {
	{"--no-smoke", NULL, "skip the smoke tests (as `smoke = off` in mesa.conf)"},
	END,
};
static const struct cli_option install_local_options[] = {
	{"--sums", "FILE", "the SHA256SUMS to check the tarball against (default: beside it)"},
	{"--sig", "FILE", "the minisign signature of the sums (default: SUMS.minisig when present)"},
	{"--no-smoke", NULL, "skip the smoke tests"},
	END,
};
static const struct cli_option smoke_options[] = {
	{"--tests", "LIST", "run only these of the six tests (vk.compute,cl.kernel…); with --suite opencl-cts the CTS binaries (basic,api…)"},
	{"--suite", "SUITE", "piglit-cl, opencl-cts, or deqp-vk (with --deqp and --caselist)"},
	{"--profile", "quick|full", "piglit's profile (with --suite piglit-cl)"},
	{"--filter", "REGEX", "only piglit's tests that match (with --suite piglit-cl)"},
	{"--subtests", "REGEX", "only the OpenCL-CTS sub-tests whose BINARY/SUB-TEST matches (with --suite opencl-cts)"},
	{"--budget", "SECONDS", "stop the OpenCL-CTS run after this long, saying what did not run"},
	{"--cts", "DIR", "the OpenCL-CTS binaries (default cts_dir of mesa.conf, else build-recipes/opencl-cts's)"},
	{"--deqp", "PATH", "run a dEQP-VK binary over a case list instead of the built-in tests"},
	{"--caselist", "FILE", "the dEQP case list (with --deqp)"},
	{"--all", NULL, "a suite's table lists every test, not only those whose results differ"},
	END,
};
static const struct cli_option bench_options[] = {
	{"--command", "CMD", "another benchmark, by sh -c, its \"label : 12.5 GB/s\" lines read (default clpeak, its XML read)"},
	{"--tests", "LIST", "only these of clpeak's tests (compute-sp,kernel-latency…)"},
	{"--rounds", "N", "rounds through run and distro alternately (default " BENCH_ROUNDS_TEXT ")"},
	END,
};
static const struct cli_option pack_options[] = {
	{"--stage", "DIR", "the release tree (DIR/lib/…, DIR/share/…); required"},
	{"--version", "V", "the release's version, like 2026.10.06; required"},
	{"--arch", "A", "its architecture (default: this machine's)"},
	{"--commit", "C", "the port's Mesa commit"},
	{"--base", "B", "the upstream Mesa commit it is based on"},
	{"--mesa-version", "M", "Mesa's own version, like 26.3.0-devel"},
	{"--drivers", "LIST", "vulkan,opencl (default both)"},
	{"--vulkan-lib", "PATH", "the Vulkan driver in the tree (lib/libvulkan_freedreno.so)"},
	{"--vulkan-api", "X.Y.Z", "the api_version of the ICD file"},
	{"--vulkan-driver-id", "N", "the VkDriverId the smoke test expects"},
	{"--opencl-lib", "PATH", "the OpenCL driver in the tree (lib/libRusticlOpenCL.so.1)"},
	{"--rusticl-enable", "DRIVER", "RUSTICL_ENABLE's value (freedreno)"},
	{"--ld-library-path", "lib", "the release needs LD_LIBRARY_PATH=its lib/"},
	{"--min-glibc", "X.Y", "the glibc the release needs at least"},
	{"--compress", "gz|zst|xz", "the tarball's compression (default gz)"},
	{"--keep-links", NULL, "keep the tree's symbolic links as links (old tools cannot read them)"},
	END,
};

/* Keep in the order of docs/design.md §5: help lists them as they are here. */
const struct cli_command cli_commands[] = {
	{"status", cmd_status, "", "what is installed and switched on (the default command)",
	 "tb323fu-ctl mesa status --json", 0, OPERAND_NONE, no_options},
	{"list", cmd_list, "", "installed versions, newest first",
	 "tb323fu-ctl mesa list", 0, OPERAND_NONE, no_options},
	{"check", cmd_check, "", "refresh the release list and say what the channel offers",
	 "tb323fu-ctl mesa check", 1, OPERAND_NONE, no_options},
	{"download", cmd_download, "[VERSION]",
	 "fetch, verify and unpack a version (default the newest) without installing it",
	 "tb323fu-ctl mesa download 2026.10.06", 1, OPERAND_OTHER, no_options},
	{"install", cmd_install, "[VERSION] [--no-smoke]",
	 "make a downloaded version current and smoke-test it (rolls back on failure)",
	 "tb323fu-ctl mesa install 2026.10.06", 1, OPERAND_VERSION, no_smoke},
	{"update", cmd_update, "[--no-smoke]",
	 "check, download and install when the channel has a newer version",
	 "tb323fu-ctl mesa update", 1, OPERAND_NONE, no_smoke},
	{"install-local", cmd_install_local, "FILE [--sums FILE] [--sig FILE] [--no-smoke]",
	 "verify, unpack, install and smoke-test a release tarball on disk",
	 "tb323fu-ctl mesa install-local tb323fu-mesa-2026.10.06-aarch64.tar.gz", 1, OPERAND_FILE,
	 install_local_options},
	{"on", cmd_on, "", "use the current version for every program from the next login (on trial)",
	 "tb323fu-ctl mesa on", 1, OPERAND_NONE, no_options},
	{"off", cmd_off, "", "use the distribution's Mesa again from the next login",
	 "tb323fu-ctl mesa off", 1, OPERAND_NONE, no_options},
	{"keep", cmd_keep, "", "confirm the version on trial", "tb323fu-ctl mesa keep", 1,
	 OPERAND_NONE, no_options},
	{"rollback", cmd_rollback, "", "swap the current and the previous version",
	 "tb323fu-ctl mesa rollback", 1, OPERAND_NONE, no_options},
	{"boot-tick", cmd_boot_tick, "",
	 "count one start of the version on trial (run once a boot by systemd)",
	 "tb323fu-ctl --wait mesa boot-tick", 1, OPERAND_NONE, no_options},
	{"remove", cmd_remove, "VERSION", "remove a version that is neither current nor previous",
	 "tb323fu-ctl mesa remove 2026.09.30", 1, OPERAND_VERSION, no_options},
	{"verify", cmd_verify, "[VERSION]",
	 "re-hash an installed version (default current) against its MANIFEST",
	 "tb323fu-ctl mesa verify", 0, OPERAND_VERSION, no_options},
	{"smoke", cmd_smoke, "[VERSION] [--tests LIST | --suite SUITE [OPTIONS] | --deqp PATH --caselist FILE]",
	 "run the smoke tests against a version (default current)",
	 "tb323fu-ctl mesa smoke 2026.10.06", 1, OPERAND_VERSION, smoke_options},
	{"bench", cmd_bench, "[VERSION] [--command CMD | --tests LIST] [--rounds N]",
	 "run a benchmark through run and distro alternately and compare the medians",
	 "tb323fu-ctl mesa bench --rounds 5", 1, OPERAND_VERSION, bench_options},
	{"doctor", cmd_doctor, "",
	 "explain what programs get now and list every problem (exit 1 when there is one)",
	 "tb323fu-ctl mesa doctor", 0, OPERAND_NONE, no_options},
	{"notes", cmd_notes, "[VERSION]",
	 "the release notes of a version (default the channel's newest), from the cached release list",
	 "tb323fu-ctl mesa notes", 0, OPERAND_OTHER, no_options},
	{"takeover", cmd_takeover, "",
	 "complete a store the Open Device Helper made with this tool's files, keeping its state",
	 "tb323fu-ctl mesa takeover", 1, OPERAND_NONE, no_options},
	{"auto-check", cmd_auto_check, "",
	 "what the daily timer runs: check, and download when auto_download = on",
	 "tb323fu-ctl mesa auto-check", 1, OPERAND_NONE, no_options},
	{"pack", cmd_pack, "--stage DIR --version V [OPTIONS] OUTDIR",
	 "make a release (tarball and SHA256SUMS) from a release tree",
	 "tb323fu-ctl mesa pack --stage stage --version 2026.10.06 out", 0, OPERAND_DIR,
	 pack_options},
};
const size_t cli_commands_count = sizeof cli_commands / sizeof *cli_commands;

const struct cli_command *cli_command_find(const char *name)
{
	for (size_t i = 0; i < cli_commands_count; i++)
		if (!strcmp(cli_commands[i].name, name))
			return &cli_commands[i];
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
