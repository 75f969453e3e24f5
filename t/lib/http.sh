# The HTTP and database helpers of t/lib.sh (as git's test-lib-functions.sh): requests through the
# front, each response checked against doc/openapi.yaml, and assertions that each check one thing
# and say why it failed.

db_exec () {
	if [ $# -gt 0 ] && [ -n "${TEST_CLUSTER_DIR:-}" ]; then
		node_sql 1 "$1"
	elif [ $# -gt 0 ]; then
		svc_sql "$DB_SOCKET" -N -B "$DB_NAME" -e "$1"
	else
		svc_sql "$DB_SOCKET" -N -B "$DB_NAME"
	fi
}

# http METHOD PATH [BODY [CURL_ARGS...]]: leaves status, headers and body in $TRASH. BODY "@file"
# sends a file; a BODY sets Content-Type: application/json; a non-empty $TOKEN is sent as a
# bearer token. Fails only on transport errors, never because of the status.
http () {
	local method=$1 path=$2 body=
	shift 2
	if [ $# -gt 0 ]; then
		body=$1
		shift
	fi
	if [ -n "$body" ]; then
		case $body in
		@*) set -- --data-binary "$body" "$@" ;;
		*) set -- --data-raw "$body" "$@" ;;
		esac
		set -- -H 'Content-Type: application/json' "$@"
	fi
	[ -z "${TOKEN:-}" ] || set -- -H "Authorization: Bearer $TOKEN" "$@"
	case $method in
	HEAD) set -- --head "$@" ;;
	*) set -- --request "$method" "$@" ;;
	esac
	rm -f "$TRASH/status" "$TRASH/headers" "$TRASH/body"
	echo "> $method $path${body:+ $body}" >&2
	curl --silent --show-error --max-time 5 --globoff --path-as-is \
		--output "$TRASH/body" --dump-header "$TRASH/headers" --write-out '%{http_code}\n' \
		"$@" "http://127.0.0.1:$HTTP_PORT$path" >"$TRASH/status" &&
	check_openapi "$method" "$path"
}

# check_openapi METHOD PATH [NAME]: fails, saying why, when the JSON response in $TRASH/status,
# headers and body (NAME.status, NAME.headers, NAME.body with NAME) does not match the schema
# doc/openapi.yaml gives for request METHOD PATH and its status. http calls it for each
# response; a file that sends requests with curl itself calls it for each answer it gets. Shell
# builtins only: a process per response would cost more than the request.
check_openapi () {
	local request="$1 $2 $TRASH/${3:+$3.}" answer
	[ -n "$VALIDATOR_PID" ] || return 0
	kill -0 "$VALIDATOR_PID" 2>/dev/null || { echo "t/openapi-validate is not running" >&2; return 1; }
	printf '%s\n' "$request" >"$TRASH/openapi.in" &&
	read -r answer <"$TRASH/openapi.out" || return 1
	case $answer in
	"ok $request" | "skipped $request") return 0 ;;
	"mismatch $request")
		echo "the response to $1 $2 does not match doc/openapi.yaml:" >&2
		cat "$TRASH/${3:+$3.}openapi" >&2
		head -c 2000 "$TRASH/${3:+$3.}body" >&2
		echo >&2
		;;
	*) echo "t/openapi-validate answered '$answer' to '$request'" >&2 ;;
	esac
	return 1
}

_show_response () {
	{
		echo "< status $(cat "$TRASH/status" 2>/dev/null)"
		head -c 2000 "$TRASH/body" 2>/dev/null
		echo
	} >&2
}

expect_status () {
	local got
	got=$(cat "$TRASH/status" 2>/dev/null)
	[ "$got" = "$1" ] && return 0
	echo "expected status $1, got $got" >&2
	_show_response
	return 1
}

# expect_ascii_body: the last body holds no byte outside printable ASCII (no Chinese text).
expect_ascii_body () {
	! LC_ALL=C grep -q "[^ -~]" "$TRASH/body"
}

# expect_header NAME REGEX: a header NAME (any case) whose value matches the extended REGEX.
expect_header () {
	tr -d '\r' <"$TRASH/headers" | awk -v n="$1" -v re="$2" '
		{ i = index($0, ":") }
		i > 0 && tolower(substr($0, 1, i - 1)) == tolower(n) {
			v = substr($0, i + 1); sub(/^[ \t]+/, "", v)
			if (v ~ re) found = 1
		}
		END { exit !found }' && return 0
	echo "expected a header $1 matching /$2/; headers:" >&2
	tr -d '\r' <"$TRASH/headers" >&2
	return 1
}

# expect_json FILTER EXPECTED: `jq -r FILTER` of the body equals EXPECTED.
expect_json () {
	local got
	got=$(jq -r "$1" "$TRASH/body" 2>&1) && [ "$got" = "$2" ] && return 0
	echo "expected $1 to be '$2', got '$got'" >&2
	_show_response
	return 1
}

# expect_json_true EXPR: `jq -e EXPR` of the body is true (neither false nor null).
expect_json_true () {
	jq -e "$1" "$TRASH/body" >/dev/null 2>&1 && return 0
	echo "expected $1 to hold" >&2
	_show_response
	return 1
}

# expect_body_file FILE: the body is the JSON of FILE, key order and layout aside.
expect_body_file () {
	jq -S . "$1" >"$TRASH/expect.json" || { echo "$1 is not JSON" >&2; return 1; }
	jq -S . "$TRASH/body" >"$TRASH/actual.json" 2>&1 || {
		echo "the body is not JSON" >&2
		_show_response
		return 1
	}
	diff -u "$TRASH/expect.json" "$TRASH/actual.json" >&2
}

# png TEXT: the 8-byte PNG signature and TEXT, content an upload takes as a PNG.
png () {
	printf '\211PNG\r\n\032\n%s' "$1"
}

# transactions WHERE: the open InnoDB transactions of this file's database that match WHERE (the
# server may be shared with other test files, whose transactions must not count).
transactions () {
	db_exec "SELECT COUNT(*) FROM information_schema.INNODB_TRX t
		JOIN information_schema.PROCESSLIST p ON p.ID = t.trx_mysql_thread_id
		WHERE p.DB = DATABASE() AND $1"
}

# one_open_transaction: exactly one transaction of this file's database is open.
one_open_transaction () {
	test "$(transactions 1)" -eq 1
}

# expect_db SQL EXPECTED: the rows of SQL (tab-separated columns, one row a line) equal EXPECTED.
expect_db () {
	local got
	got=$(db_exec "$1") && [ "$got" = "$2" ] && return 0
	echo "expected '$1' to give '$2', got '$got'" >&2
	return 1
}
