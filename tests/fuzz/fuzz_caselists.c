/* libFuzzer: the case lists a dEQP run reads (each module's) (a user's case list, a release's or the
 * configuration's expected failures) and the option values that choose cases. */
#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/error.h"
#include "gputest/deqp_cases.h"
#include "gputest/expected.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz-caselist", MFD_CLOEXEC);
	if (fd < 0 || write(fd, data, size) != (ssize_t)size) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	char path[64];
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);

	struct tb_error e = {0};
	for (size_t i = 0; deqp_kinds[i]; i++) {
		struct deqp_cases c;
		if (deqp_cases_read(&c, deqp_kinds[i], path, &e) == TB_OK) {
			deqp_cases_fraction(&c, 3, 2);
			deqp_cases_free(&c);
		}
		tb_error_clear(&e);
	}
	json_object *into = json_object_new_object();
	expected_read_file(path, into, &e);
	json_object_put(into);
	close(fd);

	char *text = strndup((const char *)data, size);
	unsigned n, k;
	deqp_fraction_parse(text, &n, &k);
	free(deqp_groups_invalid(text));
	(void)deqp_kind_of_case(text);
	free(text);
	return 0;
}
