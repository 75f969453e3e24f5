# The eight phases of battery/run (sourced by it), in the order they run, each a function
# phase_NAME with the helpers it alone uses; battery/README.md, "The phases", says what each does
# and why its criteria are what they are. Each inserts the rows it reads and writes (new_book).
# shellcheck shell=sh disable=SC2154,SC2034 # battery/run sets and reads the globals

phase_http_fuzz () {
	local mark deaths
	echo "battery: phase 1, http_fuzz: $fuzz_requests mutated HTTP requests through nginx"
	mark=$(log_mark)
	fuzz_book=$(new_book Fuzzed 'read and updated by phase 1')
	fuzz_victim=$(new_book Victim 'deleted by phase 1')
	# In the background, like every load here, so that a signal to this script acts at once.
	BATTERY_TOKEN=$token BATTERY_REFRESH=$refresh perl battery/fuzz-http.pl --port "$http_port" \
		--count "$fuzz_requests" --procs "$fuzz_procs" --seed "$seed" --out "$out/phase1" --book "$fuzz_book" \
		--victim "$fuzz_victim" --group "$group_id" --permission "$permission_id" \
		--log "$out/cms.log" --log-from "$mark" >"$out/phase1/result" &
	helpers=$!
	wait "$helpers" || die "battery/fuzz-http.pl failed"
	helpers=
	sed 's/^/battery: /' "$out/phase1/result"
	# shellcheck disable=SC2046 # the key=value fields of the line
	set -- $(sed -n 's/^fuzz-result //p' "$out/phase1/result")
	for kv; do
		case $kv in
		requests=*) figure http_requests "${kv#*=}" ;;
		app_5xx=*) figure http_app_5xx_seen "${kv#*=}" ;;
		nginx_5xx=*) figure http_nginx_5xx "${kv#*=}" ;;
		esac
	done
	deaths=$(deaths_since "$mark")
	figure http_app_answers "$(log_since "$mark" | grep -c 'access: ' || true)"
	figure http_app_5xx_logged "$(app_5xx_since "$mark")"
	figure http_worker_deaths "$deaths"
	criterion "phase 1: no app answer was a 5xx other than 503" \
		grep -q ' app_5xx=0 ' "$out/phase1/result"
	criterion "phase 1: no worker died" [ "$deaths" -eq 0 ]
	# The mutated logins failed for root many times: its username now asks every address for the
	# captcha (doc/limits.md). The failures are phase 1's, not the later phases': forget them.
	db -e "DELETE FROM cms_login_failure"
	root_login
}

phase_fcgi_fuzz () {
	local mark ms i
	echo "battery: phase 2, fcgi_fuzz: malformed FastCGI records to the pool socket"
	mark=$(log_mark)
	perl battery/fuzz-fcgi.pl "$pool" 300 "$seed" | sed 's/^/battery: /'
	for i in 1 2 3; do
		perl t/fcgi-client.pl "$pool" huge-params || die "t/fcgi-client.pl huge-params failed"
	done
	ms=$(ms_until_200 /healthz 5000)
	figure fcgi_worker_deaths "$(deaths_since "$mark")"
	figure fcgi_recovery_ms "$ms"
	criterion "phase 2: the pool answers within ${k_fcgi_recovery_ms} ms of the last record" \
		[ "$ms" -le "$k_fcgi_recovery_ms" ]
}

phase_killed_workers () {
	local i victim acked stored lost
	echo "battery: phase 3, killed_workers: POST load with a worker killed (SIGKILL) every second"
	rm -f "$out"/phase3/acked.*
	BATTERY_TOKEN=$token wrk --threads 4 --connections 4 --duration "${seconds}s" --timeout 5s \
		--script battery/post-unique.lua "$url/v1/book" -- "$out/phase3" "p3" \
		>"$out/phase3/wrk" 2>&1 &
	wrk_pid=$!
	helpers=$wrk_pid
	i=0
	while [ "$i" -lt $((seconds - 1)) ] && svc_alive "$wrk_pid"; do
		sleep 1
		victim=$(workers_of_pool | shuf -n 1)
		[ -z "$victim" ] || kill -s KILL "$victim" 2>/dev/null || true
		i=$((i + 1))
	done
	wait "$wrk_pid" || true
	helpers=
	cat "$out"/phase3/acked.* 2>/dev/null | sort -u >"$out/phase3/acked"
	db -e "SELECT title FROM book WHERE title LIKE 'p3-%'" | sort >"$out/phase3/stored"
	acked=$(wc -l <"$out/phase3/acked")
	stored=$(wc -l <"$out/phase3/stored")
	lost=$(comm -23 "$out/phase3/acked" "$out/phase3/stored" | wc -l)
	figure acked_writes "$acked"
	figure stored_writes "$stored"
	figure duplicate_writes "$(uniq -d "$out/phase3/stored" | wc -l)"
	figure kill_worker_deaths "$i"
	figure lost_writes "$lost"
	criterion "phase 3: some writes were acknowledged" [ "$acked" -gt 0 ]
	criterion "phase 3: every acknowledged (201) title is in the database" [ "$lost" -eq 0 ]
	# The next phase starts once the pool answers again.
	ms_until_200 /healthz 5000 >/dev/null
}

phase_lost_database () {
	local ms_restart ms_freeze book_id
	echo "battery: phase 4, lost_database: the database stopped and restarted, then frozen, under a GET load"
	book_id=$(new_book Phase4 'read by phase 4')
	wrk_start phase4 4 120 "/v1/book/$book_id"
	sleep 2
	svc_db_stop "$sock" "$out/db.pid" || die "mariadbd did not stop"
	sleep 2
	# shellcheck disable=SC2086 # a list of options
	db_pid=$(svc_db_start "$out/db" "$sock" "$out/db.pid" "$out/db.err" "" $db_args 9>&-) ||
		die "mariadbd did not start again"
	ms_restart=$(ms_until_200 "/v1/book/$book_id" 10000)
	sleep 1
	kill -s STOP "$db_pid"
	sleep 3
	kill -s CONT "$db_pid"
	ms_freeze=$(ms_until_200 "/v1/book/$book_id" 10000)
	sleep 1
	kill -s INT "$wrk_pid"
	wrk_wait phase4
	figure db_requests "$r_requests"
	figure db_200 "$r_200"
	figure db_503 "$r_503"
	figure db_other_statuses "$r_other"
	figure db_errors "$r_errors"
	figure db_restart_recovery_ms "$ms_restart"
	figure db_freeze_recovery_ms "$ms_freeze"
	criterion "phase 4: only 200 and 503 answers, none missing" [ $((r_other + r_errors)) -eq 0 ]
	criterion "phase 4: some 503 answers while the database was away" [ "$r_503" -gt 0 ]
	criterion "phase 4: 200 again within ${k_db_recovery_ms} ms of the restart" \
		[ "$ms_restart" -le "$k_db_recovery_ms" ]
	criterion "phase 4: 200 again within ${k_db_recovery_ms} ms of the thaw" \
		[ "$ms_freeze" -le "$k_db_recovery_ms" ]
}

# A directive's value in seconds (or its plain number) from the shipped nginx/cms-fcgi.conf.
nginx_setting () {
	sed -n "s/^$1 \\([0-9]*\\)s*;.*/\\1/p" "$top/nginx/cms-fcgi.conf" | head -n 1
}

# slow_of KIND: "FATE STATUS SECONDS" of each slowloris connection of that kind, one a line (see
# battery/slowloris.pl): "open - 23.0", "closed - 10.1", "closed 200 15.0".
slow_of () {
	awk -v k="$1" '$1 == "slowloris-conn" && $2 == k { print $3, $5, $4 }' "$out/slowloris"
}

# slow_check KIND FATE STATUS LO HI EXPECTED: exactly EXPECTED connections of KIND ended FATE with
# STATUS after LO..HI seconds (HI empty: any).
slow_check () {
	[ "$(slow_of "$1" | awk -v f="$2" -v s="$3" -v lo="$4" -v hi="$5" \
		'$1 == f && $2 == s && $3 >= lo && (hi == "" || $3 <= hi)' | wc -l)" -eq "$6" ]
}

phase_slow_clients () {
	local base_rate base_bad slow_pid ratio book_id i=0 header_to body_to keepalive limit slow_rate slow_bad
	local slow_seconds n_header n_body n_idle body_open reached mark kind late=6
	echo "battery: phase 5, slow_clients: $slow_connections slow connections from 127.0.0.2-4 beside a light load"
	book_id=$(new_book Phase5 'read by phase 5')
	# What nginx is configured to do with each kind of slow client (nginx/cms-fcgi.conf).
	header_to=$(nginx_setting client_header_timeout)
	body_to=$(nginx_setting client_body_timeout)
	keepalive=$(nginx_setting keepalive_timeout)
	limit=$(sed -n 's/^limit_conn cms_fcgi_addr \([0-9]*\);/\1/p' "$top/nginx/cms-fcgi.conf")
	[ -n "$header_to" ] && [ -n "$body_to" ] && [ -n "$keepalive" ] && [ -n "$limit" ] ||
		die "nginx/cms-fcgi.conf sets no client_header_timeout, client_body_timeout, keepalive_timeout or limit_conn"
	[ "$body_to" -gt 1 ] || die "client_body_timeout must be above slowloris's 1 s between bytes"
	# Long enough for the idle connections' keepalive_timeout to run out, with room.
	slow_seconds=$((seconds + 5))
	[ "$slow_seconds" -ge $((keepalive + late + 2)) ] || slow_seconds=$((keepalive + late + 2))
	[ "$slow_seconds" -ge $((header_to + late + 2)) ] || slow_seconds=$((header_to + late + 2))
	n_header=$(((slow_connections + 2) / 3))
	n_body=$(((slow_connections + 1) / 3))
	n_idle=$((slow_connections / 3))
	body_open=$n_body
	[ "$body_open" -le "$limit" ] || body_open=$limit
	# 20 connections each waiting 100 ms between requests: at most 200 requests/s, a rate that
	# the time of an answer (a few ms) changes little, so that the machine's other load does not
	# pass for the slow clients' doing. The rate without slow clients is that of a run before and
	# one after them, averaged, so that a load that rose or fell meanwhile cancels out.
	wrk_start phase5-base 20 "$seconds" "/v1/book/$book_id" 100
	wrk_wait phase5-base
	base_rate=$r_rate
	base_bad=$((r_errors + r_other + r_503))
	rm -f "$out/slow.ready"
	mark=$(log_mark)
	perl battery/slowloris.pl "127.0.0.1:$http_port" 127.0.0.2 "$slow_connections" \
		"$slow_seconds" 1 "$out/slow.ready" >"$out/slowloris" 2>&1 &
	slow_pid=$!
	helpers=$slow_pid
	while [ ! -e "$out/slow.ready" ]; do
		svc_alive "$slow_pid" && [ "$i" -lt 200 ] || die "slowloris did not connect: $(cat "$out/slowloris")"
		sleep 0.1
		i=$((i + 1))
	done
	sleep 1
	wrk_start phase5 20 "$seconds" "/v1/book/$book_id" 100
	helpers="$slow_pid $wrk_pid"
	wrk_wait phase5
	slow_rate=$r_rate
	slow_bad=$((r_errors + r_other + r_503))
	helpers=$slow_pid
	wait "$slow_pid" || true
	helpers=
	wrk_start phase5-after 20 "$seconds" "/v1/book/$book_id" 100
	wrk_wait phase5-after
	base_rate=$(awk -v a="$base_rate" -v b="$r_rate" 'BEGIN { printf "%.1f", (a + b) / 2 }')
	base_bad=$((base_bad + r_errors + r_other + r_503))
	ratio=$(awk -v a="$slow_rate" -v b="$base_rate" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')
	# What of 127.0.0.2 to .4 reached the app: only the idle connections' one GET each.
	reached=$(log_since "$mark" | grep -c 'access: .* remote=127\.0\.0\.[234]\( \|$\)' || true)
	figure slow_base_rate "$base_rate"
	figure slow_rate "$slow_rate"
	figure slow_rate_ratio "$ratio"
	figure slow_failed_requests $((slow_bad + base_bad))
	for kind in header body idle; do
		figure "slow_${kind}_fates" "$(slow_of "$kind" | awk '{ n[$1 "/" $2]++; t[$1 "/" $2] = t[$1 "/" $2] " " $3 }
			END { for (k in n) { split(t[k], a, " "); lo = hi = a[1]
				for (i in a) { if (a[i] + 0 < lo + 0) lo = a[i]; if (a[i] + 0 > hi + 0) hi = a[i] }
				printf "%s%s:%d(%s..%ss)", s, k, n[k], lo, hi; s = "," } }')"
	done
	figure slow_app_requests "$reached"
	criterion "phase 5: the light load keeps >= ${k_slow_rate_ratio} of its rate" \
		ge "$ratio" "$k_slow_rate_ratio"
	criterion "phase 5: no request failed, with or without slow connections" \
		[ $((slow_bad + base_bad)) -eq 0 ]
	criterion "phase 5: all $n_header slow headers closed unanswered by nginx at client_header_timeout (${header_to} s, +${late} s late at most)" \
		slow_check header closed - $((header_to - 1)) $((header_to + late)) "$n_header"
	criterion "phase 5: $body_open of $n_body slow bodies open at the end (a byte a second < client_body_timeout ${body_to} s; limit_conn $limit)" \
		slow_check body open - 0 "" "$body_open"
	criterion "phase 5: $((n_body - body_open)) slow bodies above limit_conn answered 429" \
		[ "$(slow_of body | grep -c ' 429 ' || true)" -eq $((n_body - body_open)) ]
	criterion "phase 5: all $n_idle idle connections answered 200, closed by nginx at keepalive_timeout (${keepalive} s, +${late} s late at most)" \
		slow_check idle closed 200 $((keepalive - 1)) $((keepalive + late)) "$n_idle"
	criterion "phase 5: of the slow clients only the $n_idle whole GETs reached the pool" \
		[ "$reached" -eq "$n_idle" ]
}

phase_restarts () {
	local before after mark book_id i=0
	echo "battery: phase 6, restarts: USR2 (graceful restart) to the master twice under a GET load"
	book_id=$(new_book Phase6 'read by phase 6')
	before=$(workers_of_pool | tr '\n' ' ')
	mark=$(log_mark)
	wrk_start phase6 8 "$seconds" "/v1/book/$book_id"
	sleep $((seconds / 3))
	kill -s USR2 "$pool_pid"
	sleep $((seconds / 3))
	kill -s USR2 "$pool_pid"
	wrk_wait phase6
	# The old generation's workers stay the master's children until they have finished.
	while [ "$(workers_of_pool | wc -l)" -ne "$workers" ] && [ "$i" -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	after=$(workers_of_pool | tr '\n' ' ')
	figure restarts "$(log_since "$mark" | grep -c 'restarting: re-executing' || true)"
	figure restart_requests "$r_requests"
	figure restart_failed_requests $((r_errors + r_other + r_503))
	criterion "phase 6: every request during the restarts answered 200" \
		[ $((r_errors + r_other + r_503)) -eq 0 ]
	criterion "phase 6: the master kept its PID and runs $workers new workers" \
		pool_renewed "$before" "$after"
}

# The master runs (under its old PID) $workers workers, none of them one of those in $1 ($2 now).
pool_renewed () {
	svc_alive "$pool_pid" && [ "$(workers_of_pool | wc -l)" -eq "$workers" ] || return 1
	for pid in $1; do
		case " $2 " in *" $pid "*) return 1 ;; esac
	done
}

# Row text $1 is the title, author and summary of one PUT: p7-N a-N s-N.
whole_version () {
	echo "$1" | grep -qx 'p7-\([0-9]*\) a-\1 s-\1'
}

nginx_log_clean () {
	! grep -qE '\[(alert|emerg)\]' "$out/nginx/error.log"
}

phase_concurrent_writes () {
	local n final statuses bad contested_id
	echo "battery: phase 7, concurrent_writes: 50 concurrent PUTs on one book"
	contested_id=$(new_book Contested 'updated by phase 7')
	rm -rf "$out/phase7"
	mkdir -p "$out/phase7"
	for n in $(seq 50); do
		(
			i=0
			while [ ! -e "$out/phase7/go" ] && [ "$i" -lt 100 ]; do
				sleep 0.05
				i=$((i + 1))
			done
			curl --silent --max-time 20 --output /dev/null --write-out '%{http_code}\n' \
				-X PUT -H "$auth" -H 'Content-Type: application/json' \
				-d "{\"title\":\"p7-$n\",\"author\":\"a-$n\",\"summary\":\"s-$n\"}" \
				"$url/v1/book/$contested_id" >"$out/phase7/$n" 2>&1
		) &
	done
	touch "$out/phase7/go"
	wait
	statuses=$(cat "$out"/phase7/[0-9]* | sort | uniq -c | awk '{ printf "%s%s:%s", s, $2, $1; s = "," }')
	bad=$(cat "$out"/phase7/[0-9]* | grep -cv '^\(2[0-9][0-9]\|503\)$' || true)
	final=$(db -e "SELECT CONCAT_WS(' ', title, author, summary) FROM book WHERE id = $contested_id")
	figure put_statuses "$statuses"
	figure put_bad_statuses "$bad"
	criterion "phase 7: every PUT answered 2xx or 503" [ "$bad" -eq 0 ]
	criterion "phase 7: the row is one whole submitted version ($final)" \
		whole_version "$final"
}

# png_file KIB LETTER: a PNG signature, then the letter up to KIB KiB (t/lib.sh's png is a
# signature and a text).
png_file () {
	printf '\211PNG\r\n\032\n'
	head -c "$(($1 * 1024 - 8))" /dev/zero | tr '\0' "$2"
}

# upload FILE...: POST /cms/file with each FILE as a part; prints the status, the body in fetch.body.
upload () {
	local n=0 part args=
	for part; do
		n=$((n + 1))
		args="$args -F f$n=@$part"
	done
	# shellcheck disable=SC2086 # the -F options
	fetch -H "$auth" $args "$url/cms/file"
}

# Every live lin_file row names a whole file (its size), and no temporary file is left.
store_consistent () {
	local path size
	[ -z "$(find "$out/assets" -name '.*.tmp')" ] || return 1
	db -e "SELECT path, size FROM lin_file WHERE delete_time IS NULL" >"$out/phase8/rows"
	while read -r path size; do
		[ "$(stat -c %s "$out/assets/$path" 2>/dev/null)" = "$size" ] || { echo "$path: not $size bytes"; return 1; }
	done <"$out/phase8/rows"
}

# stored_whole STATUS PATH: the upload answered 200 and PATH holds the big file.
stored_whole () {
	[ "$1" = 200 ] && cmp -s "$out/phase8/big.png" "$out/assets/$2"
}

# full_log_ok STATUS: the load on a full log had only 200s, some, and the POST answered STATUS 201.
full_log_ok () {
	[ $((full_bad)) -eq 0 ] && [ "$full_200" -gt 0 ] && [ "$1" = 201 ]
}

phase_full_disks () {
	local code full_code mixed_code again_code again_file book_id log_before log_after full_bad full_200
	echo "battery: phase 8, full_disks: the file store's file system full during an upload, then the log's"
	if [ -n "$cannot_fill" ]; then
		echo "battery: phase 8, full_disks, skipped: $cannot_fill"
		criterion "phase 8: skipped, which TEST_NO_SKIP forbids" [ -z "${TEST_NO_SKIP:-}" ]
		return 0
	fi
	mkdir -p "$out/phase8"
	png_file 100 a >"$out/phase8/small.png"
	png_file 512 b >"$out/phase8/big.png"
	# 256 KiB left: the big file runs out of room half-way through its write.
	dd if=/dev/zero of="$out/assets/filler" bs=64k 2>/dev/null || true
	truncate -s -256K "$out/assets/filler"
	full_code=$(upload "$out/phase8/big.png")
	full_code="$full_code/$(jq -r .code "$out/fetch.body" 2>/dev/null)"
	mixed_code=$(upload "$out/phase8/small.png" "$out/phase8/big.png")
	mixed_code="$mixed_code/$(jq -r .code "$out/fetch.body" 2>/dev/null)"
	rm -f "$out/assets/filler"
	again_code=$(upload "$out/phase8/small.png" "$out/phase8/big.png")
	again_file=$(jq -r '.[1].path' "$out/fetch.body" 2>/dev/null)
	figure full_store_statuses "$full_code,$mixed_code,$again_code"
	criterion "phase 8: an upload into a full store answers 507 with code 10306" [ "$full_code" = 507/10306 ]
	criterion "phase 8: so does one whose first file fits and second does not" [ "$mixed_code" = 507/10306 ]
	criterion "phase 8: no lin_file row names a missing or partial file, no temporary file is left" \
		store_consistent
	criterion "phase 8: once space is back the same upload is stored, no restart" \
		stored_whole "$again_code" "$again_file"

	# The log's file system full: the service keeps answering, and logs again once there is room.
	book_id=$(new_book Phase8 'read while the log cannot be written')
	dd if=/dev/zero of="$out/logfs/filler" bs=64k 2>/dev/null || true
	log_before=$(log_mark)
	wrk_start phase8 4 3 "/v1/book/$book_id"
	wrk_wait phase8
	full_bad=$((r_errors + r_other + r_503))
	full_200=$r_200
	code=$(fetch -H "$auth" -H 'Content-Type: application/json' \
		-d '{"title":"p8","author":"battery","summary":"written while the log is full"}' "$url/v1/book")
	rm -f "$out/logfs/filler"
	wrk_start phase8-after 2 1 "/v1/book/$book_id"
	wrk_wait phase8-after
	log_after=$(log_mark)
	figure full_log_get_200 "$full_200"
	figure full_log_get_failed "$full_bad"
	figure full_log_post "$code"
	figure full_log_bytes_after $((log_after - log_before))
	criterion "phase 8: with the log's file system full, GETs answered 200 and a POST 201" \
		full_log_ok "$code"
	criterion "phase 8: once there is room, the log is written again" [ "$log_after" -gt "$log_before" ]
}
