#!/bin/sh
test_description='300 slowloris connections from 127.0.0.2 keep no client of 127.0.0.1 out; one address gets 429 JSON above limit_conn requests at a time'
. "$(dirname "$0")/lib.sh"

command -v ss >/dev/null || skip_all "ss is not installed (iproute2)"

start_db
start_app
start_nginx

# slow.pl MODE FROM COUNT REOPENED: keeps COUNT connections from address FROM to nginx open, as
# a slowloris tool does: each one nginx closes is opened again at once. The file REOPENED holds
# "N EARLY" (written once the first COUNT are open, then on each change): N were reopened, EARLY
# of them closed by nginx sooner than $SLOW_TIMEOUT seconds after they were opened, which only
# nginx's lack of room, never its client_header_timeout, can explain. MODE header:
# a request header sent one byte per connection every 0.5 s, never finished. MODE body: a whole
# POST header announcing 100 bytes of body, and no body. Exits after 120 s, or within 0.1 s of the
# test file that started it.
cat >"$TRASH/slow.pl" <<'EOF'
use strict;
use warnings;
use IO::Select;
use IO::Socket::INET;
use Time::HiRes qw(time);

my ($mode, $from, $count, $reopened_file) = @ARGV;
my $port = $ENV{HTTP_PORT};
my $parent = getppid();
my $end = time + 120;
my $timeout = $ENV{SLOW_TIMEOUT};
my %opened;
my $early = 0;
my $head = $mode eq 'header'
    ? "GET /v1/book HTTP/1.1\r\nHost: localhost\r\nX-Slow: " . ('a' x 100)
    : "POST /v1/book HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
      . "Content-Length: 100\r\n\r\n";
my $sent = $mode eq 'header' ? 1 : length $head;
my $select = IO::Select->new;
my $reopened = 0;
$SIG{PIPE} = 'IGNORE';

sub open_one {
    my $s = IO::Socket::INET->new(PeerAddr => "127.0.0.1:$port", LocalAddr => $from,
                                  Proto => 'tcp')
        or die "slow.pl: a connection from $from failed: $!\n";
    syswrite $s, substr($head, 0, $sent);
    $select->add($s);
    $opened{$s} = time;
}

sub report {
    open my $fh, '>', "$reopened_file.tmp" or die "slow.pl: $reopened_file.tmp: $!\n";
    print $fh "$reopened $early\n";
    close $fh;
    rename "$reopened_file.tmp", $reopened_file or die "slow.pl: $reopened_file: $!\n";
}

open_one() for 1 .. $count;
report();
my $next_byte = time + 0.5;
while (time < $end && getppid() == $parent) {
    # nginx never answers these requests, so a readable socket is one it closed.
    for my $s ($select->can_read(0.1)) {
        $select->remove($s);
        my $age = time - delete($opened{$s});
        $early++ if $age < $timeout;
        close $s;
        open_one();
        $reopened++;
        report();
    }
    next if time < $next_byte || $sent >= length $head;
    syswrite $_, substr($head, $sent, 1) for $select->handles;
    $sent++;
    $next_byte += 0.5;
}
EOF
# nginx closes a slow header client_header_timeout after its accept, later than slow.pl's connect.
SLOW_TIMEOUT=$(sed -n 's/^client_header_timeout \([0-9]*\)s;$/\1/p' "$TOP/nginx/cms-fcgi.conf")
[ -n "$SLOW_TIMEOUT" ] || bail_out "found no 'client_header_timeout Ns;' in nginx/cms-fcgi.conf"
export HTTP_PORT SLOW_TIMEOUT

# start_slow MODE FROM COUNT: starts slow.pl in the background (SLOW_PID) and waits, at most 10 s,
# until its connections are open.
start_slow () {
	rm -f "$TRASH/slow.reopened"
	perl "$TRASH/slow.pl" "$@" "$TRASH/slow.reopened" 2>>"$TRASH/fixture.log" &
	SLOW_PID=$!
	poll_until 100 test -s "$TRASH/slow.reopened" 2>>"$TRASH/fixture.log" ||
		bail_out "slow.pl did not open its connections"
}

# early: how many slow connections nginx closed before its header timeout (see slow.pl).
early () {
	read -r _ n <"$TRASH/slow.reopened" && echo "$n"
}

# established FROM: connections from address FROM to nginx in state ESTABLISHED, seen from the
# client's end (one nginx closed is no longer ESTABLISHED there).
established () {
	ss -Htn state established "( dport = :$HTTP_PORT and src $1 )" | wc -l
}

# nginx_fds: the open files of nginx's workers, together.
nginx_fds () {
	local w n=0
	for w in $(svc_children "$NGINX_PID"); do
		n=$((n + $(ls "/proc/$w/fd" | wc -l)))
	done
	echo "$n"
}

# paced_load NAME: 40 GETs of /v1/book from 127.0.0.1, the Nth sent 0.1 s x N after the first
# (a fixed schedule, which the time a launch takes does not stretch). Leaves "curl-exit-code
# status" of each request, one a line, in NAME.answers. Each is allowed 30 s, which no request a
# loaded machine serves comes near: what fails a request here is being dropped, at once, not
# slowness. nginx short of connections drops clients, and logs an [alert] (worker_connections are
# not enough) that test_done finds.
paced_load () {
	local i=0 start rest
	start=$(date +%s%N)
	while [ $i -lt 40 ]; do
		{
			code=$(curl --silent --output /dev/null --max-time 30 --write-out '%{http_code}' \
				"http://127.0.0.1:$HTTP_PORT/v1/book")
			echo "$? $code" >"$1.$i"
		} &
		i=$((i + 1))
		rest=$((start + i * 100000000 - $(date +%s%N)))
		[ $rest -le 0 ] || sleep "$(printf '0.%09d' $rest)"
	done
	wait
	cat "$1".[0-9]* >"$1.answers"
}

# complete_200s NAME: how many requests of paced_load NAME got a whole answer with status 200.
complete_200s () {
	grep -c '^0 200$' "$1.answers"
}

test_expect_success 'without slow connections, each of 40 paced requests gets a complete 200' '
	paced_load quiet &&
	test $(wc -l <quiet.answers) -eq 40 &&
	test $(complete_200s quiet) -eq 40
'

nginx_fds >"$TRASH/fds.before"
start_slow header 127.0.0.2 300

test_expect_success '300 slow connections from 127.0.0.2 are open, each accepted by an nginx worker' '
	test "$(early)" -eq 0 &&
	test $(established 127.0.0.2) -eq 300 &&
	test $(nginx_fds) -ge $(($(cat fds.before) + 300))
'

test_expect_success 'with them, each of 40 paced requests from 127.0.0.1 gets a complete 200' '
	paced_load slow &&
	test $(wc -l <slow.answers) -eq 40 &&
	test $(complete_200s slow) -eq 40
'

# Only client_header_timeout may have closed one, should the load have outlasted it on a slow
# machine: slow.pl opens those again at once.
test_expect_success 'nginx closed none of the 300 slow connections to make room while the paced load ran' '
	test "$(early)" -eq 0 &&
	all_established () {
		test $(established 127.0.0.2) -eq 300
	} &&
	poll_until 50 all_established
'

svc_kill "$SLOW_PID" TERM 50

# limit_conn of the shipped cms-fcgi.conf: requests in progress per client address.
limit=$(sed -n 's/^limit_conn cms_fcgi_addr \([0-9]*\);$/\1/p' "$TOP/nginx/cms-fcgi.conf")
[ -n "$limit" ] || bail_out "found no 'limit_conn cms_fcgi_addr N;' in nginx/cms-fcgi.conf"

# The slow bodies of start_slow body are held by nginx once it has read their headers, which
# have then left the sockets' receive queues (the body never comes).
headers_read () {
	test "$(ss -Htn state established "( sport = :$HTTP_PORT and dst $1 )" |
		awk '$1 == 0' | wc -l)" -eq "$2"
}

start_slow body 127.0.0.3 "$limit"
poll_until 100 headers_read 127.0.0.3 "$limit" 2>>"$TRASH/fixture.log" ||
	bail_out "nginx did not read the $limit headers of slow.pl"

test_expect_success "with $limit requests of 127.0.0.3 in progress, its next one answers 429 JSON code 10140" '
	http GET /v1/book "" --interface 127.0.0.3 &&
	expect_status 429 &&
	expect_header Content-Type "^application/json; charset=utf-8$" &&
	expect_json .code 10140 &&
	expect_json .message 请求过于频繁，请稍后重试 &&
	expect_json .request "GET /v1/book"
'

test_expect_success 'meanwhile a request from 127.0.0.1 is served' '
	http GET /v1/book &&
	expect_status 200
'

svc_kill "$SLOW_PID" TERM 50

test_done
