/* doctor's health report for people and for JSON (health_say.h). */
#include "render/health_say.h"
#include "render/marks_say.h"

static json_object *loader_json(const struct health_loader *l)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "path", json_object_new_string(l->path));
	json_object_object_add(o, "version", json_object_new_string(l->version));
	return o;
}

static json_object *icds_json(const struct health_icds *l)
{
	json_object *arr = json_object_new_array();
	for (size_t i = 0; i < l->n; i++) {
		json_object *o = json_object_new_object();
		json_object_object_add(o, "file", json_object_new_string(l->v[i].file));
		json_object_object_add(o, "library_path", json_object_new_string(l->v[i].library_path));
		json_object_object_add(o, "found", json_object_new_boolean(l->v[i].found));
		json_object_object_add(o, "store", json_object_new_boolean(l->v[i].store));
		json_object_array_add(arr, o);
	}
	return arr;
}

void health_facts_json(const struct health_report *r, json_object *fields)
{
	json_object_object_add(fields, "store", json_object_new_string(r->store));
	json_object_object_add(fields, "current", json_object_new_string(r->current));
	json_object_object_add(fields, "previous", json_object_new_string(r->previous));
	json_object_object_add(fields, "enabled", json_object_new_boolean(r->enabled));
	json_object_object_add(fields, "trial", json_object_new_string(r->trial));
	json_object_object_add(fields, "smoke", json_object_new_string(r->smoke));
	json_object_object_add(fields, "marked", marks_json(&r->marks));
	if (r->boot_tick >= 0)
		json_object_object_add(fields, "boot_tick_enabled", json_object_new_boolean(r->boot_tick));
	json_object *env = json_object_new_object();
	for (size_t i = 0; i < r->n_env; i++)
		json_object_object_add(env, r->env[i].name, json_object_new_string(r->env[i].value));
	json_object_object_add(fields, "env", env);
	json_object_object_add(fields, "vulkan_loader", loader_json(&r->vulkan_loader));
	json_object_object_add(fields, "opencl_loader", loader_json(&r->opencl_loader));
	json_object_object_add(fields, "vulkan_icds", icds_json(&r->vulkan_icds));
	json_object_object_add(fields, "opencl_icds", icds_json(&r->opencl_icds));
	json_object *host = json_object_new_object();
	json_object_object_add(host, "arch", json_object_new_string(r->arch));
	json_object_object_add(host, "glibc", json_object_new_string(r->glibc));
	json_object_object_add(fields, "host", host);
	json_object_object_add(fields, "glibc_floor", json_object_new_string(r->elf.glibc_floor));
	json_object_object_add(fields, "needs_ld_library_path",
			       json_object_new_boolean(r->elf.needs_ld_library_path));
	if (r->have_record)
		json_object_object_add(fields, "build_record", record_view_json(&r->record));
}

void health_finding_say(struct strbuf *sb, const struct health_finding *f)
{
	if (f->mark)
		marks_say(sb, "", &(const struct marks){.v = (struct mark *)f->mark, .n = 1});
	else
		sb_append(sb, f->text);
}
