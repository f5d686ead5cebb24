#!/bin/sh
# Which driver a program really loads through tb323fu-mesa, asked of the dynamic linker
# (LD_DEBUG) and of the kernel (/proc/PID/maps), never of the variables: the store's lavapipe
# and rusticl for `run`, Debian's own for `distro` (both stay installed system-wide), the older
# version for `run --version`, the other one in a new process after `rollback`.
. "$TB_TOP/tests/lib.sh"

V1=2026.10.06
V2=2026.10.07
R1=$(standin $V1) && R2=$(standin $V2) || { not_ok "stand-in releases"; done_testing; exit 1; }
ctl mesa install-local "$R1" --no-smoke >/dev/null &&
	ctl mesa install-local "$R2" --no-smoke >/dev/null ||
	{ not_ok "install the stand-in releases"; done_testing; exit 1; }
REAL=$(cd "$STORE" && pwd -P)
SYSLIB=/usr/lib/${DEB_HOST_MULTIARCH:-$(gcc -print-multiarch 2>/dev/null || dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo "$(uname -m)-linux-gnu")}

realpaths() { while read -r p; do readlink -f "$p"; done; }
# loaded CMD…: runs CMD with the dynamic linker's trace; leaves in $T/loaded the real path of
# every library it initialised (whoever started it: the loaders open drivers with dlopen), and
# in $T/loaded.names the names the trace gave them.
loaded() {
	rm -f "$T"/ld.*
	LD_DEBUG=files LD_DEBUG_OUTPUT="$T/ld" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	cat "$T"/ld.* 2>/dev/null | sed -n 's/.*calling init: //p' | sort -u >"$T/loaded.names"
	realpaths <"$T/loaded.names" | sort -u >"$T/loaded"
	return $rc
}
# The Vulkan / OpenCL driver libraries of the trace (not the loaders).
vk_drivers() { grep -E '/libvulkan_[^/]*$' "$T/loaded"; }
cl_drivers() { grep -E '/lib(RusticlOpenCL|MesaOpenCL)[^/]*$' "$T/loaded"; }

# The session of a user who switched the store on: the variables the launcher must replace
# (run --version) or remove (distro). The test directory's path has no blanks.
SESSION="VK_DRIVER_FILES=$REAL/icd/turnip.json VK_ICD_FILENAMES=$REAL/icd/turnip.json
OCL_ICD_VENDORS=$REAL/icd/opencl RUSTICL_ENABLE=llvmpipe LD_LIBRARY_PATH=$REAL/current/lib:/opt/nothing"
# shellcheck disable=SC2086
session() { env $SESSION "$@"; }

# --- Vulkan ---
if loaded mesa run vulkaninfo --summary; then ok "run vulkaninfo --summary"; else not_ok "run vulkaninfo --summary" "$(tail -5 "$T/err")"; fi
check "run: vulkaninfo found a device on the store's lavapipe" grep -q 'driverName *= llvmpipe' "$T/out"
check "run: the driver was opened through current/" grep -qx "$REAL/current/lib/libvulkan_lvp.so" "$T/loaded.names"
check "run: the one Vulkan driver loaded is the store's libvulkan_lvp.so of $V2" \
	test "$(vk_drivers)" = "$REAL/versions/$V2/lib/libvulkan_lvp.so"
check "run: no system Vulkan driver was loaded" sh -c "! grep -q '^$SYSLIB/libvulkan_' '$T/loaded'"

if loaded session "$MESA" --store "$STORE" distro vulkaninfo --summary; then ok "distro vulkaninfo --summary (session switched on)"; else not_ok "distro vulkaninfo --summary" "$(tail -5 "$T/err")"; fi
check "distro: the system's libvulkan_lvp.so is loaded" grep -qx "$SYSLIB/libvulkan_lvp.so" "$T/loaded"
check "distro: nothing from the store is loaded" sh -c "! grep -q '^$REAL/' '$T/loaded'"

if loaded session "$MESA" --store "$STORE" run --version $V1 vulkaninfo --summary; then ok "run --version $V1 (current is $V2)"; else not_ok "run --version $V1" "$(tail -5 "$T/err")"; fi
check "run --version: the driver of $V1 is loaded, and only it" \
	test "$(vk_drivers)" = "$REAL/versions/$V1/lib/libvulkan_lvp.so"
check "run --version: nothing of $V2 is loaded, the session's library directory neither" sh -c "! grep -q '^$REAL/versions/$V2/' '$T/loaded'"

# --- OpenCL ---
if loaded mesa run clinfo -l; then ok "run clinfo -l"; else not_ok "run clinfo -l" "$(tail -5 "$T/err")"; fi
check "run: clinfo lists rusticl with its llvmpipe device" sh -c "grep -q 'Platform #0: rusticl' '$T/out' && grep -q 'Device #0: llvmpipe' '$T/out'"
check "run: the one OpenCL driver loaded is the store's rusticl" \
	test "$(cl_drivers)" = "$(readlink -f "$REAL/versions/$V2/lib/libRusticlOpenCL.so.1")"
check "run: no system OpenCL driver was loaded" sh -c "! grep -qE '^$SYSLIB/lib(Rusticl|Mesa)OpenCL' '$T/loaded'"

if loaded session "$MESA" --store "$STORE" distro clinfo -l; then ok "distro clinfo -l"; else not_ok "distro clinfo -l" "$(tail -5 "$T/err")"; fi
check "distro: the system's rusticl is loaded" grep -qx "$(readlink -f "$SYSLIB/libRusticlOpenCL.so.1")" "$T/loaded"
check "distro: nothing from the store is loaded" sh -c "! grep -q '^$REAL/' '$T/loaded'"

# Outside a switched-on session nobody sets RUSTICL_ENABLE: distro takes the store's value,
# or the distribution's rusticl would offer no device.
if loaded mesa distro clinfo -l; then ok "distro clinfo -l (RUSTICL_ENABLE not set)"; else not_ok "distro clinfo -l (RUSTICL_ENABLE not set)" "$(tail -5 "$T/err")"; fi
check "distro: the system's rusticl offers its llvmpipe device" sh -c "grep -q 'Platform #0: rusticl' '$T/out' && grep -q 'Device #0: llvmpipe' '$T/out'"
check "distro: that rusticl is the system's library, not the store's" \
	sh -c "test \"\$(grep -E '/libRusticlOpenCL[^/]*\$' '$T/loaded')\" = '$(readlink -f "$SYSLIB/libRusticlOpenCL.so.1")'"
# Clover (or PoCL) registered beside rusticl: distro shows only the distribution's vendor file
# of the store's driver, as run shows only the store's, so a program that walks every platform
# (clpeak exits 255 on Clover's, which has no device) runs on distro as it does on run.
check "distro: only one OpenCL platform, rusticl" sh -c "test \"\$(grep -c '^Platform #' '$T/out')\" = 1"
check "distro selects the system's vendor file of the store's driver" \
	test "$(mesa distro env | sed -n 's/^OCL_ICD_VENDORS=//p')" = "$(grep -l 'libRusticlOpenCL' /etc/OpenCL/vendors/*.icd | head -n 1)"
if command -v clpeak >/dev/null; then
	expect_exit 0 "distro clpeak --kernel-latency (the real clpeak, Clover registered: $(ls /etc/OpenCL/vendors | tr '\n' ' '))" \
		mesa distro clpeak --kernel-latency
	check "…measured on rusticl" grep -q 'Platform: rusticl' "$T/out"
else
	skip "distro clpeak --kernel-latency" "clpeak is not installed"
fi
if loaded env RUSTICL_ENABLE=nonesuch "$MESA" --store "$STORE" distro clinfo -l; then ok "distro clinfo -l (RUSTICL_ENABLE=nonesuch)"; else not_ok "distro clinfo -l (RUSTICL_ENABLE=nonesuch)" "$(tail -5 "$T/err")"; fi
check "distro: the caller's RUSTICL_ENABLE is kept (no driver by that name, no device)" \
	sh -c "grep -q 'Platform #0: rusticl' '$T/out' && ! grep -q 'Device #' '$T/out'"

if loaded mesa run --version $V1 clinfo -l; then ok "run --version $V1 clinfo -l"; else not_ok "run --version $V1 clinfo -l" "$(tail -5 "$T/err")"; fi
check "run --version: rusticl of $V1" \
	test "$(cl_drivers)" = "$(readlink -f "$REAL/versions/$V1/lib/libRusticlOpenCL.so.1")"

# --- which: what a run would load ---
expect_exit 0 "which" mesa which
check "which names the ICD file through the store" grep -qx "Vulkan ICD file $REAL/icd/turnip.json" "$T/out"
check "which names the Vulkan driver of $V2" grep -qx "Vulkan driver $REAL/versions/$V2/lib/libvulkan_lvp.so" "$T/out"
check "which names the OpenCL driver" grep -qx "OpenCL driver $REAL/current/lib/libRusticlOpenCL.so.1" "$T/out"
expect_exit 0 "which --version $V1 --json" mesa which --version $V1 --json
check "which --json: version, ICD and driver of $V1" test "$(json 'd["version"], d["current"], d["vulkan"]["icd_files"], d["vulkan"]["drivers"], d["opencl"]["drivers"], d["opencl"]["rusticl_enable"]' <"$T/out")" = \
	"('$V1', False, ['$REAL/icd/versions/$V1/turnip.json'], ['$REAL/versions/$V1/lib/libvulkan_lvp.so'], ['$REAL/versions/$V1/lib/libRusticlOpenCL.so.1'], 'llvmpipe')"

# --- which --pid: what running processes have really loaded ---
cat >"$T/holder.py" <<'EOF'
# Loads the drivers through the system's loaders the way applications do, says so, and stays.
import ctypes, signal, sys

if sys.argv[1] == "vulkan":
    class InstanceCreateInfo(ctypes.Structure):
        _fields_ = [("sType", ctypes.c_int), ("pNext", ctypes.c_void_p), ("flags", ctypes.c_uint32),
                    ("pApplicationInfo", ctypes.c_void_p), ("enabledLayerCount", ctypes.c_uint32),
                    ("ppEnabledLayerNames", ctypes.c_void_p), ("enabledExtensionCount", ctypes.c_uint32),
                    ("ppEnabledExtensionNames", ctypes.c_void_p)]
    vk = ctypes.CDLL("libvulkan.so.1")
    info = InstanceCreateInfo(1)  # VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO
    instance = ctypes.c_void_p()
    if vk.vkCreateInstance(ctypes.byref(info), None, ctypes.byref(instance)) != 0:
        sys.exit("vkCreateInstance failed")
elif sys.argv[1] == "opencl":
    cl = ctypes.CDLL("libOpenCL.so.1")
    count = ctypes.c_uint32()
    if cl.clGetPlatformIDs(0, None, ctypes.byref(count)) != 0:
        sys.exit("clGetPlatformIDs failed")
print("ready", flush=True)
signal.pause()
EOF
# hold API CMD…: starts CMD python3 holder.py API in the background and waits until it has
# loaded its drivers (a FIFO: a holder that dies early ends the wait with EOF). CMD is a
# program, not a shell function, so $! is the pid the launcher's exec keeps.
hold() {
	api=$1
	shift
	rm -f "$T/ready"
	mkfifo "$T/ready"
	"$@" python3 "$T/holder.py" "$api" >"$T/ready" 2>"$T/holder.err" &
	holder=$!
	TB_KILL_ON_EXIT="${TB_KILL_ON_EXIT:-} $holder"
	read -r line <"$T/ready" || line=
	[ "$line" = ready ]
}
stop() { kill "$@" 2>/dev/null; wait "$@" 2>/dev/null; }
which_pid() { mesa which --pid "$1" --json | json "$2"; }

check "a Vulkan program started by run" hold vulkan "$MESA" --store "$STORE" run
old=$holder
check "which --pid: the store's lavapipe of $V2 and nothing else" \
	test "$(which_pid $old '[(x["api"], x["origin"], x["version"], x["path"]) for x in d["drivers"]]')" = \
	"[('vulkan', 'store', '$V2', '$REAL/versions/$V2/lib/libvulkan_lvp.so')]"
expect_exit 0 "which --pid (human)" mesa which --pid $old
check "which --pid says it is the store's Mesa $V2" grep -qx "Vulkan driver $REAL/versions/$V2/lib/libvulkan_lvp.so: the store's Mesa $V2" "$T/out"

expect_exit 0 "rollback" ctl mesa rollback
check "a Vulkan program started after the rollback" hold vulkan "$MESA" --store "$STORE" run
check "the new process loads $V1 at once, without a new login" \
	test "$(which_pid $holder '[(x["origin"], x["version"]) for x in d["drivers"]]')" = "[('store', '$V1')]"
check "the process started before keeps $V2" \
	test "$(which_pid $old '[(x["origin"], x["version"]) for x in d["drivers"]]')" = "[('store', '$V2')]"
stop $old $holder

check "an OpenCL program started by run" hold opencl "$MESA" --store "$STORE" run
check "which --pid: the store's rusticl of $V1" \
	test "$(which_pid $holder '[(x["api"], x["origin"], x["version"]) for x in d["drivers"]]')" = "[('opencl', 'store', '$V1')]"
stop $holder
# shellcheck disable=SC2086
check "an OpenCL program started by distro" hold opencl env $SESSION "$MESA" --store "$STORE" distro
check "which --pid: only the system's OpenCL drivers" \
	test "$(which_pid $holder 'sorted(set(x["origin"] for x in d["drivers"])), any(x["path"] == "'"$(readlink -f "$SYSLIB/libRusticlOpenCL.so.1")"'" for x in d["drivers"])')" = "(['system'], True)"
stop $holder

check "a program without drivers" hold none env
check "which --pid: no driver loaded" test "$(which_pid $holder 'd["drivers"]')" = "[]"
stop $holder
expect_exit 1 "which --pid of a process that is gone" mesa which --pid $holder
check "it says so" grep -q "no process $holder is running" "$T/err"
expect_exit 2 "which --pid with a bad process id" mesa which --pid 12x

done_testing
