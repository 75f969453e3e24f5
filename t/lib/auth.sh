# Logging in and holding tokens for t/lib.sh: login, remember/keep and as/kept (a test body reads
# no token file itself), JWTs made and taken apart, the captcha.

# login USER PASSWORD: sets TOKEN and REFRESH_TOKEN from POST /cms/user/login.
login () {
	local body
	body=$(jq -nc --arg u "$1" --arg p "$2" '{username: $u, password: $p}') &&
	TOKEN= &&
	http POST /cms/user/login "$body" &&
	expect_status 200 &&
	TOKEN=$(jq -r '.access_token // empty' "$TRASH/body") &&
	REFRESH_TOKEN=$(jq -r '.refresh_token // empty' "$TRASH/body") &&
	[ -n "$TOKEN" ] && [ -n "$REFRESH_TOKEN" ] || {
		echo "login as $1 gave no tokens" >&2
		return 1
	}
}

# remember NAME PASSWORD: logs in once and keeps the access token for `as NAME` (a login hashes a
# password, which takes a while: log each user in once per file).
remember () {
	login "$1" "$2" &&
	echo "$TOKEN" >"$TRASH/$1.token"
}

# keep NAME [TOKEN]: keeps TOKEN (the current $TOKEN when not given; e.g. "$REFRESH_TOKEN") for
# `as NAME` and `kept NAME`, as remember does after its login.
keep () {
	printf '%s\n' "${2-$TOKEN}" >"$TRASH/$1.token"
}

# kept NAME: prints the token kept by `remember NAME` or `keep NAME`.
kept () {
	cat "$TRASH/$1.token"
}

# as NAME: sets TOKEN to the token kept by `remember NAME` or `keep NAME`.
as () {
	TOKEN=$(kept "$1")
}

# jwt_payload TOKEN: the JSON payload of a JWT, base64url-decoded.
jwt_payload () {
	local p
	p=$(printf '%s' "$1" | cut -d. -f2 | tr '_-' '/+')
	case $((${#p} % 4)) in
	2) p=$p== ;;
	3) p=$p= ;;
	esac
	printf '%s' "$p" | base64 -d
}

# jwt_sign SECRET: the payload JSON on stdin as a JWT signed with HS256 and SECRET (the app's
# jwt_secret), as the app signs its own tokens.
jwt_sign () {
	local h p s
	h=$(printf '{"alg":"HS256","typ":"JWT"}' | openssl base64 -A | tr '+/' '-_' | tr -d '=\n') &&
	p=$(openssl base64 -A | tr '+/' '-_' | tr -d '=\n') &&
	s=$(printf '%s.%s' "$h" "$p" | openssl dgst -sha256 -hmac "$1" -binary |
		openssl base64 -A | tr '+/' '-_' | tr -d '=\n') &&
	printf '%s.%s.%s\n' "$h" "$p" "$s"
}

# throttle_name NAME: what a failed login of NAME, which no user has, is recorded under in
# cms_login_failure: HMAC-SHA256 of NAME (ASCII lower case, no trailing spaces) under the key
# derived from the app's jwt_secret with the label "cms-fcgi login failure username v1".
throttle_name () {
	python3 -c 'import hmac, hashlib, sys
key = hmac.new(sys.argv[1].encode(), b"cms-fcgi login failure username v1", hashlib.sha256).digest()
print(hmac.new(key, sys.argv[2].lower().rstrip(" ").encode(), hashlib.sha256).hexdigest())' \
		"$(sed -n "s/^jwt_secret = //p" "$TRASH/cms.conf")" "$1"
}

# captcha N: POST /cms/user/captcha with no body from 127.0.0.N, as lin-cms-vue asks for one.
captcha () {
	TOKEN= &&
	http POST /cms/user/captcha "" --interface "127.0.0.$1"
}

# captcha_login NAME PASSWORD N [CODE [TAG]]: POST /cms/user/login from 127.0.0.N as lin-cms-vue
# sends it: the code as captcha in the body, the tag in a tag header (both empty when not given).
captcha_login () {
	TOKEN= &&
	http POST /cms/user/login "$(jq -nc --arg u "$1" --arg p "$2" --arg c "${4-}" \
		'{username: $u, password: $p, captcha: $c}')" --interface "127.0.0.$3" -H "tag: ${5-}"
}

# canary_bodies PASSWORD TYPO CHANGED: for the tests that look for a password where it must not be
# (t/0382, t/0623), sets CANARY, TYPO and CHANGED, and the bodies REGISTER, LOGIN and FAILED (with
# the typo) of the user canary, CHANGE (to CHANGED) and RESET (back to CANARY).
canary_bodies () {
	CANARY=$1
	TYPO=$2
	CHANGED=$3
	REGISTER="{\"username\":\"canary\",\"password\":\"$CANARY\",\"confirm_password\":\"$CANARY\"}"
	LOGIN="{\"username\":\"canary\",\"password\":\"$CANARY\"}"
	FAILED="{\"username\":\"canary\",\"password\":\"$TYPO\"}"
	CHANGE="{\"old_password\":\"$CANARY\",\"new_password\":\"$CHANGED\",\"confirm_password\":\"$CHANGED\"}"
	RESET="{\"new_password\":\"$CANARY\",\"confirm_password\":\"$CANARY\"}"
}

# plain_print METHOD PATH BODY: a request's fingerprint as cms-fcgi stored it before version 5,
# the unkeyed SHA-256 of method, path, content type and body (which let a password be guessed).
plain_print () {
	printf "%s %s\napplication/json\n%s" "$1" "$2" "$3" | sha256sum | cut -d" " -f1
}
