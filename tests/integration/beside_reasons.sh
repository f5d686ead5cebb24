#!/bin/sh
# One list of reason ids: every id the sources can give is in docs/design.md §9's list, and
# docs/helper-backend.md names every field of the helper's Mesa object.
. "$TB_TOP/tests/lib.sh"

python3 - "$TB_TOP" >"$T/ids" 2>&1 <<'EOF'
import re, sys, glob, os
top = sys.argv[1]
doc = open(os.path.join(top, "docs/design.md")).read()
sec = doc[doc.index("## 9."):]
sec = sec[:sec.index("\n## ", 4)]
listed = set(re.findall(r"`([a-z]+(?:-[a-z]+)*)`", sec[sec.index("Every failing JSON object"):sec.index("A `failed` record")]))
used = set()
for f in glob.glob(os.path.join(top, "ctl/**/*.c"), recursive=True):
    text = open(f).read()
    used |= set(re.findall(r'_why\(\s*[^,]+,\s*[^,]+,\s*"([a-z-]+)"', text))
    used |= set(re.findall(r'refuse\(e, u, "([a-z-]+)"', text))
    used |= set(re.findall(r'state_set_failed\([^,]+,[^,]+,\s*"([a-z-]+)"', text))
    for m in re.finditer(r'tb_error_reason\(const struct tb_error \*e\)\n\{(.*?)\n\}', text, re.S):
        used |= set(re.findall(r'return "([a-z-]+)"', m.group(1)))
    for m in re.finditer(r'reason_of_errno\(int errnum\)\n\{(.*?)\n\}', text, re.S):
        used |= set(re.findall(r'return "([a-z-]+)"', m.group(1)))
missing = sorted(used - listed)
print("used %d, listed %d" % (len(used), len(listed)))
print("missing: " + " ".join(missing))
EOF
check "the sources give reason ids ($(head -1 "$T/ids"))" grep -q '^used [1-9]' "$T/ids"
if grep -qx 'missing: ' "$T/ids"; then ok "every id the sources give is in docs/design.md §9"
else not_ok "every id the sources give is in docs/design.md §9" "$(cat "$T/ids")"; fi
for p in Installed Previous Available Downloaded Enabled Trial Tries MaxTries Failed FailedReason Drivers Base State Progress Message \
	Check Download Install SetEnabled Keep Rollback Notes Finished; do
	check "docs/helper-backend.md answers $p" grep -q "^| $p\b\|^## $p\|^## Finished" "$TB_TOP/docs/helper-backend.md"
done
done_testing
