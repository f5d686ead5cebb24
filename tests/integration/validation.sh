#!/bin/sh
# The smoke program under Khronos's validation layer (Debian's vulkan-validationlayers),
# through `tb323fu-mesa run` on a stand-in release: the layer is active and reports nothing but
# its own start-up notes. A program with one forbidden call, under the same settings, is
# reported: the check would catch a misuse that lavapipe tolerates and Turnip may not.
. "$TB_TOP/tests/lib.sh"

LAYER_JSON=$(grep -l VK_LAYER_KHRONOS_validation /usr/share/vulkan/explicit_layer.d/*.json 2>/dev/null | head -n 1)
if [ -z "$LAYER_JSON" ]; then
	ok "# SKIP the validation layer is not installed (apt-get install vulkan-validationlayers)"
	done_testing
	exit 0
fi
V=2026.07.01
R=$(standin $V) || { not_ok "stand-in release"; done_testing; exit 1; }
expect_exit 0 "install-local $V" ctl mesa install-local "$R" --sums "$(dirname "$R")/SHA256SUMS" --no-smoke
REAL=$(cd "$STORE" && pwd -P)

# every severity, into a file of the test's own
cat >"$T/vk_layer_settings.txt" <<EOF2
khronos_validation.debug_action = VK_DBG_LAYER_ACTION_LOG_MSG
khronos_validation.log_filename = $T/validation.log
khronos_validation.report_flags = error,warn,perf,info
EOF2
validated() {
	env VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation VK_LAYER_SETTINGS_PATH="$T/vk_layer_settings.txt" \
		XDG_CACHE_HOME="$T/cache" "$@"
}
# The message ids of the log, one a line: "VUID-…(ERROR / SPEC)".
messages() { grep -o '^[A-Za-z0-9_-]*([A-Z]* / [A-Z]*)' "$T/validation.log"; }

rm -f "$T/validation.log"
expect_exit 0 "the smoke program's Vulkan tests pass under the validation layer" \
	validated "$MESA" --store "$STORE" run --version $V "$SMOKE" --json \
	--vulkan-lib "$REAL/versions/$V/lib/libvulkan_lvp.so" --driver-id 13 --no-opencl
check "…all four of them" test "$(python3 -c 'import json,sys; print([t["status"] for t in json.load(sys.stdin)["tests"]][:4])' <"$T/out")" = \
	"['pass', 'pass', 'pass', 'pass']"
check "the layer was active (its start-up note is in the log)" \
	grep -q "Khronos Validation Layer Active" "$T/validation.log"
bad=$(messages | grep -v '(INFO / ')
if [ -z "$bad" ]; then
	ok "no validation message but the layer's notes"
else
	not_ok "no validation message but the layer's notes" "$bad" \
		"$(grep -v '(INFO / ' "$T/validation.log" | grep -m 3 -o 'Validation [A-Za-z]*: .*' | cut -c1-400)"
fi

cc -o "$T/wrong" "$TB_TOP/tests/tools/vk-wrong-call.c" -lvulkan || not_ok "build the wrong call"
rm -f "$T/validation.log"
expect_exit 0 "a program with one forbidden call runs on the same driver" \
	validated "$MESA" --store "$STORE" run --version $V "$T/wrong"
check "…and the layer reports it" \
	test "$(messages | grep -v '(INFO / ')" = "VUID-VkBufferCreateInfo-size-00912(ERROR / SPEC)"
done_testing
