/* The store's layout (docs/design.md §3), in process: the table of ctl/store/layout.c is the
 * table of the design, row for row; at every path of it, a link to a folder outside, a FIFO,
 * a part of the wrong kind (a file where a folder belongs, a folder where a file does) and
 * nothing at all meet the one helper every command reaches the store through: each is
 * refused in one sentence with reason damaged, naming the part, or (nothing there) the
 * folder is made; nothing is ever made or written outside, no FIFO is opened. The links of
 * the table (current, previous, cts/current) meet a writer's lock, which checks them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tmpdir.h"
#include "store/layout.h"
#include "store/store.h"
#include "base/alloc.h"
#include "base/error.h"
#include "base/fs.h"

static char *dir;

static const char *type_word(int kind)
{
	switch (kind) {
	case PART_DIR:
		return "folder";
	case PART_FILE:
		return "file";
	case PART_LINK:
		return "link";
	case PART_FILE | PART_LINK:
		return "file (a link there is replaced by rename)";
	case PART_FILE | PART_DIR:
		return "file or folder";
	}
	return "?";
}

/* Every row of the design's table is a row of store_layout, in the same order, with the same
 * type and makers. */
static void design_table_is_the_layout(void **state)
{
	const char *top = getenv("TB_TOP");
	if (!top)
		skip();
	char *path = xasprintf("%s/docs/design.md", top);
	char *text = read_small_file(path, 1 << 22, NULL);
	free(path);
	assert_non_null(text);
	char *begin = strstr(text, "<!-- store layout: begin -->"), *end = strstr(text, "<!-- store layout: end -->");
	assert_true(begin && end && begin < end);
	*end = '\0';
	size_t row = 0;
	for (char *line = strtok(begin, "\n"); line; line = strtok(NULL, "\n")) {
		if (strncmp(line, "| `", 3))
			continue;
		assert_true(row < store_layout_count);
		const struct store_part *p = &store_layout[row++];
		char *want = xasprintf("| `%s` | %s | %s |", p->path, type_word(p->kind), p->made_by);
		assert_string_equal(line, want);
		free(want);
	}
	assert_int_equal(row, store_layout_count);
	free(text);
}

/* A path of the row: each "*" a name ("v1"). */
static char *sample(const char *pattern)
{
	char *out = xcalloc(strlen(pattern) * 2 + 1, 1);
	for (const char *c = pattern; *c; c++)
		strcat(out, *c == '*' ? "v1" : (char[]){*c, '\0'});
	return out;
}

/* Each level above rel a folder (as the helper would make it). */
static void make_parents(const char *root, const char *rel)
{
	char *copy = xstrdup(rel);
	char *slash = strrchr(copy, '/');
	if (slash) {
		*slash = '\0';
		struct tb_error e = {0};
		assert_int_equal(mkdir_below(root, copy, 0755, &e), TB_OK);
	}
	free(copy);
}

static int write_small(const char *path)
{
	FILE *f = fopen(path, "w");
	return f && fputs("planted\n", f) >= 0 && fclose(f) == 0;
}

enum plant { PLANT_LINK_OUT, PLANT_FIFO, PLANT_OTHER_KIND, PLANT_NOTHING };
static const char *const plant_names[] = {"a link to a folder outside", "a FIFO", "the other kind", "nothing"};

static void plant(const char *root, const char *rel, int kind, enum plant what, const char *outside)
{
	char *p = path_join(root, rel);
	remove_tree(p);
	make_parents(root, rel);
	switch (what) {
	case PLANT_LINK_OUT:
		assert_int_equal(symlink(outside, p), 0);
		break;
	case PLANT_FIFO:
		assert_int_equal(mkfifo(p, 0600), 0);
		break;
	case PLANT_OTHER_KIND:
		if (kind & PART_DIR)
			assert_true(write_small(p));
		else
			assert_int_equal(mkdir(p, 0755), 0);
		break;
	case PLANT_NOTHING:
		break;
	}
	free(p);
}

static int empty_dir(const char *path)
{
	DIR *d = opendir(path);
	if (!d)
		return 0;
	int n = 0;
	struct dirent *de;
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n == 0;
}

/* What the helper must do with what stands at rel: refuse (1) or take it (0). */
static int must_refuse(int kind, enum plant what)
{
	switch (what) {
	case PLANT_LINK_OUT:
		return !(kind & PART_LINK);
	case PLANT_FIFO:
		return 1;
	case PLANT_OTHER_KIND: /* a row of both kinds is reached as a folder: a file is the other */
		return 1;
	case PLANT_NOTHING:
		return 0;
	}
	return 1;
}

static void reach_row(const struct store *s, const struct store_part *p, const char *outside)
{
	char *rel = sample(p->path);
	for (enum plant what = PLANT_LINK_OUT; what <= PLANT_NOTHING; what++) {
		plant(s->root, rel, p->kind, what, outside);
		struct tb_error e = {0};
		char *got = p->kind & PART_DIR ? store_reach_dir(s, rel, 1, &e) : store_reach_file(s, rel, 1, &e);
		int refused = got == NULL;
		if (refused != must_refuse(p->kind, what))
			fail_msg("%s with %s: %s (%s)", rel, plant_names[what], refused ? "refused" : "taken", e.msg);
		if (refused) {
			assert_true(tb_error_is(&e, TB_R_DAMAGED_STORE));
			assert_non_null(strstr(e.msg, rel));
			assert_null(strchr(e.msg, '\n'));
			assert_non_null(strstr(e.msg, "run the command again"));
		}
		if (what == PLANT_NOTHING && p->kind == PART_DIR) {
			struct stat st;
			assert_int_equal(lstat(got, &st), 0);
			assert_true(S_ISDIR(st.st_mode));
		}
		if (!empty_dir(outside))
			fail_msg("%s with %s: something was made outside", rel, plant_names[what]);
		free(got);
	}
	char *p_full = path_join(s->root, rel);
	remove_tree(p_full);
	free(p_full);
	free(rel);
}

/* Every folder and file of the table, every plant. */
static void every_path_every_plant(void **state)
{
	char *root = path_join(dir, "store"), *outside = path_join(dir, "outside");
	assert_int_equal(mkdir(root, 0755), 0);
	assert_int_equal(mkdir(outside, 0755), 0);
	struct store s = {.root = root, .lock_fd = -1};
	size_t reached = 0;
	for (size_t i = 0; i < store_layout_count; i++) {
		const struct store_part *p = &store_layout[i];
		if (p->kind == PART_LINK)
			continue; /* links: a writer's lock checks them (below) */
		reach_row(&s, p, outside);
		reached++;
	}
	assert_true(reached + 3 == store_layout_count);
	remove_tree(root);
	remove_tree(outside);
	free(root);
	free(outside);
}

/* A FIFO, a file or a folder where a link of the table stands: a writer's lock refuses the
 * store, naming it. */
static void links_checked_by_the_lock(void **state)
{
	for (size_t i = 0; i < store_layout_count; i++) {
		const struct store_part *p = &store_layout[i];
		if (p->kind != PART_LINK)
			continue;
		for (int what = 0; what < 3; what++) {
			char *root = path_join(dir, "lockstore");
			struct store s;
			struct tb_error e = {0};
			assert_int_equal(store_open(&s, root, 1, &e), TB_OK);
			char *at = path_join(s.root, p->path);
			make_parents(s.root, p->path);
			if (what == 0)
				assert_int_equal(mkfifo(at, 0600), 0);
			else if (what == 1)
				assert_true(write_small(at));
			else
				assert_int_equal(mkdir(at, 0755), 0);
			int rc = store_lock(&s, 0, &e);
			if (rc == TB_OK)
				fail_msg("%s: the lock took %s there", p->path, what == 0 ? "a FIFO" : what == 1 ? "a file" : "a folder");
			assert_true(tb_error_is(&e, TB_R_DAMAGED_STORE));
			assert_non_null(strstr(e.msg, p->path));
			free(at);
			store_close(&s);
			remove_tree(root);
			free(root);
		}
	}
}

/* A folder the table lets be missing is made again (a store whose cache/ was deleted). */
static void missing_folders_are_made(void **state)
{
	char *root = path_join(dir, "bare");
	assert_int_equal(mkdir(root, 0755), 0);
	struct store s = {.root = root, .lock_fd = -1};
	struct tb_error e = {0};
	char *got = store_reach_file(&s, "cache/suites/x.json", 1, &e);
	assert_non_null(got);
	char *suites = path_join(root, "cache/suites");
	assert_true(is_directory(suites));
	free(suites);
	free(got);
	/* without make: nothing is made, the path comes back for a reader to find nothing */
	got = store_reach_dir(&s, ".pins", 0, &e);
	assert_non_null(got);
	assert_false(path_exists(got));
	free(got);
	/* a path that is no part of the layout is a mistake of ours, said as such */
	assert_null(store_reach_dir(&s, "elsewhere/x", 1, &e));
	assert_non_null(strstr(e.msg, "no path of the store's layout"));
	remove_tree(root);
	free(root);
}

static int setup(void **state)
{
	dir = test_mkdtemp("test_layout");
	return dir ? 0 : -1;
}

static int teardown(void **state)
{
	remove_tree(dir);
	free(dir);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(design_table_is_the_layout),
		cmocka_unit_test(every_path_every_plant),
		cmocka_unit_test(links_checked_by_the_lock),
		cmocka_unit_test(missing_folders_are_made),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
