#!/bin/sh
test_description='worker_threads: the threads of one worker share its connections, so a request held up on one thread never holds up the others; each thread has its own database connection; TERM still finishes the request in flight'
. "$(dirname "$0")/lib.sh"

command -v wrk >/dev/null 2>&1 || skip_all "wrk is not installed (scripts/install-deps)"

# One worker of two threads: every connection nginx keeps is that worker's.
start_db
start_app workers=1 worker_threads=2 fcgi_read_timeout=60
start_nginx

# slow_upload: a logged-in upload on a direct connection to the pool that stops after 1 KiB of
# its body until pause/go exists; returns once the pool's thread is reading it (pause/paused).
slow_upload () {
	paused_request upload.out upload.body 1024 --param REQUEST_METHOD=POST \
		--param PATH_INFO=/cms/file --param "HTTP_AUTHORIZATION=Bearer $(cat root.token)" \
		--param "CONTENT_TYPE=multipart/form-data; boundary=XyZ"
}

upload_answered () {
	grep -q "^Status: " upload.out
}

test_expect_success 'setup: root logs in; a book; a 64 KiB png multipart body' '
	remember root "$ROOT_PASSWORD" &&
	db_exec "INSERT INTO book (title, author) VALUES (\"Dune\", \"Herbert\")" &&
	db_exec "SELECT id FROM book" >book_id &&
	{
		printf -- "--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"one.png\"\r\n"
		printf "Content-Type: image/png\r\n\r\n\211PNG\r\n\032\n"
		head -c 65536 /dev/urandom
		printf "\r\n--XyZ--\r\n"
	} >upload.body
'

test_expect_success 'the worker runs two threads, each with its own database connection' '
	grep -q "ready: accepting FastCGI requests, 2 threads" app.log &&
	for i in 1 2 3 4; do
		http GET "/v1/book/$(cat book_id)" && expect_status 200 || return 1
	done &&
	test "$(db_exec "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE DB = \"$DB_NAME\" AND ID <> CONNECTION_ID()")" -eq 2
'

# With one thread, the paused upload would hold the only worker, and every request on nginx'"'"'s
# connections would wait for its body (fcgi_read_timeout, 60 s).
test_expect_success 'while one thread waits for an upload body, the other serves every other request' '
	slow_upload &&
	for i in 1 2 3 4 5; do
		curl --silent --output /dev/null --max-time 5 --write-out "%{http_code}\n" \
			"http://127.0.0.1:$HTTP_PORT/v1/book/$(cat book_id)" >status &&
		test "$(cat status)" = 200 || return 1
	done &&
	! upload_answered &&
	touch pause/go &&
	poll_until 100 upload_answered &&
	grep -q "^Status: 200" upload.out
'

test_expect_success 'TERM during an upload: the thread finishes it, the worker then exits 0 and is replaced' '
	worker=$(pool_workers) &&
	slow_upload &&
	kill -TERM "$worker" &&
	touch pause/go &&
	poll_until 100 upload_answered &&
	grep -q "^Status: 200" upload.out &&
	replaced () {
		test -n "$(pool_workers)" && test "$(pool_workers)" != "$worker"
	} &&
	poll_until 100 replaced &&
	grep -q "worker $worker exited with status 0 after .*; starting another" app.log
'

test_expect_success 'TERM to a worker that holds no connection: every thread stops, none waits on' '
	ready () {
		worker=$(pool_workers) &&
		test -n "$worker" &&
		grep -q "\[$worker\] info: ready: accepting FastCGI requests, 2 threads" app.log
	} &&
	poll_until 100 ready &&
	kill -TERM "$worker" &&
	exited () {
		grep -q "worker $worker exited with status 0 after" app.log
	} &&
	poll_until 100 exited
'

test_expect_success '10 s of 8 clients (4 x the threads) on kept connections: no request fails' '
	wrk --threads 2 --connections 8 --duration 10s --timeout 5s \
		--script "$TOP/t/wrk-result.lua" "http://127.0.0.1:$HTTP_PORT/v1/book/$(cat book_id)" \
		>wrk.out 2>&1 &&
	cat wrk.out &&
	grep "^wrk-result " wrk.out >load &&
	read -r _ requests _ errors <load &&
	test "$requests" -gt 0 &&
	test "$errors" -eq 0
'

test_done
