#!/bin/sh
# The smoke program under Khronos's validation layer (Debian's vulkan-validationlayers),
# through `tb323fu-mesa run` on a stand-in release: the layer reports nothing but notes. A
# program with one forbidden call, under the same settings and the same listener, is reported
# first: the check would catch a misuse that lavapipe tolerates and Turnip may not, and the
# "nothing reported" of the smoke program means something only when that call was heard.
# The layer's messages are heard through VK_EXT_debug_utils (tests/tools/vk-messages.c,
# preloaded), not read from its log, whose wording changes between releases of the layer.
. "$TB_TOP/tests/lib.sh"

LAYER_JSON=$(grep -l VK_LAYER_KHRONOS_validation /usr/share/vulkan/explicit_layer.d/*.json 2>/dev/null | head -n 1)
if [ -z "$LAYER_JSON" ]; then
	skip "the smoke program under the validation layer" "the validation layer is not installed (apt-get install vulkan-validationlayers)"
	done_testing
	exit 0
fi
V=2026.07.01
R=$(standin $V) || { not_ok "stand-in release"; done_testing; exit 1; }
expect_exit 0 "install-local $V" ctl mesa install-local "$R" --sums "$(dirname "$R")/SHA256SUMS" --no-smoke
REAL=$(cd "$STORE" && pwd -P)
check "build the listener (tests/tools/vk-messages.c)" \
	cc -Wall -Wextra -Werror -shared -fPIC -o "$T/vk-messages.so" "$TB_TOP/tests/tools/vk-messages.c" -ldl
check "build the forbidden call (tests/doubles/vk-wrong-call.c)" \
	cc -o "$T/wrong" "$TB_TOP/tests/doubles/vk-wrong-call.c" -lvulkan

# Every severity; the layer writes no log of its own (only the listener is read).
cat >"$T/vk_layer_settings.txt" <<EOF2
khronos_validation.debug_action = VK_DBG_LAYER_ACTION_IGNORE
khronos_validation.report_flags = error,warn,perf,info
EOF2
# validated CMD…: CMD under the layer, each message the layer sends a line of $T/messages.
# (A sanitizer build's launcher is dynamic: the preload comes before its sanitizer runtime.)
validated() {
	rm -f "$T/messages"
	env VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation VK_LAYER_SETTINGS_PATH="$T/vk_layer_settings.txt" \
		XDG_CACHE_HOME="$T/cache" VK_MESSAGES_FILE="$T/messages" LD_PRELOAD="$T/vk-messages.so" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" "$@"
}
# findings: the warnings and errors heard, "SEVERITY ID" one a line (notes are INFO).
findings() { awk -F '\t' '$1 == "WARNING" || $1 == "ERROR" { print $1, $2 }' "$T/messages" 2>/dev/null; }

expect_exit 0 "a program with one forbidden call runs on the store's driver" \
	validated "$MESA" --store "$STORE" run --version $V "$T/wrong"
check "…the layer was active: it sent messages" test -s "$T/messages"
heard=$(findings)
if [ "$heard" = "ERROR VUID-VkBufferCreateInfo-size-00912" ]; then
	ok "…and it reported the forbidden call, and only that"
else
	not_ok "…and it reported the forbidden call, and only that" "heard: ${heard:-nothing}"
fi

expect_exit 0 "the smoke program's Vulkan tests pass under the validation layer" \
	validated "$MESA" --store "$STORE" run --version $V "$SMOKE" --json \
	--vulkan-lib "$REAL/versions/$V/lib/libvulkan_lvp.so" --driver-id 13 --no-opencl
check "…all four of them" test "$(python3 -c 'import json,sys; print([t["status"] for t in json.load(sys.stdin)["tests"]][:4])' <"$T/out")" = \
	"['pass', 'pass', 'pass', 'pass']"
check "…the layer was active: it sent messages" test -s "$T/messages"
bad=$(findings)
if [ "$heard" != "ERROR VUID-VkBufferCreateInfo-size-00912" ]; then
	not_ok "no validation message but the layer's notes" \
		"not checked: the same listener did not hear the forbidden call's message above"
elif [ -n "$bad" ]; then
	not_ok "no validation message but the layer's notes" "$bad" \
		"$(awk -F '\t' '$1 != "INFO" { print $3 }' "$T/messages" | head -n 3 | cut -c1-400)"
else
	ok "no validation message but the layer's notes"
fi
done_testing
