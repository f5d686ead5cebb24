#!/bin/sh
# tb323fu-mesa's command line: argv and exit status pass through `run` untouched, the store is
# chosen as documented, `env` prints what a run sets, and every refusal is one clear sentence
# with the right exit code.
. "$TB_TOP/tests/lib.sh"

V1=2026.10.06
V2=2026.10.08

# --- nothing installed ---
expect_exit 1 "run with nothing installed" mesa run true
check "exactly the sentence of the design, with the --store given" \
	test "$(cat "$T/err")" = "tb323fu-mesa: no Mesa version installed (tb323fu-ctl --store $STORE mesa update)"
expect_exit 1 "env with nothing installed" mesa env
expect_exit 1 "which with nothing installed" mesa which
check "the same sentence" grep -qx "tb323fu-mesa: no Mesa version installed (tb323fu-ctl --store $STORE mesa update)" "$T/err"
expect_exit 0 "distro works with nothing installed" mesa distro true
check "…and leaves the caller's RUSTICL_ENABLE as it is" test "$(RUSTICL_ENABLE=mine mesa distro printenv RUSTICL_ENABLE)" = mine
check "…and sets none of its own" sh -c "! '$MESA' --store '$STORE' distro printenv RUSTICL_ENABLE"

# releases without GL: the library path of Vulkan and OpenCL alone (GL: gl_run.sh)
R1=$(standin $V1 --no-gl) && R2=$(standin $V2 --ld-library-path lib --no-gl) ||
	{ not_ok "stand-in releases"; done_testing; exit 1; }
ctl mesa install-local "$R1" --no-smoke >/dev/null || not_ok "install $V1"
REAL=$(cd "$STORE" && pwd -P)

# --- argv and exit status ---
expect_exit 0 "run passes argv through" mesa run sh -c 'for a; do printf "[%s]\n" "$a"; done' sh \
	"two words" "" "-x" "--version" "  lead and trail  " "*" '$HOME' "a
b"
printf '[two words]\n[]\n[-x]\n[--version]\n[  lead and trail  ]\n[*]\n[$HOME]\n[a\nb]\n' >"$T/want"
check "spaces, empty arguments, a leading -, globs, \$ and newlines arrive unchanged" cmp -s "$T/out" "$T/want"
expect_exit 0 "-- before a COMMAND" mesa run -- printf '%s\n' -n
check "the command after -- gets its own options" test "$(cat "$T/out")" = "-n"
expect_exit 0 "argv passes through distro too" mesa distro printf '<%s>' "a b" "" -c
check "distro argv unchanged" test "$(cat "$T/out")" = "<a b><><-c>"
expect_exit 7 "the command's exit status is run's" mesa run sh -c 'exit 7'
expect_exit 0 "status 0" mesa run true
expect_exit 1 "status 1" mesa run false
expect_exit 255 "status 255" mesa run sh -c 'exit 255'
expect_exit 3 "distro passes the status too" mesa distro sh -c 'exit 3'
check "no fork: the command keeps the launcher's pid" sh -c \
	'"$1" --store "$2" run sh -c "echo \$\$" >"$3/pid" & echo $! >"$3/bgpid"; wait; cmp -s "$3/pid" "$3/bgpid"' \
	sh "$MESA" "$STORE" "$T"
check "stdin reaches the command" test "$(echo piped | mesa run cat)" = piped
check "the command gets the store's variables" test "$(mesa run printenv RUSTICL_ENABLE)" = llvmpipe

# --- refusals ---
expect_exit 127 "a command that does not exist" mesa run no-such-command-tb323fu
check "says it is not found" grep -qx "tb323fu-mesa: no-such-command-tb323fu: command not found" "$T/err"
expect_exit 126 "a command that cannot be run" mesa run "$STORE/env/current.env"
check "says why" grep -q "^tb323fu-mesa: cannot run .*Permission denied" "$T/err"
expect_exit 1 "run --version of a version not installed" mesa run --version 2027.01.01 true
check "the version-unknown sentence" grep -qx "tb323fu-mesa: version 2027.01.01 is not installed (tb323fu-ctl --store $STORE mesa list)" "$T/err"
expect_exit 2 "run --version with a path in it" mesa run --version ../../etc/x true
check "refused as a version name" grep -q "is not a version name" "$T/err"
expect_exit 2 "run without a COMMAND" mesa run
expect_exit 2 "run --version without a value" mesa run --version
expect_exit 2 "an unknown run option" mesa run --bogus true
expect_exit 2 "no command at all" "$MESA"
expect_exit 2 "an unknown command" mesa start true
expect_exit 2 "an unknown global option" "$MESA" --bogus run true
expect_exit 2 "env --format xml" mesa env --format xml
expect_exit 2 "which --pid with --version" mesa which --pid 1 --version $V1
expect_exit 0 "--help" "$MESA" --help
check "--help shows the usage" grep -q "^usage: tb323fu-mesa" "$T/out"
# A damaged env file: refused, with the file and line named, the command never started.
cp "$STORE/env/current.env" "$T/saved.env"
printf 'VK_DRIVER_FILES=$(touch %s/ran)\n' "$T" >"$STORE/env/current.env"
expect_exit 1 "a damaged env file" mesa run touch "$T/started"
check "names the file and line" grep -q "current.env line 1 " "$T/err"
check "neither the command nor the file's text ran" sh -c "test ! -e '$T/started' && test ! -e '$T/ran'"
cp "$T/saved.env" "$STORE/env/current.env"

# --- which store ---
check "TB323FU_MESA_DIR selects the store" test "$(TB323FU_MESA_DIR="$STORE" "$MESA" run printenv OCL_ICD_VENDORS)" = "$REAL/icd/opencl"
check "--store wins over TB323FU_MESA_DIR" test "$(TB323FU_MESA_DIR=/nonexistent mesa run printenv OCL_ICD_VENDORS)" = "$REAL/icd/opencl"
check "--store=DIR works too" test "$("$MESA" --store="$STORE" run printenv RUSTICL_ENABLE)" = llvmpipe
TB323FU_MESA_DIR="$T/none" expect_exit 1 "an empty store named by TB323FU_MESA_DIR" "$MESA" run true

# --- env ---
expect_exit 0 "env" mesa env
check "env prints export lines that select the store" grep -qx "export VK_DRIVER_FILES=$REAL/icd/turnip.json" "$T/out"
check "env output evaluates in sh to what run sets" test \
	"$(sh -c 'eval "$("$1" --store "$2" env)"; printenv VK_ICD_FILENAMES OCL_ICD_VENDORS RUSTICL_ENABLE' sh "$MESA" "$STORE")" = \
	"$(mesa run printenv VK_ICD_FILENAMES OCL_ICD_VENDORS RUSTICL_ENABLE)"
expect_exit 0 "env --format json" mesa env --format json
check "env json: version, store, variables" test \
	"$(json 'd["version"], d["store"], d["env"]["VK_DRIVER_FILES"], d["env"]["RUSTICL_ENABLE"], d["prepend"]' <"$T/out")" = \
	"('$V1', '$REAL', '$REAL/icd/turnip.json', 'llvmpipe', [])"

# --- a release that asks for LD_LIBRARY_PATH ---
ctl mesa install-local "$R2" --no-smoke >/dev/null || not_ok "install $V2"

# --- what a program was started on: TB323FU_MESA_VERSION, and which inside it ---
check "run gives the program TB323FU_MESA_VERSION (current's, $V2) and the store's real path" \
	test "$(mesa run sh -c 'echo "$TB323FU_MESA_VERSION $TB323FU_MESA_DIR"')" = "$V2 $REAL"
check "run --version $V1 gives $V1" test "$(mesa run --version $V1 printenv TB323FU_MESA_VERSION)" = "$V1"
check "which inside run --version $V1 names $V1, the version it was started on, not current" \
	test "$(mesa run --version $V1 "$MESA" which | head -n 1)" = \
	"Mesa $V1, the version this program was started on, from the store $REAL ($REAL/env/$V1.env)"
check "distro's program runs on no version of ours" \
	test "$(mesa run --version $V1 "$MESA" --store "$STORE" distro sh -c 'echo "${TB323FU_MESA_VERSION-unset}"')" = unset
check "$V2's env file prepends its lib/" grep -qx "LD_LIBRARY_PATH=$REAL/versions/$V2/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" "$STORE/env/$V2.env"
check "run sets LD_LIBRARY_PATH to current/lib" test "$(env -u LD_LIBRARY_PATH "$MESA" --store "$STORE" run printenv LD_LIBRARY_PATH)" = "$REAL/current/lib"
check "run puts it before the inherited value" test "$(LD_LIBRARY_PATH=/opt/a:/opt/b mesa run printenv LD_LIBRARY_PATH)" = "$REAL/current/lib:/opt/a:/opt/b"
check "run drops the store's directories the session put there, once" \
	test "$(LD_LIBRARY_PATH="$REAL/current/lib:/opt/a" mesa run printenv LD_LIBRARY_PATH)" = "$REAL/current/lib:/opt/a"
check "run --version $V1 (no LD_LIBRARY_PATH of its own) drops the session's store directory" \
	test "$(LD_LIBRARY_PATH="$REAL/current/lib:/opt/a" mesa run --version $V1 printenv LD_LIBRARY_PATH)" = "/opt/a"
check "run --version $V2 uses that version's lib/" \
	test "$(LD_LIBRARY_PATH=/opt/a mesa run --version $V2 printenv LD_LIBRARY_PATH)" = "$REAL/versions/$V2/lib:/opt/a"
check "distro removes the store's directories and keeps the rest" \
	test "$(LD_LIBRARY_PATH="/opt/a:$REAL/current/lib::/opt/b:$REAL/versions/$V1/lib" mesa distro printenv LD_LIBRARY_PATH)" = "/opt/a::/opt/b"
check "distro unsets LD_LIBRARY_PATH when only store directories were in it" \
	sh -c "! LD_LIBRARY_PATH='$REAL/current/lib' '$MESA' --store '$STORE' distro printenv LD_LIBRARY_PATH"
check "distro unsets the variables that select the store's files" \
	sh -c "! VK_DRIVER_FILES=x VK_ICD_FILENAMES=x OCL_ICD_VENDORS=x '$MESA' --store '$STORE' distro env | grep -qE '^(VK_DRIVER_FILES|VK_ICD_FILENAMES)=|^OCL_ICD_VENDORS=(x|$REAL)'"
check "…and selects the system's vendor file of the store's OpenCL driver instead" \
	sh -c "OCL_ICD_VENDORS=x '$MESA' --store '$STORE' distro env | grep -qx 'OCL_ICD_VENDORS=/etc/OpenCL/vendors/rusticl.icd'"
check "distro selects the driver the current version selects (RUSTICL_ENABLE of its env file)" \
	test "$(mesa distro printenv RUSTICL_ENABLE)" = llvmpipe
check "distro keeps the caller's own RUSTICL_ENABLE" test "$(RUSTICL_ENABLE=mine mesa distro printenv RUSTICL_ENABLE)" = mine
check "an empty RUSTICL_ENABLE is no choice: the current version's" test "$(RUSTICL_ENABLE='' mesa distro printenv RUSTICL_ENABLE)" = llvmpipe
check "distro --version $V1: that version's value, also over the caller's" \
	test "$(RUSTICL_ENABLE=mine mesa distro --version $V1 printenv RUSTICL_ENABLE)" = llvmpipe
expect_exit 1 "distro --version of a version not installed" mesa distro --version 2000.01.01 true
check "…says so" grep -qx "tb323fu-mesa: version 2000.01.01 is not installed (tb323fu-ctl --store $STORE mesa list)" "$T/err"
expect_exit 2 "distro with an unknown option" mesa distro --verbose true
check "distro leaves other variables alone" test "$(OTHER=kept mesa distro printenv OTHER)" = kept
check "a store reached through a link is recognised in LD_LIBRARY_PATH" sh -c \
	"ln -s '$REAL' '$T/link' && test \"\$(LD_LIBRARY_PATH='$T/link/current/lib:/opt/a' '$MESA' --store '$T/link' distro printenv LD_LIBRARY_PATH)\" = /opt/a"
expect_exit 0 "env --version $V2 --format json" mesa env --version $V2 --format json
check "env json marks the prepended variable" test "$(json 'd["env"]["LD_LIBRARY_PATH"], d["prepend"]' <"$T/out")" = "('$REAL/versions/$V2/lib', ['LD_LIBRARY_PATH'])"
expect_exit 0 "env --version $V2" mesa env --version $V2
check "env prints the prepend form for sh" grep -qx "export LD_LIBRARY_PATH=$REAL/versions/$V2/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" "$T/out"

done_testing
