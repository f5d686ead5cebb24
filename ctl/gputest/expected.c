/* Expected-failure lists: read line by line, bounded, every line checked. */
#include "gputest/expected.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/fs.h"

static const struct {
	const char *mesa, *ours;
} statuses[] = {
	{"Fail", "fail"}, {"Crash", "crash"}, {"Timeout", "timeout"}, {"Flake", "flaky"},
};

static int name_ok(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!(*s == '_' || *s == '-' || *s == '.' || (*s >= 'a' && *s <= 'z') ||
		      (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')))
			return 0;
	return 1;
}

int expected_read_file(const char *path, json_object *into, struct tb_error *e)
{
	FILE *f = fopen_regular(path); /* a FIFO there is refused, never waited on */
	if (!f && (errno == ESPIPE || errno == EISDIR))
		return tb_fail(e, TB_R_CONFIG_INVALID,
			       "the expected failures %s is not a regular file (a FIFO, a device or a "
			       "folder); replace it with a file of CASE,STATUS lines or remove it", path);
	if (!f)
		return errno == ENOENT ? TB_OK
				       : tb_fail_errno_as(e, TB_R_IO_ERROR, "cannot read the expected failures %s", path);
	char line[EXPECTED_MAX_LINE + 2];
	size_t lineno = 0;
	int rc = TB_OK;
	while (!rc && fgets(line, sizeof line, f)) {
		lineno++;
		size_t len = strlen(line);
		if (len && line[len - 1] != '\n' && !feof(f)) {
			rc = tb_fail(e, TB_R_CONFIG_INVALID, "line %zu of the expected failures %s is longer "
				     "than %d bytes; fix or remove the file", lineno, path, EXPECTED_MAX_LINE);
			break;
		}
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r' || line[len - 1] == ' '))
			line[--len] = '\0';
		if (!len || line[0] == '#')
			continue;
		char *comma = strrchr(line, ',');
		const char *ours = NULL;
		if (comma) {
			*comma = '\0';
			for (size_t i = 0; i < sizeof statuses / sizeof *statuses && !ours; i++)
				if (!strcmp(comma + 1, statuses[i].mesa))
					ours = statuses[i].ours;
		}
		if (!ours || !name_ok(line))
			rc = tb_fail(e, TB_R_CONFIG_INVALID,
				     "line %zu of the expected failures %s is not CASE,STATUS with STATUS one "
				     "of Fail, Crash, Timeout, Flake; fix or remove the file",
				     lineno, path);
		else if (json_object_object_length(into) >= EXPECTED_MAX_CASES &&
			 !json_object_object_get_ex(into, line, NULL))
			rc = tb_fail(e, TB_R_CONFIG_INVALID, "the expected failures %s list more than %d "
				     "cases; fix or remove the file", path, EXPECTED_MAX_CASES);
		else
			json_object_object_add(into, line, json_object_new_string(ours));
	}
	if (!rc && ferror(f))
		rc = tb_fail_errno_as(e, TB_R_IO_ERROR, "cannot read the expected failures %s", path);
	fclose(f);
	return rc;
}

int expected_load(const struct store *s, const char *version, const char *suite,
		  const char *confdir, json_object **out, struct tb_error *e)
{
	json_object *map = json_object_new_object();
	char *shipped = store_path(s, STORE_VERSIONS "/%s/" EXPECTED_RELEASE_DIR "/%s.txt", version, suite);
	int rc = expected_read_file(shipped, map, e);
	free(shipped);
	if (!rc && confdir && *confdir) {
		char *kept = xasprintf("%s/expected-fails/%s/%s.txt", confdir, version, suite);
		rc = expected_read_file(kept, map, e);
		free(kept);
	}
	if (rc) {
		json_object_put(map);
		map = NULL;
	}
	*out = map;
	return rc;
}

int expected_matches(const char *expected, const char *result)
{
	return !strcmp(expected, "flaky") || !strcmp(expected, result);
}
