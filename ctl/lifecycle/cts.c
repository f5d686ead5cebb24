#include "lifecycle/cts.h"
#include "store/cts.h"
#include "base/testhook.h"

#include <string.h>

int cts_adopt(struct store *s, const char *version, struct strbuf *removed, struct tb_error *e)
{
	int rc = store_cts_set_current(s, version, e);
	if (!rc)
		testhook_pause("cts-current");
	size_t n;
	char **trees = store_trees(s, STORE_CTS, &n);
	for (size_t i = 0; i < n && !rc; i++) {
		if (!strcmp(trees[i], version))
			continue;
		rc = store_cts_remove(s, trees[i], e);
		if (!rc)
			sb_appendf(removed, "%s%s", removed->len ? ", " : "", trees[i]);
	}
	store_free_list(trees, n);
	return rc;
}
