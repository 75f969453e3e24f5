#!/bin/sh
# The CppUnit tests (t/unit/), which print TAP themselves, so prove counts each case.
unit=$(dirname "$0")/unit/unit-tests
if [ ! -x "$unit" ]; then
	echo "Bail out! $unit is not built (run make unit)"
	exit 1
fi
exec "$unit"
