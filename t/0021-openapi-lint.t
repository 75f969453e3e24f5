#!/bin/sh
test_description='doc/openapi.yaml passes redocly lint (OpenAPI 3.1, recommended rules) without a warning, and make docs renders it for offline reading'
. "$(dirname "$0")/lib.sh"

REDOCLY=$TOP/doc/node_modules/.bin/redocly
[ -x "$REDOCLY" ] || skip_all "redocly is not installed in doc/node_modules (scripts/install-deps)"

test_expect_success 'redocly lint finds no error and no warning in doc/openapi.yaml' '
	"$REDOCLY" lint --config "$TOP/doc/redocly.yaml" --format=stylish "$TOP/doc/openapi.yaml" \
		>lint.out 2>&1 &&
	cat lint.out &&
	! grep -Eiq "warning|error" lint.out
'

test_expect_success 'the document is OpenAPI 3.1 and its schemas are JSON Schema 2020-12 as jsonschema reads it' '
	/usr/bin/python3 -c "
import sys, yaml, jsonschema
doc = yaml.safe_load(open(sys.argv[1], encoding=\"utf-8\"))
assert doc[\"openapi\"].startswith(\"3.1.\"), doc[\"openapi\"]
for name, schema in doc[\"components\"][\"schemas\"].items():
    jsonschema.Draft202012Validator.check_schema(schema)
" "$TOP/doc/openapi.yaml"
'

test_expect_success 'every example of an envelope has a code the message table has, with its text' '
	/usr/bin/python3 -c "
import re, sys, yaml
texts = dict(re.findall(r\"^code-message\[(\d+)\]=(.*)$\", open(sys.argv[2], encoding=\"utf-8\").read(), re.M))
doc = yaml.safe_load(open(sys.argv[1], encoding=\"utf-8\"))
bad = []
def walk(node):
    if isinstance(node, dict):
        v = node.get(\"value\")
        if isinstance(v, dict) and \"code\" in v and isinstance(v.get(\"message\"), str):
            # 10030 names the problem with the text of another code (doc/api.md §2: malformed JSON).
            if texts.get(str(v[\"code\"])) != v[\"message\"] and not (v[\"code\"] == 10030 and v[\"message\"] in texts.values()):
                bad.append(v)
        for child in node.values():
            walk(child)
    elif isinstance(node, list):
        for child in node:
            walk(child)
walk(doc)
print(\"\n\".join(map(str, bad)))
sys.exit(1 if bad else 0)
" "$TOP/doc/openapi.yaml" "$TOP/conf/code-message.properties"
'

test_expect_success 'make docs writes doc/html/index.html that loads its script from beside it' '
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$TOP" --no-print-directory docs >docs.out 2>&1 &&
	grep -q "<script src=\"redoc.standalone.js\"" "$TOP/doc/html/index.html" &&
	test -s "$TOP/doc/html/redoc.standalone.js" &&
	grep -q "/cms/admin/permission/dispatch/batch" "$TOP/doc/html/index.html"
'

# nginx as make run configures it (scripts/run: svc_nginx_conf with doc/html), without a pool.
HTTP_PORT=$(test_port 1)
svc_nginx_conf "$TRASH/nginx" "$HTTP_PORT" "$TRASH/pool.sock" "$TOP" "" "$TOP/doc/html" ||
	bail_out "cannot write nginx.conf"
NGINX_PID=$(svc_nginx_start "$TRASH/nginx" 2>>"$TRASH/fixture.log") || bail_out "nginx did not start"

test_expect_success 'nginx as make run configures it serves the reference at /docs/' '
	poll_until 100 http GET /docs/ &&
	expect_status 200 &&
	expect_header Content-Type "^text/html" &&
	grep -q "redoc.standalone.js" body &&
	http GET /docs/redoc.standalone.js &&
	expect_status 200
'

test_done
