/* `tb323fu-mesa which`: what a run would load (from the env file and the files it names), or
 * with --pid what a running process has really loaded (from /proc/PID/maps). */
#include "common/secure_exec.h"
#include "launcher/jsonout.h"
#include "launcher/help.h"
#include "launcher/launcher.h"
#include "common/flatpakname.h"
#include "common/termtext.h"
#include "launcher/message.h"
#include "launcher/procmaps.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_LISTED 32

struct path_list {
	char *p[MAX_LISTED];
	size_t n;
};

static void list_add(struct path_list *l, const char *path)
{
	if (l->n < MAX_LISTED) {
		char *copy = strdup(path);
		if (copy)
			l->p[l->n++] = copy;
	}
}

static void list_free(struct path_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->p[i]);
	l->n = 0;
}

static int is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Splits a ':'-separated value into the list (empty entries skipped). */
static void split_paths(const char *value, struct path_list *out)
{
	char entry[STORE_PATH_MAX];
	const char *p = value;
	while (p && *p) {
		const char *colon = strchr(p, ':');
		size_t n = colon ? (size_t)(colon - p) : strlen(p);
		if (n > 0 && n < sizeof entry) {
			memcpy(entry, p, n);
			entry[n] = '\0';
			list_add(out, entry);
		}
		p = colon ? colon + 1 : NULL;
	}
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* The Vulkan driver libraries a release ships: by name in its lib/ (the ICD json names the one
 * the loader opens; the launcher reads no JSON, and Mesa names every Vulkan driver
 * libvulkan_<driver>.so). */
static void release_vulkan_drivers(const char *release, struct path_list *out)
{
	char lib[STORE_PATH_MAX];
	if (path_concat(lib, sizeof lib, release, "/lib", NULL) != 0)
		return;
	DIR *d = opendir(lib);
	if (!d)
		return;
	struct dirent *de;
	char names[MAX_LISTED][256];
	size_t n = 0;
	while ((de = readdir(d)) && n < MAX_LISTED)
		if (driver_api_of(de->d_name) == GPU_API_VULKAN && strlen(de->d_name) < 256)
			strcpy(names[n++], de->d_name);
	closedir(d);
	qsort(names, n, sizeof names[0], compare_names);
	for (size_t i = 0; i < n; i++) {
		char path[STORE_PATH_MAX];
		if (path_concat(path, sizeof path, lib, "/", names[i]) == 0)
			list_add(out, path);
	}
}

/* An OpenCL vendor file holds one line: the library's path or file name. */
static void vendor_library(const char *icd, struct path_list *out)
{
	char text[STORE_PATH_MAX + 1];
	long n = envfile_read(icd, text, sizeof text);
	if (n <= 0)
		return;
	text[strcspn(text, "\r\n")] = '\0';
	if (*text)
		list_add(out, text);
}

/* OCL_ICD_VENDORS is a directory of *.icd files (or, for ocl-icd, one such file). */
static void opencl_vendors(const char *vendors, struct path_list *icds, struct path_list *libs)
{
	struct stat st;
	if (stat(vendors, &st) != 0)
		return;
	if (!S_ISDIR(st.st_mode)) {
		list_add(icds, vendors);
	} else {
		struct dirent **entries;
		int n = scandir(vendors, &entries, NULL, alphasort);
		for (int i = 0; i < n; i++) {
			size_t len = strlen(entries[i]->d_name);
			char path[STORE_PATH_MAX];
			if (len > 4 && strcmp(entries[i]->d_name + len - 4, ".icd") == 0 &&
			    path_concat(path, sizeof path, vendors, "/", entries[i]->d_name) == 0)
				list_add(icds, path);
			free(entries[i]);
		}
		if (n >= 0)
			free(entries);
	}
	for (size_t i = 0; i < icds->n; i++)
		vendor_library(icds->p[i], libs);
}

static void json_list(const char *key, const struct path_list *l)
{
	json_string(stdout, key);
	fputs(":[", stdout);
	for (size_t i = 0; i < l->n; i++) {
		fputs(i ? "," : "", stdout);
		json_string(stdout, l->p[i]);
	}
	fputc(']', stdout);
}

static void human_list(const char *what, const struct path_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		printf("%s %s%s\n", what, l->p[i],
		       l->p[i][0] == '/' && !is_file(l->p[i]) ? " (missing)" : "");
}

static struct launch_env loaded, loaded_gl;

/* A variable's value in a GL env file, or "" (not set, or no GL). */
static const char *gl_value(const struct env_list *gl, const char *name)
{
	const struct env_var *v = gl ? env_list_find(gl, name) : NULL;
	return v ? v->value : "";
}

/* What GL a run gives (docs/design.md §6): the mode's word, and why the distribution's. */
static const char *gl_mode_of(const char *asked, const struct env_list *gl)
{
	if (!gl)
		return "distro";
	return asked && strcmp(asked, "zink") == 0 ? "zink" : "native";
}

static void gl_json(const char *asked, const struct env_list *gl, const char *file,
		    const struct path_list *vendors, const struct path_list *dirs)
{
	fputs(",\"gl\":{\"mode\":", stdout);
	json_string(stdout, gl_mode_of(asked, gl));
	fputs(",\"file\":", stdout);
	json_string(stdout, gl ? file : "");
	fputc(',', stdout);
	json_list("egl_vendor_files", vendors);
	fputs(",\"drivers_dir\":", stdout);
	json_string(stdout, gl_value(gl, ENV_LIBGL_DRIVERS_PATH));
	fputs(",\"gbm_backends_dir\":", stdout);
	json_string(stdout, gl_value(gl, ENV_GBM_BACKENDS_PATH));
	fputs(",\"glx_vendor\":", stdout);
	json_string(stdout, gl_value(gl, ENV_GLX_VENDOR_NAME));
	fputc(',', stdout);
	json_list("ld_library_path", dirs);
	printf(",\"software\":%s}", *gl_value(gl, ENV_LIBGL_ALWAYS_SOFTWARE) ? "true" : "false");
}

static void gl_human(const char *shown, const char *asked, const struct env_list *gl,
		     const struct path_list *vendors, const struct path_list *dirs)
{
	if (!gl) {
		if (asked && strcmp(asked, "distro") == 0)
			printf("GL: the distribution's (--gl distro); the drivers above are the store's\n");
		else
			printf("GL: the distribution's (Mesa %s carries no GL)\n", shown);
		return;
	}
	if (strcmp(gl_mode_of(asked, gl), "zink") == 0)
		printf("GL: Mesa %s's, on Zink over its Vulkan driver%s\n", shown,
		       *gl_value(gl, ENV_LIBGL_ALWAYS_SOFTWARE) ? " (software rendering asked for)" : "");
	else
		printf("GL: Mesa %s's own gallium driver\n", shown);
	human_list("EGL vendor file", vendors);
	if (*gl_value(gl, ENV_LIBGL_DRIVERS_PATH))
		printf("GL driver directory %s\n", gl_value(gl, ENV_LIBGL_DRIVERS_PATH));
	if (*gl_value(gl, ENV_GBM_BACKENDS_PATH))
		printf("GBM backend directory %s\n", gl_value(gl, ENV_GBM_BACKENDS_PATH));
	if (*gl_value(gl, ENV_GLX_VENDOR_NAME))
		printf("GLX vendor %s\n", gl_value(gl, ENV_GLX_VENDOR_NAME));
	for (size_t i = 0; i < dirs->n; i++)
		printf("GL library directory %s (before the inherited LD_LIBRARY_PATH)\n", dirs->p[i]);
}

/* The version `run` started this program on (TB323FU_MESA_VERSION, set by run with the store
 * it came from), when root is that store and holds it; NULL otherwise. */
static const char *started_on(const char *root)
{
	const char *v = getenv(STORE_VERSION_VAR), *from = getenv(STORE_ROOT_VAR);
	char dir[STORE_PATH_MAX], a[PATH_MAX], b[PATH_MAX];
	struct stat st;
	if (!v || !version_name_ok(v) || !from || !realpath(from, a) || !realpath(root, b) || strcmp(a, b) != 0)
		return NULL;
	if (path_concat(dir, sizeof dir, root, "/versions/", v) != 0 || lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return NULL;
	return v;
}

static int which_selection(const char *root, const char *version, const char *gl_mode, int json)
{
	const char *started = version ? NULL : started_on(root);
	if (started)
		version = started;
	int rc = launch_env_load(&loaded, root, version);
	if (rc != 0)
		return rc;
	const struct env_list *gl = launch_gl_select(&loaded_gl, root, version, gl_mode, "ask again", &rc);
	if (rc != 0)
		return rc;
	char real[PATH_MAX], link[STORE_PATH_MAX], release[PATH_MAX], current[80];
	const char *realroot = realpath(root, real) ? real : root;
	const char *shown = version ? version : store_current_version(root, current, sizeof current);
	if (version)
		path_concat(release, sizeof release, realroot, "/versions/", version);
	else if (path_concat(link, sizeof link, realroot, "/current", NULL) != 0 ||
		 !realpath(link, release))
		release[0] = '\0';

	struct path_list icds = {0}, vk_drivers = {0}, cl_icds = {0}, cl_drivers = {0}, ld = {0};
	const struct env_var *v = env_list_find(&loaded.list, ENV_VK_DRIVER_FILES);
	if (!v)
		v = env_list_find(&loaded.list, ENV_VK_ICD_FILENAMES);
	if (v)
		split_paths(v->value, &icds);
	if (v && *release)
		release_vulkan_drivers(release, &vk_drivers);
	const struct env_var *vendors = env_list_find(&loaded.list, ENV_OCL_ICD_VENDORS);
	if (vendors)
		opencl_vendors(vendors->value, &cl_icds, &cl_drivers);
	const struct env_var *rusticl = env_list_find(&loaded.list, ENV_RUSTICL_ENABLE);
	const struct env_var *ldv = env_list_find(&loaded.list, ENV_LD_LIBRARY_PATH);
	if (ldv)
		split_paths(ldv->value, &ld);
	struct path_list egl_vendors = {0}, gl_ld = {0};
	split_paths(gl_value(gl, ENV_EGL_VENDOR_FILES), &egl_vendors);
	split_paths(gl_value(gl, ENV_LD_LIBRARY_PATH), &gl_ld);

	if (json) {
		char said[PATH_MAX * 2 + 160];
		snprintf(said, sizeof said, "Mesa %s%s from the store %s (%s)", shown ? shown : "(unknown version)",
			 started ? ", the version this program was started on," : version ? "" : ", the current version,",
			 realroot, loaded.path);
		fputs("{\"ok\":true,\"message\":", stdout);
		json_string(stdout, said);
		fputs(",\"version\":", stdout);
		json_string(stdout, shown ? shown : "");
		printf(",\"current\":%s,\"store\":", version ? "false" : "true");
		json_string(stdout, realroot);
		fputs(",\"env_file\":", stdout);
		json_string(stdout, loaded.path);
		fputs(",\"vulkan\":{", stdout);
		json_list("icd_files", &icds);
		fputc(',', stdout);
		json_list("drivers", &vk_drivers);
		fputs("},\"opencl\":{\"vendors\":", stdout);
		json_string(stdout, vendors ? vendors->value : "");
		fputc(',', stdout);
		json_list("icd_files", &cl_icds);
		fputc(',', stdout);
		json_list("drivers", &cl_drivers);
		fputs(",\"rusticl_enable\":", stdout);
		json_string(stdout, rusticl ? rusticl->value : "");
		fputs("},", stdout);
		json_list("ld_library_path", &ld);
		printf(",\"ld_library_path_prepend\":%s", ldv && ldv->prepend ? "true" : "false");
		gl_json(gl_mode, gl, loaded_gl.path, &egl_vendors, &gl_ld);
		fputs("}\n", stdout);
		message_json_answered();
	} else {
		printf("Mesa %s%s from the store %s (%s)\n", shown ? shown : "(unknown version)",
		       started ? ", the version this program was started on," : version ? "" : ", the current version,",
		       realroot, loaded.path);
		human_list("Vulkan ICD file", &icds);
		human_list("Vulkan driver", &vk_drivers);
		human_list("OpenCL vendor file", &cl_icds);
		human_list("OpenCL driver", &cl_drivers);
		if (rusticl)
			printf("rusticl enabled for %s\n", rusticl->value);
		for (size_t i = 0; i < ld.n; i++)
			printf("library directory %s%s\n", ld.p[i],
			       ldv->prepend ? " (before the inherited LD_LIBRARY_PATH)" : "");
		if (!icds.n && !cl_icds.n)
			printf("this version selects no Vulkan or OpenCL driver\n");
		gl_human(shown ? shown : "(unknown version)", gl_mode, gl, &egl_vendors, &gl_ld);
	}
	list_free(&egl_vendors);
	list_free(&gl_ld);
	list_free(&icds);
	list_free(&vk_drivers);
	list_free(&cl_icds);
	list_free(&cl_drivers);
	list_free(&ld);
	return fflush(stdout) == 0 ? 0 : fail(TB_R_FAILED, "cannot write the output", NULL);
}

/* Reads a /proc file of any size (maps can be long); NULL with errno set on failure. */
static char *read_proc_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return NULL;
	size_t cap = 65536, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		n += fread(buf + n, 1, cap - n, f);
		if (n < cap)
			break;
		char *bigger = cap < (64u << 20) ? realloc(buf, cap * 2) : NULL;
		if (!bigger) {
			free(buf);
			buf = NULL;
			errno = EFBIG;
			break;
		}
		buf = bigger;
		cap *= 2;
	}
	int err = ferror(f) ? errno : 0;
	fclose(f);
	if (buf && err) {
		free(buf);
		errno = err;
		return NULL;
	}
	*len = n;
	return buf;
}

/* A process id as given ("4621"), or 0 when the word is not one. */
static int parse_pid(const char *word)
{
	size_t digits = strspn(word, "0123456789");
	if (digits == 0 || digits != strlen(word) || digits > 10)
		return 0;
	long number = strtol(word, NULL, 10);
	return number > 0 && number <= INT_MAX ? (int)number : 0;
}

/* One process's drivers. several: one of a list, so the human lines name the process and the
 * JSON object is an element of the caller's array (no newline); lead is written before the
 * answer (a separator), not when there is none. */
/* The kernel marks a removed file's mapping with " (deleted)", but a file may also be named
 * so: when a file of the whole name is there with the mapped inode, that file is mapped. */
static void named_deleted(struct mapped_driver *d)
{
	static const char suffix[] = " (deleted)";
	size_t n = strlen(d->path);
	struct stat st;
	if (!d->deleted || n + sizeof suffix > sizeof d->path)
		return;
	memcpy(d->path + n, suffix, sizeof suffix);
	if (stat(d->path, &st) == 0 && (unsigned long)st.st_ino == d->inode)
		d->deleted = 0;
	else
		d->path[n] = '\0';
}

/* The reason of the first process that could not be answered. */
static const char *pid_reason;

static int which_pid(const char *root, int number, int json, int several, const char *lead)
{
	char pid[24], maps_path[64], comm_path[64], comm[64] = "";
	snprintf(pid, sizeof pid, "%d", number);
	snprintf(maps_path, sizeof maps_path, "/proc/%s/maps", pid);
	snprintf(comm_path, sizeof comm_path, "/proc/%s/comm", pid);
	size_t len;
	char *maps = read_proc_file(maps_path, &len);
	if (!maps) {
		int gone = errno == ENOENT;
		char said[256];
		int as_root = geteuid() == 0;
		snprintf(said, sizeof said,
			 gone ? "no process %s is running (ps -e lists those that are)"
			 : as_root ? "cannot read %s: %s (the kernel refuses it even to root here, as it does in a container "
				     "without CAP_SYS_PTRACE or under a Yama ptrace scope of 3: ask where the process runs)"
				   : "cannot read %s: %s (run as the process's owner or as root)",
			 gone ? pid : maps_path, strerror(errno));
		enum tb_reason reason = gone ? TB_R_NOT_FOUND_LOCAL
					: errno == EACCES || errno == EPERM ? TB_R_PERMISSION : TB_R_FAILED;
		if (!pid_reason)
			pid_reason = tb_reason_id(reason);
		if (json && several) { /* one entry of the list, said on stderr too */
			printf("%s{\"pid\":%s,\"ok\":false,\"message\":", lead, pid);
			json_string(stdout, said);
			printf(",\"reason\":\"%s\"}", tb_reason_id(reason));
			say_error(said, NULL);
			return tb_reason_code(reason);
		}
		return fail(reason, said, NULL);
	}
	if (envfile_read(comm_path, comm, sizeof comm) > 0)
		comm[strcspn(comm, "\n")] = '\0';
	/* A process names itself: shown, never obeyed by the terminal. */
	char comm_shown[4 * sizeof comm];
	term_escape(comm_shown, sizeof comm_shown, comm, 0);

	static struct mapped_drivers found;
	procmaps_drivers(maps, len, &found);
	free(maps);
	for (size_t k = 0; k < found.count; k++)
		named_deleted(&found.d[k]);
	char real[PATH_MAX];
	const char *realroot = realpath(root, real) ? real : root;

	/* AT_SECURE: the loaders ignore the store's variables there (docs/design.md §18) */
	int secure = secure_exec_pid(number);
	size_t ours = 0;
	fputs(lead, stdout);
	if (!json && secure == 1)
		printf("process %s (%s) is not switchable: it started with AT_SECURE (file capabilities or set-id bits), where the loaders ignore the store's variables\n",
		       pid, comm_shown);
	if (json) {
		printf("{\"pid\":%s,\"switchable\":%s,\"command\":", pid,
		       secure == 1 ? "false" : secure == 0 ? "true" : "null");
		json_string(stdout, comm);
		fputs(",\"store\":", stdout);
		json_string(stdout, realroot);
		fputs(",\"drivers\":[", stdout);
	} else if (found.count == 0) {
		printf("process %s (%s) has no Vulkan, OpenCL or GL driver loaded\n", pid, comm_shown);
	} else if (several) {
		printf("process %s (%s):\n", pid, comm_shown);
	}
	for (size_t i = 0; i < found.count; i++) {
		const struct mapped_driver *d = &found.d[i];
		char version[80];
		const char *v = store_version_of(d->path, realroot, version, sizeof version);
		/* a sandboxed process maps its GL extension's files (docs/design.md §17) */
		char ext[80];
		int sandbox = v ? 0 : flatpak_path_extension(d->path, ext, sizeof ext);
		if (sandbox == 1)
			v = strcpy(version, ext);
		int in_store = v || path_within(d->path, realroot) || path_within(d->path, root);
		ours += in_store != 0;
		if (json) {
			printf("%s{\"api\":\"%s\",\"path\":", i ? "," : "", gpu_api_name(d->api));
			json_string(stdout, d->path);
			printf(",\"origin\":\"%s\",\"version\":", in_store ? "store" : "system");
			json_string(stdout, v ? v : "");
			printf(",\"deleted\":%s}", d->deleted ? "true" : "false");
		} else {
			static char path_shown[4 * PATH_MAX];
			term_escape(path_shown, sizeof path_shown, d->path, 0);
			printf("%s%s %s: %s%s%s%s%s%s\n", several ? "  " : "",
			       d->api == GPU_API_VULKAN ? "Vulkan driver" : d->api == GPU_API_OPENCL ? "OpenCL driver" : "GL library",
			       path_shown,
			       in_store ? "the store's Mesa" : sandbox ? "the Flatpak runtime's Mesa" : "the distribution's Mesa",
			       v ? " " : "", v ? v : "",
			       sandbox == 1 ? " (its Flatpak extension)" : "",
			       sandbox == 2 ? (strcmp(ext, FLATPAK_GL_DEFAULT) ? " (a GL extension of its own)" : " (its GL extension default)") : "",
			       d->deleted ? " (its file was removed or replaced since it was loaded)"
					  : "");
		}
	}
	if (json) {
		char said[256];
		if (found.count)
			snprintf(said, sizeof said, "process %s (%s) has %zu Vulkan, OpenCL or GL driver librar%s loaded, %zu of them the store's",
				 pid, comm, found.count, found.count == 1 ? "y" : "ies", ours);
		else
			snprintf(said, sizeof said, "process %s (%s) has no Vulkan, OpenCL or GL driver loaded", pid, comm);
		printf("],\"truncated\":%s,\"ok\":true,\"message\":", found.truncated ? "true" : "false");
		json_string(stdout, said);
		printf("}%s", several ? "" : "\n");
		if (!several)
			message_json_answered();
	}
	return fflush(stdout) == 0 ? 0 : fail(TB_R_FAILED, "cannot write the output", NULL);
}

/* The processes asked about, in the order given. */
struct pid_list {
	int *pid;
	size_t n, cap;
};

static void pid_list_add(struct pid_list *l, int pid)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->pid = realloc(l->pid, l->cap * sizeof *l->pid);
		if (!l->pid)
			abort();
	}
	l->pid[l->n++] = pid;
}

/* Adds the ids of one word: "4621", or "4621 4622" (a quoted "$(pidof APP)", which puts one
 * space between ids and none around them). Anything else, a leading space included, is not
 * an id: ' 1' is not pid 1. */
static int take_pids(struct pid_list *l, const char *word)
{
	char one[16];
	if (!*word)
		return 0; /* `--pid "$(pidof APP)"` with APP not running: said as no id at all */
	for (const char *p = word;;) {
		size_t n = strcspn(p, " ");
		int pid = 0;
		if (n < sizeof one) {
			memcpy(one, p, n);
			one[n] = '\0';
			pid = parse_pid(one);
		}
		if (!pid)
			return fail(TB_R_USAGE, "--pid takes process ids, not '", word, "'", NULL);
		pid_list_add(l, pid);
		p += n;
		if (!*p)
			return 0;
		p++;
	}
}

/* --pid with no id after it: most often `--pid $(pidof APP)` when APP is not running. */
static int no_pid_given(const char *next)
{
	return fail(TB_R_USAGE, "--pid needs a process id and got ",
		    next ? "the option " : "nothing", next ? next : "",
		    " (did `pidof APP` find no process? start the application first, or find it with "
		    "ps -e)",
		    NULL);
}

/* Each process in turn; one process is answered as before, several with JSON as one object
 * whose "processes" lists them (each with its own ok and message). A process that has ended
 * is said so and the others are still answered. */
static int which_pids(const char *root, const struct pid_list *l, int json)
{
	int several = l->n > 1, rc = 0;
	size_t answered = 0;
	if (json && several)
		fputs("{\"processes\":[", stdout);
	for (size_t i = 0, shown = 0; i < l->n; i++) {
		const char *lead = !shown ? "" : json ? "," : "\n";
		int one = which_pid(root, l->pid[i], json, several, lead);
		if (one == 0)
			answered++;
		if (one == 0 || (json && several))
			shown++;
		if (one != 0 && rc == 0)
			rc = one;
	}
	if (json && several) {
		char said[128];
		snprintf(said, sizeof said, "%zu of %zu processes answered%s", answered, l->n,
			 answered < l->n ? "; each failed one says why in its entry" : "");
		printf("],\"ok\":%s,\"message\":", answered == l->n ? "true" : "false");
		json_string(stdout, said);
		if (answered < l->n)
			printf(",\"reason\":\"%s\"", pid_reason ? pid_reason : tb_reason_id(TB_R_FAILED));
		fputs("}\n", stdout);
		message_json_answered();
	}
	if (fflush(stdout) != 0)
		return fail(TB_R_FAILED, "cannot write the output", NULL);
	return rc;
}

int cmd_which(const char *root, int argc, char **argv)
{
	const char *version = NULL, *gl_mode = NULL;
	struct pid_list pids = {0};
	int json = 0, asked_pid = 0, rc = 0;
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--json") == 0)
			message_json(1); /* a usage error before it is one JSON object too */
	for (int i = 1; i < argc && rc == 0; i++) {
		const char *arg = argv[i];
		if (strncmp(arg, "--version", 9) == 0 && (arg[9] == '=' || arg[9] == '\0')) {
			version = arg[9] == '=' ? arg + 10 : (i + 1 < argc ? argv[++i] : NULL);
			if (!version || !*version)
				rc = fail(TB_R_USAGE, "--version needs a value", NULL);
		} else if (strncmp(arg, "--pid", 5) == 0 && (arg[5] == '=' || arg[5] == '\0')) {
			/* --pid ID [ID…]: every word up to the next option is a process id. */
			size_t before = pids.n;
			asked_pid = 1;
			if (arg[5] == '=' && !arg[6])
				rc = no_pid_given(NULL);
			else if (arg[5] == '=')
				rc = take_pids(&pids, arg + 6);
			while (rc == 0 && i + 1 < argc && argv[i + 1][0] != '-')
				rc = take_pids(&pids, argv[++i]);
			if (rc == 0 && pids.n == before)
				rc = no_pid_given(arg[5] == '\0' && i + 1 < argc ? argv[i + 1] : NULL);
		} else if (strncmp(arg, "--gl", 4) == 0 && (arg[4] == '=' || arg[4] == '\0')) {
			gl_mode = arg[4] == '=' ? arg + 5 : (i + 1 < argc ? argv[++i] : NULL);
			if (!launch_gl_mode_ok(gl_mode))
				rc = launch_gl_mode_refused(gl_mode);
		} else if (strcmp(arg, "--json") == 0) {
			json = 1;
		} else {
			rc = unknown_word("which", arg);
		}
	}
	if (rc == 0 && asked_pid && gl_mode)
		rc = fail(TB_R_USAGE,
			  "which takes --pid or --gl, not both (a process has already loaded its GL; "
			  "--pid names it)",
			  NULL);
	if (rc == 0 && asked_pid && version)
		rc = fail(TB_R_USAGE,
			  "which takes --pid or --version, not both (a process has already "
			  "chosen its version)",
			  NULL);
	if (rc == 0)
		rc = asked_pid ? which_pids(root, &pids, json) : which_selection(root, version, gl_mode, json);
	free(pids.pid);
	return rc;
}
