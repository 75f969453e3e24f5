#!/bin/sh
test_description='conf/prometheus/cms-fcgi.rules.yml: promtool accepts the rules, and its unit tests (cms-fcgi.rules.test.yml) pass'
. "$(dirname "$0")/lib.sh"

command -v promtool >/dev/null 2>&1 || skip_all "promtool is not installed (package prometheus, scripts/install-deps)"

test_expect_success 'promtool check rules accepts the rules file' '
	promtool check rules "$TOP/conf/prometheus/cms-fcgi.rules.yml" >check.out 2>&1 ||
		{ cat check.out >&2; false; }
'

test_expect_success 'the rules cover saturation, 5xx, route p99, the database, dying workers and the throttle' '
	for alert in CmsPoolSaturated CmsHigh5xxRate CmsRouteSlow CmsDatabaseUnreachable \
		CmsWorkersDying CmsLoginThrottleRefusing; do
		grep -q "alert: $alert\$" "$TOP/conf/prometheus/cms-fcgi.rules.yml" || return 1
	done
'

test_expect_success 'promtool test rules passes the unit tests of every alert' '
	(cd "$TOP/conf/prometheus" && promtool test rules cms-fcgi.rules.test.yml) >test.out 2>&1 ||
		{ cat test.out >&2; false; } &&
	test "$(grep -c "alertname: Cms" "$TOP/conf/prometheus/cms-fcgi.rules.test.yml")" -ge 6
'

test_done
