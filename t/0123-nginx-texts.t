#!/bin/sh
test_description='the errors nginx answers itself carry the texts of the service'"'"'s message file: English for an English service, an edited text once cms-fcgi-texts.conf is written again, the Chinese defaults of cms-fcgi.conf without that file'
. "$(dirname "$0")/lib.sh"

start_db
start_app message_file="$TOP/conf/code-message.en.properties"
start_nginx

# says TEXT HTTP-ARGS...: the answer to `http HTTP-ARGS...` has message TEXT (for poll_until).
says () {
	local text=$1
	shift
	http "$@" 2>/dev/null &&
	[ "$(jq -r .message "$TRASH/body")" = "$text" ]
}

# reload_nginx: HUP, then wait (at most 10 s) until the new workers answer /healthz.
reload_nginx () {
	kill -s HUP "$NGINX_PID" &&
	svc_wait_http_200 "http://127.0.0.1:$HTTP_PORT/healthz" 100 "$NGINX_PID"
}

test_expect_success 'setup: a body of 3 MB, above client_max_body_size 2m; the include holds the English texts' '
	head -c 3000000 /dev/zero | tr "\0" " " >big.json &&
	grep -qx "set \$cms_text_10300 \"Request body too large\";" nginx/cms-fcgi-texts.conf
'

test_expect_success 'a body above client_max_body_size answers 413 10300 with the English text' '
	http POST /v1/book @big.json &&
	expect_status 413 &&
	expect_json .code 10300 &&
	expect_json .message "Request body too large" &&
	expect_json .request "POST /v1/book" &&
	expect_ascii_body
'

test_expect_success 'a request line with a lower-case method answers 400 10320 in English' '
	http get /v1/book &&
	expect_status 400 &&
	expect_json .code 10320 &&
	expect_json .message "Malformed request" &&
	expect_ascii_body
'

test_expect_success 'a request target above the 8k header buffer answers 414 10322 in English' '
	http GET "/v1/$(head -c 9000 /dev/zero | tr "\0" a)" &&
	expect_status 414 &&
	expect_json .code 10322 &&
	expect_json .message "Request URI too long"
'

test_expect_success 'a header above the 8k header buffer answers 431 10323 in English' '
	http GET /v1/book "" -H "X-Big: $(head -c 9000 /dev/zero | tr "\0" a)" &&
	expect_status 431 &&
	expect_json .code 10323 &&
	expect_json .message "Request headers too large"
'

test_expect_success 'setup: a copy of the English table whose 10300 holds " \ $ and {} ;' '
	grep -v "^code-message\[10300\]=" "$TOP/conf/code-message.en.properties" >edited.properties &&
	printf "%s\n" "code-message[10300]=Over 2 MB: \"split\" it \\u005c or pay \$5 {x}; \${uri}" \
		>>edited.properties &&
	CMS_MESSAGE_FILE="$TRASH/edited.properties" "$APP_BIN" -c cms.conf -t
'

test_expect_success 'nginx keeps the old text until cms-fcgi-texts.conf is written again' '
	says "Request body too large" POST /v1/book @big.json
'

test_expect_success 'once written again from the edited table and nginx reloaded, the 413 has the edited text, byte for byte' '
	CMS_MESSAGE_FILE="$TRASH/edited.properties" svc_nginx_texts nginx "$APP_BIN" cms.conf &&
	reload_nginx &&
	poll_until 100 says "Over 2 MB: \"split\" it \\ or pay \$5 {x}; \${uri}" POST /v1/book @big.json &&
	expect_status 413 &&
	expect_json .code 10300
'

test_expect_success 'without cms-fcgi-texts.conf, nginx answers the Chinese defaults of cms-fcgi.conf' '
	rm nginx/cms-fcgi-texts.conf &&
	reload_nginx &&
	poll_until 100 says 请求体过大 POST /v1/book @big.json &&
	http get /v1/book &&
	expect_status 400 &&
	expect_json .message 请求格式错误
'

stop_app

test_expect_success 'written again from the English table, the 502 of a stopped pool is English' '
	svc_nginx_texts nginx "$APP_BIN" cms.conf &&
	kill -s HUP "$NGINX_PID" &&
	poll_until 100 says "The database is unavailable, try again later" GET /v1/book &&
	expect_status 502 &&
	expect_json .code 10302 &&
	expect_ascii_body
'

test_done
