/* libFuzzer: the build record (JSON, ctl/release/buildrecord.c), the trusted comment's words
 * that name it, and the sentences and JSON made from what was read. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "release/buildrecord.h"
#include "base/strbuf.h"
#include "base/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tb_error e = {0};
	struct record_view v = {0};
	if (!build_record_parse((const char *)data, size, &v.r, &e)) {
		v.have = 1;
		struct strbuf out = {0};
		record_view_say(&v, "1", &out);
		sb_free(&out);
		json_object_put(record_view_json(&v));
	}
	record_view_free(&v);

	struct trusted_fields t;
	tb_error_clear(&e);
	if (!trusted_comment_parse((const char *)data, size, &t, &e) && t.record_sha256[0] &&
	    strlen(t.record_sha256) != 64)
		abort(); /* a named record is always 64 hex digits */
	return 0;
}
