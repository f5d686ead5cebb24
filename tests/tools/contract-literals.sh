#!/bin/sh
# Prints every literal of a contract written outside the contract layer (tb323fu-mesa/common,
# docs/design.md §15): store paths, the store's variable, exit codes, the env files'
# variables, smoke test names. Prints nothing when the sources keep to it.
# Usage: contract-literals.sh TOP
top=${1:?TOP}
cd "$top" || exit 2
files=$(find ctl tb323fu-mesa -name '*.[ch]' -o -name '*.cpp' | grep -v '^tb323fu-mesa/common/' | sort)
# shellcheck disable=SC2086
{
	# the store: its place, its variable, its parts as path literals
	grep -nE '"/var/lib/tb323fu|"TB323FU_MESA_DIR"|"(env|icd|versions|smoke|cache)/|"(\.lock|\.journal|\.reserve|env\.conf|state|current|previous|running|last-operation)"\)' $files |
		grep -E '"/var/lib/tb323fu|TB323FU_MESA_DIR|store_path|path_join|txn_put|stage\(|openat|"(env|icd|versions|smoke|cache)/'
	grep -nE 'store_path\([^,]+, "[^%]' $files
	# exit codes
	grep -nE '\b_?exit\( *[1-9]|[^=!<>]= *12[67]\b' $files
	# the env files' variables, as names or as NAME=… lines
	grep -nE '"(VK_DRIVER_FILES|VK_ICD_FILENAMES|OCL_ICD_VENDORS|RUSTICL_ENABLE|LD_LIBRARY_PATH)[="]' $files
	# smoke test names
	grep -nE '"(vk|cl)\.(loader|driver|compute|sync|platform|kernel)[",]' $files
} | grep -vE '^[^:]+:[0-9]+:[[:space:]]*(/\*|\*|#include)' | sort -u
