#include "release/sums.h"
#include "base/hash.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/fs.h"
#include "base/text.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int sums_lookup_text(const char *text, size_t len, const char *name, char hex[65],
		     struct tb_error *e)
{
	char *copy = text_copy_checked(text, len, SUMS_MAX_BYTES);
	if (!copy)
		return tb_fail(e, TB_R_SUMS_INVALID, "SHA256SUMS is not a checksum list");
	int found = 0, rc = TB_OK, lineno = 0;
	char *cursor = copy, *line;
	while (rc == TB_OK && (line = next_line(&cursor))) {
		lineno++;
		size_t n = strlen(line);
		if (n) {
			/* "<64 hex><space><space or *><name>" */
			if (n < 67 || line[64] != ' ' || (line[65] != ' ' && line[65] != '*')) {
				rc = tb_fail(e, TB_R_SUMS_INVALID, "SHA256SUMS line %d is not \"<sha256>  <file>\"", lineno);
				break;
			}
			line[64] = '\0';
			for (char *p = line; *p; p++)
				if (*p >= 'A' && *p <= 'F')
					*p = (char)(*p - 'A' + 'a');
			if (!is_sha256_hex(line)) {
				rc = tb_fail(e, TB_R_SUMS_INVALID, "SHA256SUMS line %d has no valid SHA-256", lineno);
				break;
			}
			if (!strcmp(line + 66, name)) {
				if (found && strcmp(hex, line))
					rc = tb_fail(e, TB_R_SUMS_INVALID, "SHA256SUMS lists %s twice with different sums", name);
				memcpy(hex, line, 65);
				found = 1;
			}
		}
	}
	free(copy);
	if (rc == TB_OK && !found)
		rc = tb_fail(e, TB_R_SUMS_INVALID, "SHA256SUMS has no line for %s; use the SHA256SUMS of the same release", name);
	return rc;
}

int sums_lookup(const char *path, const char *name, char hex[65], struct tb_error *e)
{
	size_t len;
	char *text = read_small_file(path, SUMS_MAX_BYTES, &len);
	if (!text && errno == E2BIG)
		return tb_fail(e, TB_R_TOO_LARGE,
			       "%s is larger than %d KiB, so it is not a release's SHA256SUMS; refusing it",
			       path, SUMS_MAX_BYTES >> 10);
	if (!text && errno == ESPIPE)
		return tb_fail(e, TB_R_UNSAFE_ARCHIVE,
			       "%s is not a regular file; pass the release's SHA256SUMS file", path);
	if (!text)
		return tb_fail_errno(e, TB_R_IO_ERROR, "cannot read %s", path);
	int rc = sums_lookup_text(text, len, name, hex, e);
	free(text);
	return rc;
}
