#!/bin/sh
test_description='a real Prometheus scrapes GET /status through nginx every second: up is 1, a route counter rises by what was sent, a histogram quantile is computable, the alert rules load'
. "$(dirname "$0")/lib.sh"

command -v prometheus >/dev/null 2>&1 || skip_all "prometheus is not installed (scripts/install-deps)"

start_db
start_app
start_nginx

PROM_PORT=$(test_port 2)
svc_port_free "$PROM_PORT" || bail_out "port $PROM_PORT is already in use"
mkdir -p "$TRASH/prometheus"
cat >"$TRASH/prometheus/prometheus.yml" <<EOC
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - $TOP/conf/prometheus/cms-fcgi.rules.yml
scrape_configs:
  - job_name: cms-fcgi
    # No ?format: the page follows Prometheus' Accept header, which asks for OpenMetrics first.
    metrics_path: /status
    static_configs:
      - targets: ['127.0.0.1:$HTTP_PORT']
EOC
prometheus --config.file="$TRASH/prometheus/prometheus.yml" \
	--storage.tsdb.path="$TRASH/prometheus/data" --web.listen-address="127.0.0.1:$PROM_PORT" \
	>"$TRASH/prometheus/prometheus.log" 2>&1 &
PROM_PID=$!
test_atexit "kill $PROM_PID 2>/dev/null"

# query PROMQL: the first value of the instant query's result ("" when it has none).
query () {
	curl -s --max-time 5 --get --data-urlencode "query=$1" \
		"http://127.0.0.1:$PROM_PORT/api/v1/query" >query.json &&
	jq -r '.data.result[0].value[1] // ""' query.json
}

up_is_1 () {
	test "$(query 'up{job="cms-fcgi"}')" = 1
}

BOOK_COUNTER='sum(cms_requests_total{route="/v1/book/{id}",method="GET",status="200"})'

counter_is () {
	test "$(query "$BOOK_COUNTER")" = "$1"
}

test_expect_success 'setup: a book, and one read of it so that its counter exists' '
	db_exec "INSERT INTO book (title, author) VALUES (\"Dune\", \"Herbert\")" &&
	db_exec "SELECT id FROM book" >book_id &&
	http GET "/v1/book/$(cat book_id)" &&
	expect_status 200
'

test_expect_success 'Prometheus scrapes the pool: up is 1' '
	poll_until 300 up_is_1
'

test_expect_success 'the route counter rises by exactly the 25 requests sent (the scrapes count elsewhere)' '
	poll_until 100 counter_is 1 &&
	for i in $(seq 25); do
		http GET "/v1/book/$(cat book_id)" && expect_status 200 || return 1
	done &&
	poll_until 100 counter_is 26
'

test_expect_success 'the 99th percentile of the route is computable from the histogram' '
	q=$(query "histogram_quantile(0.99, sum by (le) (rate(cms_request_duration_seconds_bucket{route=\"/v1/book/{id}\"}[1m])))") &&
	test -n "$q" && test "$q" != NaN &&
	awk -v q="$q" "BEGIN { exit !(q > 0 && q <= 10) }"
'

test_expect_success 'Prometheus loaded the six alert rules, none of them firing' '
	curl -s "http://127.0.0.1:$PROM_PORT/api/v1/rules" >rules.json &&
	test "$(jq "[.data.groups[].rules[] | select(.type == \"alerting\")] | length" rules.json)" -eq 6 &&
	test "$(jq "[.data.groups[].rules[] | select(.state == \"firing\")] | length" rules.json)" -eq 0
'

test_expect_success 'stop Prometheus' '
	kill "$PROM_PID" &&
	svc_wait_gone "$PROM_PID" 100
'

test_done
