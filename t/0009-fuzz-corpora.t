#!/bin/sh
test_description='every committed fuzz corpus replays through its harness without a crash or a sanitizer report'
. "$(dirname "$0")/lib.sh"

# The harnesses are fuzz/*.cpp; make check (and make test of this file) builds them in fuzz/build/.
harnesses=$(cd "$TOP/fuzz" && ls ./*.cpp | sed 's|^\./||; s|\.cpp$||')
[ -n "$harnesses" ] || bail_out "no harness in fuzz/"
for h in $harnesses; do
	[ -x "$TOP/fuzz/build/$h" ] ||
		skip_all "fuzz/build/$h is not built (make fuzz-build; scripts/install-deps installs clang)"
done

# replay NAME: runs each file of fuzz/corpus/NAME/ once through fuzz/build/NAME (a crash, a
# sanitizer report or a failed property exits non-zero), then checks that every file was run.
replay () {
	local corpus=$TOP/fuzz/corpus/$1 count
	count=$(ls "$corpus" | wc -l) &&
	test "$count" -gt 0 &&
	"$TOP/fuzz/build/$1" -artifact_prefix="$TRASH/$1-" "$corpus"/* >"$1.log" 2>&1 &&
	test "$(grep -c '^Executed ' "$1.log")" -eq "$count"
}

for h in $harnesses; do
	test_expect_success "fuzz/corpus/$h/ replays through the $h harness without a finding" "
		replay $h
	"
done

test_done
