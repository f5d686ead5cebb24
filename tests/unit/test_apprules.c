/* Per-application rules: the rule file's strict reading and the override entry's form
 * (docs/design.md §16). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "apprules/rules.h"
#include "apprules/desktop_entry.h"
#include "apprules/override_entry.h"

static int parses(const char *text)
{
	struct app_rules r;
	int rc = apprules_parse(text, strlen(text), &r);
	apprules_free(&r);
	return rc == 0;
}

static void rule_file_strict(void **state)
{
	(void)state;
	assert_true(parses(""));
	assert_true(parses("org.example.App.desktop=distro\nvim.desktop=2026.10.06\n\nx.desktop=current"));
	assert_false(parses("a.desktop=distro\na.desktop=current\n")); /* repeated */
	assert_false(parses("a.desktop distro\n"));
	assert_false(parses("a=distro\n"));                  /* not an ID */
	assert_false(parses(".a.desktop=distro\n"));
	assert_false(parses("a b.desktop=distro\n"));
	assert_false(parses("a.desktop=sometimes\n"));
	assert_false(parses("a.desktop=previous\n")); /* resolved at set time, never stored */
	assert_false(parses("# a comment\n"));
	assert_false(parses("a.desktop=distro\r\nb.desktop=\n"));
	/* a rule's GL */
	assert_true(parses("a.desktop=current gl=zink\nb.desktop=2026.10.06 gl=native\nc.desktop=current gl=distro\n"));
	assert_false(parses("a.desktop=distro gl=zink\n")); /* distro gives the whole Mesa */
	assert_false(parses("a.desktop=current gl=vulkan\n"));
	assert_false(parses("a.desktop=current gl=\n"));
	assert_false(parses("a.desktop=current zink\n"));
	assert_false(parses("a.desktop=current gl=zink gl=zink\n"));
	struct app_rules r;
	assert_int_equal(apprules_parse("a.desktop=distro\n\0", 18, &r), -1);
	assert_int_equal(r.n, 0);
}

static void rule_file_round_trip(void **state)
{
	(void)state;
	struct app_rules r = {0};
	apprules_set(&r, "b.desktop", "distro");
	apprules_set(&r, "a.desktop", "2026.10.06");
	apprules_set(&r, "b.desktop", "current");
	assert_int_equal(r.n, 2);
	struct strbuf sb = {0};
	apprules_format(&r, &sb);
	assert_string_equal(sb.buf, "b.desktop=current\na.desktop=2026.10.06\n");
	apprules_set_gl(&r, "a.desktop", "zink");
	sb_free(&sb);
	apprules_format(&r, &sb);
	assert_string_equal(sb.buf, "b.desktop=current\na.desktop=2026.10.06 gl=zink\n");
	struct app_rules back;
	assert_int_equal(apprules_parse(sb.buf, sb.len, &back), 0);
	assert_string_equal(apprules_find(&back, "a.desktop")->gl, "zink");
	assert_null(apprules_find(&back, "b.desktop")->gl);
	apprules_free(&back);
	apprules_set(&r, "a.desktop", "current"); /* a new choice has no GL of its own */
	assert_null(apprules_find(&r, "a.desktop")->gl);
	assert_true(apprules_unset(&r, "b.desktop"));
	assert_false(apprules_unset(&r, "b.desktop"));
	assert_int_equal(r.n, 1);
	sb_free(&sb);
	apprules_free(&r);
}

static char *built;
static struct tb_error err;

static int build(const char *text, const char *choice)
{
	const struct override_spec spec = {"/usr/bin/tb323fu-mesa", NULL, choice, NULL};
	size_t n;
	free(built);
	built = NULL;
	memset(&err, 0, sizeof err);
	return override_build(text, strlen(text), "/usr/share/applications/x.desktop",
			      "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "x.desktop",
			      &spec, &built, &n, &err);
}

static void override_wraps_every_exec(void **state)
{
	(void)state;
	assert_int_equal(build("[Desktop Entry]\nType=Application\nName=X\nExec=x \"a b\" 100%% %U\n"
			       "DBusActivatable=true\nActions=new;gone;\n\n[Desktop Action new]\nName=New\nExec=x --new %u\n"
			       "\n[Desktop Action gone]\nName=Gone\n",
			       "2026.10.06"),
			 0);
	assert_non_null(strstr(built, "\nExec=/usr/bin/tb323fu-mesa run --version 2026.10.06 -- x \"a b\" 100%% %U\n"));
	assert_non_null(strstr(built, "\nExec=/usr/bin/tb323fu-mesa run --version 2026.10.06 -- x --new %u\n"));
	assert_non_null(strstr(built, "\nActions=new;tb323fu-mesa-other;\n"));
	assert_null(strstr(built, "[Desktop Action gone]"));
	assert_null(strstr(built, "DBusActivatable"));
	assert_non_null(strstr(built, "\nName=Launch with the distribution's Mesa\nExec=/usr/bin/tb323fu-mesa distro -- x \"a b\" 100%% %U\n"));
	assert_non_null(strstr(built, "\nX-TB323FU-Mesa-Override=tb323fu-mesa-toolchain-program\n"));
	assert_non_null(strstr(built, "\nX-TB323FU-Mesa-Original=/usr/share/applications/x.desktop\n"));

	assert_int_equal(build("[Desktop Entry]\nType=Application\nName=X\nExec=x\n", "distro"), 0);
	assert_non_null(strstr(built, "\nExec=/usr/bin/tb323fu-mesa distro -- x\n"));
	assert_non_null(strstr(built, "\nName=Launch with the store's Mesa\nExec=/usr/bin/tb323fu-mesa run -- x\n"));
}

static void override_refuses(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"[Desktop Entry]\nType=Application\nName=Caf\351\nExec=x\n",
		"[Desktop Entry]\nType=Link\nName=X\nURL=https://example.org\n",
		"[Desktop Entry]\nType=Application\nName=X\nExec=x\nHidden=true\n",
		"[Desktop Entry]\nType=Application\nName=X\nDBusActivatable=true\n",
		"[Other]\nType=Application\nExec=x\n",
		"[Desktop Entry]\nType=Application\nName=X\nExec=x\nX-TB323FU-Mesa-Override=tb323fu-mesa-toolchain-program\n",
		"[Desktop Entry]\nType=Application\nName=X\nExec=x\nExec=y\n",
		"[Desktop Entry]\nType=Application\nName=X\nExec=x\001\n",
		"not an entry at all",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		assert_int_not_equal(build(bad[i], "distro"), 0);
		assert_non_null(strstr(err.msg, "no rule was set"));
	}
	free(built);
	built = NULL;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rule_file_strict),
		cmocka_unit_test(rule_file_round_trip),
		cmocka_unit_test(override_wraps_every_exec),
		cmocka_unit_test(override_refuses),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
