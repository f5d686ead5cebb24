#!/bin/sh
# docs/helper-backend.md names every field of the helper's Mesa object (the reason ids are
# checked against their table by tests/integration/reasons.sh).
. "$TB_TOP/tests/lib.sh"

for p in Installed Previous Available Downloaded Enabled Trial Tries MaxTries Failed FailedReason Drivers Base State Progress Message \
	Check Download Install SetEnabled Keep Rollback Notes Finished; do
	check "docs/helper-backend.md answers $p" grep -q "^| $p\b\|^## $p\|^## Finished" "$TB_TOP/docs/helper-backend.md"
done
done_testing
