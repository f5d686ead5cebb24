/* <store>/crash-record: the journal cursor read up to, the events and the pins made. */
#include "crash/record.h"
#include "store/layout.h"
#include "base/jsontext.h"
#include "base/fs.h"
#include "common/storelayout.h"

#include <stdlib.h>
#include <string.h>

/* Each member the writer writes is of its type: a record with one of another type is damaged
 * (read as empty, its pins would be lost and made again). */
static int record_whole(json_object *o)
{
	static const struct {
		const char *key;
		json_type t;
	} members[] = {
		{"cursor", json_type_string}, {"events", json_type_array}, {"auto_pins", json_type_array},
		{"trial", json_type_object}, {"rolled_back", json_type_string},
	};
	for (size_t i = 0; i < sizeof members / sizeof *members; i++) {
		json_object *m;
		if (json_object_object_get_ex(o, members[i].key, &m) && !json_object_is_type(m, members[i].t))
			return 0;
	}
	json_object *pins;
	if (json_object_object_get_ex(o, "auto_pins", &pins))
		for (size_t i = 0; i < json_object_array_length(pins); i++) {
			json_object *p = json_object_array_get_idx(pins, i), *m;
			if (!json_object_is_type(p, json_type_object) || !json_object_object_get_ex(p, "cursor", &m) ||
			    !json_object_is_type(m, json_type_string))
				return 0;
		}
	return 1;
}

json_object *crash_record_load(const struct store *s, int *damaged)
{
	/* reached as the layout says: anything but a file there reads as a damaged record */
	struct tb_error refused = {0};
	char *path = store_reach_file(s, STORE_CRASH_RECORD, 0, &refused);
	if (!path) {
		if (damaged)
			*damaged = 1;
		return json_object_new_object();
	}
	json_object *o = crash_record_load_at(path, damaged);
	free(path);
	return o;
}

json_object *crash_record_load_at(const char *path, int *damaged)
{
	/* never through a link planted there (docs/design.md §3) */
	size_t len;
	char *text = read_small_file_nofollow(path, CRASH_RECORD_MAX, &len);
	json_object *o = text ? json_tokener_parse(text) : NULL;
	free(text);
	if (o && (!json_object_is_type(o, json_type_object) || !record_whole(o))) {
		json_object_put(o);
		o = NULL;
	}
	if (damaged)
		*damaged = !o && path_exists(path);
	return o ? o : json_object_new_object();
}

json_object *crash_record_member(json_object *rec, const char *key, json_type t)
{
	json_object *m;
	if (json_object_object_get_ex(rec, key, &m) && json_object_is_type(m, t))
		return m;
	m = t == json_type_array ? json_object_new_array()
	    : t == json_type_object ? json_object_new_object() : json_object_new_string("");
	json_object_object_add(rec, key, m);
	return m;
}

const char *crash_record_str(json_object *o, const char *key)
{
	json_object *m;
	return o && json_object_object_get_ex(o, key, &m) && json_object_is_type(m, json_type_string)
		       ? json_object_get_string(m) : "";
}

int crash_record_save(struct store *s, json_object *rec, struct tb_error *e)
{
	char *path = store_reach_file(s, STORE_CRASH_RECORD, 0, e);
	if (!path)
		return e->code;
	int rc = crash_record_save_at(path, rec, e);
	free(path);
	return rc;
}

int crash_record_save_at(const char *path, json_object *rec, struct tb_error *e)
{
	json_object *ev = crash_record_member(rec, "events", json_type_array);
	size_t n = json_object_array_length(ev);
	if (n > CRASH_RECORD_EVENTS)
		json_object_array_del_idx(ev, 0, n - CRASH_RECORD_EVENTS);
	const char *text = json_out(rec, JSON_C_TO_STRING_PLAIN);
	/* events are cut by sd-journal's field threshold only; drop the oldest until it fits */
	while (strlen(text) + 1 > CRASH_RECORD_MAX && json_object_array_length(ev) > 0) {
		json_object_array_del_idx(ev, 0, 1);
		text = json_out(rec, JSON_C_TO_STRING_PLAIN);
	}
	size_t len = strlen(text);
	char *data = malloc(len + 2);
	memcpy(data, text, len);
	data[len] = '\n';
	int rc = atomic_write_file(path, data, len + 1, 0644, e);
	free(data);
	return rc;
}
