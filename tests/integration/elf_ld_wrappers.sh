#!/bin/sh
# ld-wrappers/: a link through `-B ld-wrappers/` gets RUNPATH $ORIGIN (DT_RUNPATH, not DT_RPATH)
# and a build id, loses build paths, and fails when it needs a glibc newer than the target's.
. "$TB_TOP/tests/lib.sh"

W=$TB_TOP/ld-wrappers/
FX=$TB_TOP/tests/fixtures/elf
unset CFLAGS LDFLAGS
link() { cc -shared -fPIC -O1 -B"$W" "$@"; }
dyn() { readelf -d "$1"; }

cc -shared -fPIC -O1 -Wl,-soname,libtbdep.so.1 -o "$T/libtbdep.so.1" "$FX/dep.c" ||
	not_ok "the dependency builds"

expect_exit 0 "a link with a build path and old dtags" link -o "$T/libuser.so" "$FX/user.c" \
	-L"$T" -l:libtbdep.so.1 -Wl,-rpath,"$T" -Wl,-rpath="$T/other" -Wl,--disable-new-dtags \
	-Wl,-rpath,'$ORIGIN/../lib'
check "says what it dropped" grep -q "dropped -rpath $T (not relative to \$ORIGIN)" "$T/err"
dyn "$T/libuser.so" >"$T/dyn"
check "DT_RUNPATH holds only the \$ORIGIN entries" grep -q 'Library runpath: \[\$ORIGIN/../lib:\$ORIGIN\]' "$T/dyn"
check "no DT_RPATH" sh -c "! grep -q '(RPATH)' '$T/dyn'"
check "no build path anywhere in the library" sh -c "! grep -q '$T' '$T/libuser.so'"
check "a build id" sh -c "readelf -n '$T/libuser.so' | grep -q 'Build ID'"
check "the dynamic linker finds the dependency next to it" \
	sh -c "env -u LD_LIBRARY_PATH ldd '$T/libuser.so' | grep -q 'libtbdep.so.1 => $T/libtbdep.so.1'"

expect_exit 0 "TB_LD_RUNPATH chooses the entry" env TB_LD_RUNPATH='$ORIGIN/..' \
	cc -shared -fPIC -O1 -B"$W" -o "$T/libother.so" "$FX/plain.c"
check "RUNPATH \$ORIGIN/.." sh -c "readelf -d '$T/libother.so' | grep -q 'Library runpath: \[\$ORIGIN/..\]'"

# getrandom is GLIBC_2.25: a target with 2.24 cannot run the result.
expect_exit 1 "a link needing a glibc newer than TB_LD_MAX_GLIBC fails" env TB_LD_MAX_GLIBC=2.24 \
	cc -shared -fPIC -O1 -B"$W" -o "$T/librandom.so" "$FX/random.c"
check "naming both versions" grep -q "needs glibc 2.25, newer than the target's 2.24" "$T/err"
check "and leaves no output behind" test ! -e "$T/librandom.so"
expect_exit 0 "the same link for a target with 2.25" env TB_LD_MAX_GLIBC=2.25 \
	cc -shared -fPIC -O1 -B"$W" -o "$T/librandom.so" "$FX/random.c"

if command -v aarch64-linux-gnu-gcc >/dev/null; then
	expect_exit 0 "a cross link finds the cross linker through the compiler" \
		aarch64-linux-gnu-gcc -shared -fPIC -O1 -B"$W" -o "$T/libarm.so" "$FX/plain.c"
	check "an aarch64 library with RUNPATH \$ORIGIN" sh -c \
		"readelf -hd '$T/libarm.so' | grep -q AArch64 && readelf -d '$T/libarm.so' | grep -q 'runpath: \[\$ORIGIN\]'"
else
	skip "a cross link finds the cross linker through the compiler" "no aarch64-linux-gnu-gcc"
fi

expect_exit 1 "a missing real linker is one clear sentence" env TB_LD_REAL=/nonexistent/ld \
	cc -shared -fPIC -O1 -B"$W" -o "$T/libx.so" "$FX/plain.c"
check "naming the linker" grep -q "tb-ld: the real linker /nonexistent/ld does not exist" "$T/err"
done_testing
