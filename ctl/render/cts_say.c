#include "render/cts_say.h"
#include "base/error.h"

#include <stdlib.h>

void cts_say_contents(struct strbuf *sb, const struct cts_facts *f)
{
	if (f->deqp_vk && f->opencl_binaries)
		sb_appendf(sb, "dEQP-VK and %zu OpenCL-CTS binar%s", f->opencl_binaries,
			   f->opencl_binaries == 1 ? "y" : "ies");
	else if (f->deqp_vk)
		sb_append(sb, "dEQP-VK");
	else
		sb_appendf(sb, "%zu OpenCL-CTS binar%s", f->opencl_binaries,
			   f->opencl_binaries == 1 ? "y" : "ies");
	sb_appendf(sb, ", %.1f MiB", (double)f->bytes / 1048576.0);
}

json_object *cts_facts_json(const struct cts_facts *f)
{
	json_object *j = json_object_new_object();
	json_object_object_add(j, "version", json_object_new_string(f->version));
	json_object_object_add(j, "deqp_vk", json_object_new_boolean(f->deqp_vk));
	json_object_object_add(j, "opencl_binaries", json_object_new_int64((int64_t)f->opencl_binaries));
	json_object_object_add(j, "bytes", json_object_new_int64((int64_t)f->bytes));
	json_object_object_add(j, "vk_gl_cts", json_object_new_string(f->vk_gl_cts));
	json_object_object_add(j, "opencl_cts", json_object_new_string(f->opencl_cts));
	return j;
}

json_object *cts_current_say(const struct store *s, struct strbuf *line)
{
	char *v = store_cts_current(s);
	struct cts_facts f;
	struct tb_error e = {0};
	json_object *j = NULL;
	if (!v) {
		sb_append(line, "CTS: none installed (`tb323fu-ctl mesa cts update` installs dEQP-VK and OpenCL-CTS for smoke --suite)");
	} else if (store_cts_facts(s, v, &f, &e)) {
		sb_appendf(line, "CTS %s: cannot be read (%s); install it again with `tb323fu-ctl mesa cts update`", v, e.msg);
	} else {
		sb_appendf(line, "CTS %s: ", v);
		cts_say_contents(line, &f);
		j = cts_facts_json(&f);
		cts_facts_free(&f);
	}
	free(v);
	return j;
}
