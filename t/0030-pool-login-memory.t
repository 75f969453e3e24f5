#!/bin/sh
test_description='a login gives its password hash memory back: a worker does not grow with logins'
. "$(dirname "$0")/lib.sh"

start_db
# One worker, so that every login below hashes in the process that is measured.
start_app workers=1
start_nginx

# rss_kb: the resident set (kB) of the pool's only worker, into file rss.
rss_kb () {
	sed -n "s/^VmRSS:[[:space:]]*\([0-9]*\) kB$/\1/p" "/proc/$(pool_workers)/status" >rss &&
	test -s rss
}

test_expect_success 'setup: the pool has one worker, which has logged root in once' '
	test "$(pool_workers | wc -w)" -eq 1 &&
	login root "$ROOT_PASSWORD" &&
	rss_kb &&
	mv rss rss.before
'

# A hash needs megabytes (7 MiB at today'"'"'s cost, 19 MiB before); kept in the heap, the second
# login already shows it. 4 MiB leaves room for allocator noise and sanitizer builds.
test_expect_success 'eight more logins grow the worker by less than 4 MiB' '
	for i in 1 2 3 4 5 6 7 8; do
		login root "$ROOT_PASSWORD" || return 1
	done &&
	rss_kb &&
	echo "VmRSS before $(cat rss.before) kB, after $(cat rss) kB" &&
	test $(($(cat rss) - $(cat rss.before))) -lt 4096
'

test_done
