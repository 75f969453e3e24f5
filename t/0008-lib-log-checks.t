#!/bin/sh
test_description='t/lib.sh: the final app-log check fails on a missing log and on a sanitizer report'
. "$(dirname "$0")/lib.sh"

# fake NAME LOG_LINE [COMMAND]: a test file of a copy of this tree that "started" a pool whose log
# holds LOG_LINE (no log at all when LOG_LINE is "-"), ran COMMAND and then test_done; its output
# in NAME.out, its exit status in NAME.rc.
fake () {
	mkdir -p fake/t &&
	ln -sfn "$TOP/scripts" fake/scripts &&
	ln -sfn "$TOP/t/lib.sh" fake/t/lib.sh &&
	ln -sfn "$TOP/t/lib" fake/t/lib &&
	cat >"fake/t/0999-$1.t" <<-EOF_FAKE &&
		. "\$(dirname "\$0")/lib.sh"
		app_started=1
		${3:-}
		[ "$2" = - ] || printf '%s\n' "info: ready" "$2" >"\$TRASH/app.log"
		test_done
	EOF_FAKE
	{ sh "fake/t/0999-$1.t" >"$1.out" 2>&1; echo $? >"$1.rc"; }
}

test_expect_success 'a clean log passes' '
	fake clean "access: method=GET path=/healthz status=200" &&
	test "$(cat clean.rc)" = 0
'

test_expect_success 'a missing log fails' '
	fake missing - &&
	test "$(cat missing.rc)" = 1 &&
	grep -q "^not ok .* app log exists" missing.out
'

test_expect_success 'an AddressSanitizer report fails' '
	fake asan "==123==ERROR: AddressSanitizer: heap-use-after-free on address 0x6020" &&
	test "$(cat asan.rc)" = 1 &&
	grep -q "^not ok .*sanitizer report" asan.out
'

test_expect_success 'an ASan warning that an allocation failed is no report (libfcgi then aborts)' '
	fake warning "==123==WARNING: AddressSanitizer failed to allocate 0xffffffff80000002 bytes" &&
	test "$(cat warning.rc)" = 0
'

test_expect_success 'a UBSan report fails even where app errors are allowed' '
	fake ubsan "src/db/db.cpp:12:5: runtime error: signed integer overflow" allow_app_errors &&
	test "$(cat ubsan.rc)" = 1 &&
	! grep -q "app log has no error: lines" ubsan.out &&
	grep -q "^not ok .*sanitizer report" ubsan.out
'

test_done
