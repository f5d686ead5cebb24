/* Finding the system's OpenCL vendor file of a driver by the library it names. */
#include "common/vendorfile.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/storepath.h"

#define VENDOR_FILE_MAX 4096

const char *vendor_dir(void)
{
	const char *env = getenv("OPENCL_VENDOR_PATH");
	return env && *env ? env : "/etc/OpenCL/vendors";
}

/* The first line of file into line (cap bytes); its length, or -1. */
static long first_line(const char *file, char *line, size_t cap)
{
	int fd = open(file, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, line, cap - 1);
	close(fd);
	if (n < 0)
		return -1;
	line[n] = '\0';
	line[strcspn(line, "\r\n")] = '\0';
	return (long)strlen(line);
}

int vendor_library_name(const char *file, char *out, size_t cap)
{
	char line[VENDOR_FILE_MAX];
	if (first_line(file, line, sizeof line) <= 0)
		return -1;
	const char *slash = strrchr(line, '/');
	const char *name = slash ? slash + 1 : line;
	size_t n = strlen(name);
	if (n == 0 || n >= cap)
		return -1;
	memcpy(out, name, n + 1);
	return 0;
}

static int ends_with_icd(const struct dirent *de)
{
	size_t n = strlen(de->d_name);
	return n > 4 && strcmp(de->d_name + n - 4, ".icd") == 0;
}

int vendor_file_naming(const char *dir, const char *lib, char *out, size_t cap)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, ends_with_icd, alphasort);
	int found = -1;
	for (int i = 0; i < n; i++) {
		char file[STORE_PATH_MAX], line[VENDOR_FILE_MAX], name[256];
		if (found != 0 && path_concat(file, sizeof file, dir, "/", ents[i]->d_name) == 0 &&
		    vendor_library_name(file, name, sizeof name) == 0 && strcmp(name, lib) == 0 &&
		    first_line(file, line, sizeof line) > 0 &&
		    (!strchr(line, '/') || access(line, F_OK) == 0) && strlen(file) < cap) {
			memcpy(out, file, strlen(file) + 1);
			found = 0;
		}
		free(ents[i]);
	}
	if (n >= 0)
		free(ents);
	return found;
}
