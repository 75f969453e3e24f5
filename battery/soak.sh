# The memory soak of battery/run (sourced by it), run instead of the phases when
# BATTERY_SOAK_SECONDS is set.
# shellcheck shell=sh disable=SC2154,SC2034 # battery/run sets and reads the globals

# BATTERY_SOAK_SECONDS: instead of the phases, the realistic mix of battery/mix.lua (4
# connections, 20 ms between requests: at most 200 requests/s) beside a trickle of fuzz-http.pl's
# malformed requests, for that long, with every worker's VmRSS sampled every 30 s into
# soak-rss.log ("SECONDS PID KIB"). The criterion is on the last two thirds: the first third is
# the heap reaching its working size.
k_soak_growth_kib=256
soak_interval=30

# The largest growth of one worker over the samples from second $1 on, in KiB, with that
# worker's figures: "GROWTH PID FROM TO MAX". A sample 6 MiB or more above the worker's least one
# was taken while it hashed a password (a login maps a 7 MiB Argon2id block for the hash) and is
# left out; FROM and TO are the medians of the first and of the last ten samples left, so that
# a heap that breathes by a few hundred KiB around its size is its size, while a leak or a heap
# that keeps stepping up raises every sample after it.
soak_growth () {
	awk -v from="$1" '$1 >= from { n[$2]++; v[$2, n[$2]] = $3
			if (!($2 in lo) || $3 < lo[$2]) lo[$2] = $3; if ($3 > max[$2]) max[$2] = $3 }
		function median(a, k,   i, j, t) {
			for (i = 2; i <= k; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
			return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2 }
		END { g = -1
			for (p in n) { m = 0; delete kept
				for (i = 1; i <= n[p]; i++) if (v[p, i] < lo[p] + 6144) kept[++m] = v[p, i]
				k = m < 10 ? m : 10; delete a1; delete a2
				for (i = 1; i <= k; i++) { a1[i] = kept[i]; a2[i] = kept[m - k + i] }
				f = median(a1, k); t = median(a2, k)
				if (t - f > g) { g = t - f; w = p; wf = f; wt = t } }
			if (g < 0) print "0 none 0 0 0"; else printf "%d %s %d %d %d\n", g, w, wf, wt, max[w] }' \
		"$out/soak-rss.log"
}

soak () {
	local soak_book fuzz_book fuzz_victim mix_pid fuzz_pid start elapsed next=0 i=0
	echo "battery: soak: $soak_seconds s of mixed requests, every worker's VmRSS every ${soak_interval} s"
	soak_book=$(new_book soak-book 'read and updated by the soak')
	fuzz_book=$(new_book Fuzzed 'read and updated by the soak fuzzer')
	fuzz_victim=$(new_book Victim 'deleted by the soak fuzzer')
	mkdir -p "$out/soak"
	BATTERY_TOKEN=$token BATTERY_LOGIN=$login_body wrk --threads 2 --connections 4 \
		--duration "${soak_seconds}s" --timeout 5s --script battery/mix.lua "$url" -- 20 "$soak_book" \
		>"$out/soak/mix.wrk" 2>&1 &
	mix_pid=$!
	# Malformed requests: 100 every 2 s or so, each batch with a seed of its own.
	(
		while :; do
			i=$((i + 1))
			BATTERY_TOKEN=$token BATTERY_REFRESH=$refresh perl battery/fuzz-http.pl \
				--port "$http_port" --count 100 --procs 1 --seed $((seed + i)) --out "$out/soak" \
				--book "$fuzz_book" --victim "$fuzz_victim" --group "$group_id" \
				--permission "$permission_id" --log "$out/cms.log" --log-from "$(log_mark)" |
				sed -n 's/^fuzz-result //p' >>"$out/soak/fuzz"
			sleep 2
		done
	) &
	fuzz_pid=$!
	helpers="$mix_pid $fuzz_pid"
	start=$(date +%s)
	: >"$out/soak-rss.log"
	while svc_alive "$mix_pid"; do
		elapsed=$(($(date +%s) - start))
		if [ "$elapsed" -ge "$next" ]; then
			for pid in $(workers_of_pool); do
				sed -n "s/^VmRSS:[[:space:]]*\([0-9]*\) kB/$elapsed $pid \1/p" "/proc/$pid/status" \
					2>/dev/null >>"$out/soak-rss.log" || true
			done
			next=$((next + soak_interval))
		fi
		sleep 1
	done
	wait "$mix_pid" || true
	kill -s TERM "$fuzz_pid" 2>/dev/null || true
	wait "$fuzz_pid" 2>/dev/null || true
	helpers=
	for pid in $(workers_of_pool); do
		sed -n "s/^VmRSS:[[:space:]]*\([0-9]*\) kB/$soak_seconds $pid \1/p" "/proc/$pid/status" \
			2>/dev/null >>"$out/soak-rss.log" || true
	done
	sed 's/^/battery: /' "$out/soak/mix.wrk" | grep 'battery-mix' || true
	awk '{ for (f = 1; f <= NF; f++) { split($f, kv, "="); sum[kv[1]] += kv[2] } }
		END { printf "battery: soak-fuzz"; for (k in sum) printf " %s=%d", k, sum[k]; print "" }' \
		"$out/soak/fuzz"
	# One line a worker: its samples in KiB.
	awk '{ s[$2] = s[$2] " " $3 } END { for (p in s) print "battery: soak-rss " p ":" s[p] }' \
		"$out/soak-rss.log"
	# shellcheck disable=SC2046 # the five fields
	set -- $(soak_growth $((soak_seconds / 3)))
	figure soak_requests "$(sed -n 's/^battery-mix requests=\([0-9]*\).*/\1/p' "$out/soak/mix.wrk")"
	figure soak_growth_kib "$1"
	figure soak_growth_worker "$2:$3..$4(max$5)"
	figure soak_growth_all_kib "$(soak_growth 0 | cut -d' ' -f1)"
	criterion "soak: the mix had no answer 5xx other than 503 and none missing" \
		grep -q 'errors=0 .* s5xx=0' "$out/soak/mix.wrk"
	criterion "soak: no worker grew by more than ${k_soak_growth_kib} KiB over the last two thirds" \
		[ "$1" -le "$k_soak_growth_kib" ]
}
