#!/bin/sh
# The layout of docs/design.md §15 holds: includes go down the layers only, no two objects
# call each other (a registry and its entries aside), no contract is spelled outside the
# contract layer (tb323fu-mesa/common), and a changed header rebuilds exactly the objects that
# include it (the compiler's dependency files, not a guess).
. "$TB_TOP/tests/lib.sh"

layers() { python3 "$TB_TOP/tests/tools/layers.py" "$@"; }
literals() { sh "$TB_TOP/tests/tools/contract-literals.sh" "$@"; }

# --- the include direction ---
run_cmd layers "$TB_TOP"
if [ "$rc" -eq 0 ]; then ok "every include goes down the layers"; else
	not_ok "every include goes down the layers" "$(head -n 20 "$T/out")"; fi

# The checks themselves see a wrong include and a planted literal (a copy of the tree).
mkdir -p "$T/tree"
cp -R "$TB_TOP/ctl" "$TB_TOP/tb323fu-mesa" "$T/tree/"
printf '#include "cmd/cli_table.h"\n' >>"$T/tree/ctl/store/txn.c"
printf '#include "launcher/launcher.h"\n' >>"$T/tree/ctl/cmd/status.c"
printf '#include "smoke/smoke.h"\n' >>"$T/tree/tb323fu-mesa/launcher/which.c"
run_cmd layers "$T/tree"
check "the layering check names each wrong include" \
	test "$rc" -eq 1 -a "$(grep -c 'includes #include' "$T/out")" -eq 3
check "… by file, line and layer" grep -q '^ctl/store/txn.c:[0-9]*: store includes #include "cmd/cli_table.h"' "$T/out"

# --- the same direction for what the linker joins: calls, function pointers, tables ---
run_cmd python3 "$TB_TOP/tests/tools/symbol-layers.py" "$TB_TOP" "$TB_BUILD/obj"
if [ "$rc" -eq 0 ]; then ok "every symbol an object uses is of its layer or one below (no cli/ file names a command's entry)"; else
	not_ok "every symbol an object uses is of its layer or one below (no cli/ file names a command's entry)" "$(head -n 20 "$T/out")"; fi
# … and sees a command's entry named by the engine through a declaration of its own, which
# the include check cannot see.
cp -R "$TB_BUILD/obj" "$T/obj"
printf 'extern const char status_command;\nconst void *planted_use = &status_command;\n' >"$T/tree/ctl/cli/planted.c"
cc -c -o "$T/obj/ctl/cli/planted.o" "$T/tree/ctl/cli/planted.c"
run_cmd python3 "$TB_TOP/tests/tools/symbol-layers.py" "$T/tree" "$T/obj"
check "the symbol check names an engine file that uses a command's entry" \
	sh -c "[ $rc -eq 1 ] && grep -qx 'ctl/cli/planted.o: cli uses status_command of cmd' '$T/out'"
rm -rf "$T/obj" "$T/tree/ctl/cli/planted.c"

# --- no two objects call each other, a registry and the entries it lists aside ---
run_cmd python3 "$TB_TOP/tests/tools/symbol-cycles.py" "$TB_TOP" "$TB_BUILD/obj"
if [ "$rc" -eq 0 ]; then ok "no two objects use each other's symbols (a registry and its entries aside)"; else
	not_ok "no two objects use each other's symbols (a registry and its entries aside)" "$(head -n 20 "$T/out")"; fi
# … and sees two planted objects that do, but not a registry's entry that uses the registry.
cp -R "$TB_BUILD/obj" "$T/obj"
printf 'void planted_b(void);\nvoid planted_a(void) { planted_b(); }\n' >"$T/tree/ctl/gputest/planted_a.c"
printf 'void planted_a(void);\nvoid planted_b(void) { planted_a(); }\n' >"$T/tree/ctl/gputest/planted_b.c"
printf 'int main(int, char **);\nint (*const status_command)(int, char **) = main;\n' >"$T/tree/ctl/cmd/planted_entry.c"
for f in gputest/planted_a gputest/planted_b cmd/planted_entry; do cc -c -o "$T/obj/ctl/$f.o" "$T/tree/ctl/$f.c"; done
rm "$T/obj/ctl/cmd/status.o"
run_cmd python3 "$TB_TOP/tests/tools/symbol-cycles.py" "$T/tree" "$T/obj"
check "the cycle check names two objects that call each other" \
	sh -c "[ $rc -eq 1 ] && grep -qx 'ctl/gputest/planted_a.o <-> ctl/gputest/planted_b.o: planted_a.o uses planted_b; planted_b.o uses planted_a' '$T/out'"
check "… and only them: the command registry's entry may use the registry" test "$(wc -l <"$T/out")" -eq 1
rm -rf "$T/obj" "$T/tree/ctl/gputest/planted_a.c" "$T/tree/ctl/gputest/planted_b.c" "$T/tree/ctl/cmd/planted_entry.c"

# --- contracts spelled once ---
run_cmd literals "$TB_TOP"
if [ "$rc" -eq 0 ] && [ ! -s "$T/out" ]; then ok "no store path, exit code, variable or smoke test name outside tb323fu-mesa/common"; else
	not_ok "no store path, exit code, variable or smoke test name outside tb323fu-mesa/common" "$(head -n 20 "$T/out")"; fi
cat >>"$T/tree/ctl/gputest/side.c" <<'C'
static const char *planted(void) { return getenv("OCL_ICD_VENDORS") ? "vk.compute" : "env/current.env"; }
static void planted_exit(void) { exit(3); }
C
printf 'static const char *root = "/var/lib/tb323fu/mesa";\n' >>"$T/tree/tb323fu-mesa/launcher/which.c"
run_cmd literals "$T/tree"
check "the literal check sees a variable, a test name, a store path and an exit code" \
	test "$(grep -c '^ctl/gputest/side.c:' "$T/out")" -eq 2 -a "$(grep -c '^tb323fu-mesa/launcher/which.c:' "$T/out")" -eq 1

# --- a changed header rebuilds exactly its users ---
build=$(basename "$TB_BUILD")
mk() { make -C "$TB_TOP" --no-print-directory -n BUILD="$build" SANITIZE="${SANITIZE:-}" "$@" all unit-tests 2>&1; }
compiled() { grep -oE " -o $build/obj/[^ ]+\.o" | sed "s| -o $build/||" | sort; }
if [ -n "$(mk | compiled)" ]; then
	not_ok "the build is up to date before the header checks" "$(mk | compiled | head -n 5)"
else
	ok "the build is up to date before the header checks"
	headers=$(cd "$TB_TOP" && echo tb323fu-mesa/common/*.h ctl/store/store.h ctl/base/error.h)
	# shellcheck disable=SC2086 # the paths hold no blanks
	python3 "$TB_TOP/tests/tools/header-users.py" "$TB_TOP" $headers >"$T/users"
	for rel in $headers; do
		mk -W "$rel" | compiled >"$T/made"
		sed -n "s|^$rel ||p" "$T/users" | sort >"$T/want"
		if [ -s "$T/want" ] && cmp -s "$T/want" "$T/made"; then ok "a change of $rel rebuilds its $(wc -l <"$T/want") users and nothing else"; else
			not_ok "a change of $rel rebuilds its users and nothing else" "$(diff "$T/want" "$T/made" | head -n 10)"; fi
	done
fi
done_testing
