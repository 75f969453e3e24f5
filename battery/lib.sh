# The figures, criteria and measuring helpers of battery/run (sourced by it): figure and criterion
# print and count, the app log read from a mark on, worker deaths and memory, and wrk loads in the
# background. They read battery/run's settings ($out, $url, $pool_pid, ...) when called.
# shellcheck shell=sh disable=SC2154,SC2034 # battery/run sets and reads the globals

# figure KEY VALUE: prints it and keeps it for the last line.
figure () {
	echo "battery: $1=$2"
	summary="$summary $1=$2"
}

# criterion TEXT: true when the test in "$@" after TEXT holds; counts and prints a failure.
criterion () {
	local text="$1"
	shift
	if "$@"; then
		echo "battery: ok: $text"
	else
		echo "battery: FAILED: $text"
		failures=$((failures + 1))
	fi
}

le () { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }'; }
ge () { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'; }

now_ms () {
	echo $(($(date +%s%N) / 1000000))
}

# The size of the app log now: each phase reads only what was logged after its start.
log_mark () {
	wc -c <"$out/cms.log"
}

# log_since MARK: the app log from byte MARK on.
log_since () {
	tail -c +"$(($1 + 1))" "$out/cms.log"
}

# Access lines with a 5xx status other than the documented 503 (database down) and 507 (file
# store full, phase 8), from MARK on.
app_5xx_since () {
	log_since "$1" | grep 'access: .* status=5[0-9][0-9] ' | grep -vc ' status=50[37] ' || true
}

# Worker deaths the master restarted after (deaths during a stop or a restart are not these).
deaths_since () {
	log_since "$1" | grep -c 'worker [0-9]* \(killed by signal\|exited with status\) .*starting another' ||
		true
}

workers_of_pool () {
	svc_children "$pool_pid" | sort -n
}

# Appends "PID VmRSS_KiB" of every worker to rss.log; rss_growth reads it back. After a second's
# rest: a request still running when a load ends (a login holds a 7 MiB Argon2id block) is not
# the worker's size.
rss_sample () {
	local pid rss
	sleep 1
	for pid in $(workers_of_pool); do
		rss=$(sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$pid/status" 2>/dev/null) ||
			continue
		[ -z "$rss" ] || echo "$pid $rss" >>"$out/rss.log"
	done
}

# The largest growth of one worker between its first and its last sample, in KiB.
rss_growth () {
	awk '!($1 in first) { first[$1] = $2 } { last[$1] = $2 }
		END { g = 0; for (p in first) if (last[p] - first[p] > g) g = last[p] - first[p]; print g }' \
		"$out/rss.log"
}

# Polls GET $1 until it answers 200, at most $2 ms; prints the ms it took (or the bound + 1).
ms_until_200 () {
	local start code now
	start=$(now_ms)
	while :; do
		code=$(curl --silent --output /dev/null --max-time 1 --write-out '%{http_code}' "$url$1" 2>/dev/null) ||
			true
		now=$(now_ms)
		if [ "$code" = 200 ]; then
			echo $((now - start))
			return 0
		fi
		[ $((now - start)) -le "$2" ] || { echo $(($2 + 1)); return 0; }
		sleep 0.05
	done
}

# wrk_start NAME CONNECTIONS SECONDS PATH [ARG]: a status.lua GET load in the background, its
# output in NAME.wrk; wrk_wait NAME then reads its battery-result line into $r_*.
wrk_start () {
	local threads=2
	[ "$2" -gt 1 ] || threads=1
	wrk --threads "$threads" --connections "$2" --duration "${3}s" --timeout 5s \
		--script battery/status.lua "$url$4" -- "${5:-0}" >"$out/$1.wrk" 2>&1 &
	wrk_pid=$!
	helpers="$helpers $wrk_pid"
}

wrk_wait () {
	wait "$wrk_pid" || true
	helpers=
	# shellcheck disable=SC2046 # the six fields of the line
	set -- $(sed -n 's/^battery-result //p' "$out/$1.wrk")
	[ $# -eq 6 ] || { echo "battery: no battery-result line in $out/$1.wrk:" >&2; cat "$out/$1.wrk" >&2; set -- 0 0 1 0 0 0; }
	r_requests=$1 r_rate=$2 r_errors=$3 r_200=$4 r_503=$5 r_other=$6
}
