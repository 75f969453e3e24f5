#!/bin/sh
test_description='doc/openapi.yaml has exactly the routes of src/api/routes.cpp, with their methods, access levels and permissions'
. "$(dirname "$0")/lib.sh"

/usr/bin/python3 -c 'import yaml' 2>/dev/null || skip_all "python3-yaml is not installed (scripts/install-deps)"

# "METHOD PATH ACCESS [MODULE/NAME]" per route, sorted. routes.cpp: one {"METHOD", "PATH",
# A::level, k_permission, ...} line per route, and each k_permission a constexpr Permission.
test_expect_success 'setup: the route table of src/api/routes.cpp, one line per route' '
	sed -n "s/^constexpr Permission \(k_[a-z_]*\){\"\([^\"]*\)\", \"\([^\"]*\)\"};/\1 \2\/\3/p" \
		"$TOP/src/api/routes.cpp" >permissions &&
	test -s permissions &&
	sed -n "s/^ *{\"\([A-Z]*\)\", *\"\([^\"]*\)\", *A::\([a-z]*\), *\(k_[a-z_]*\),.*/\1 \2 \3 \4/p" \
		"$TOP/src/api/routes.cpp" |
	while read -r method path access permission; do
		case $access in everyone) access=public ;; esac
		printf "%s %s %s%s\n" "$method" "$path" "$access" \
			"$(sed -n "s/^$permission / /p" permissions)"
	done | sort >table &&
	test "$(wc -l <table)" -ge 30 &&
	grep -qx "DELETE /v1/book/{id} group 图书/删除图书" table
'

test_expect_success 'setup: the same lines from doc/openapi.yaml' '
	/usr/bin/python3 -c "
import sys, yaml
doc = yaml.safe_load(open(sys.argv[1], encoding=\"utf-8\"))
for path, operations in doc[\"paths\"].items():
    for method, op in operations.items():
        p = op.get(\"x-permission\")
        print(method.upper(), path, op[\"x-access\"] + (\" %s/%s\" % (p[\"module\"], p[\"name\"]) if p else \"\"))
" "$TOP/doc/openapi.yaml" | sort >document &&
	test -s document
'

test_expect_success 'every route of the table is in the document, with its access level' '
	missing=$(comm -23 table document) &&
	{ [ -z "$missing" ] || { echo "routes the document lacks or describes otherwise:"; echo "$missing"; false; }; }
'

test_expect_success 'the document names no route the table lacks' '
	extra=$(comm -13 table document) &&
	{ [ -z "$extra" ] || { echo "operations of the document the table lacks:"; echo "$extra"; false; }; }
'

test_done
