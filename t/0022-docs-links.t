#!/bin/sh
test_description='the README fits on a screen or two, links every page of doc/, and no relative link of the README, doc/*.md or t/README points to a missing file or heading, and every metric family has its row in doc/operations.md'
. "$(dirname "$0")/lib.sh"

# Prints FILE: TARGET for each relative link [text](TARGET) of the files given whose file (or
# heading, after a #) is missing. Headings become anchors as GitHub makes them: lower case, spaces
# to -, everything but letters, digits, - and _ dropped. Code blocks and code spans are skipped.
broken_links () {
	/usr/bin/python3 - "$@" <<-\EOF
	import os, re, sys
	def anchors(path):
	    out, fence = set(), False
	    for line in open(path, encoding="utf-8"):
	        if line.startswith("```"):
	            fence = not fence
	        elif not fence and re.match(r"#{1,6} ", line):
	            text = re.sub(r"[`*]", "", line.lstrip("#").strip()).lower()
	            out.add(re.sub(r"[^\w\- ]", "", text).replace(" ", "-"))
	    return out
	for path in sys.argv[1:]:
	    text = re.sub(r"```.*?```", "", open(path, encoding="utf-8").read(), flags=re.S)
	    text = re.sub(r"`[^`\n]*`", "", text)
	    for target in re.findall(r"\]\(([^)\s]+)\)", text):
	        if re.match(r"[a-z]+:", target):
	            continue
	        name, _, frag = target.partition("#")
	        dest = os.path.normpath(os.path.join(os.path.dirname(path), name)) if name else path
	        if not os.path.exists(dest):
	            print(f"{path}: {target} (no such file)")
	        elif frag and dest.endswith(".md") and frag not in anchors(dest):
	            print(f"{path}: {target} (no such heading)")
	EOF
}

test_expect_success 'README.md has at most 200 lines' '
	lines=$(wc -l <"$TOP/README.md") &&
	{ [ "$lines" -le 200 ] || { echo "README.md has $lines lines"; false; }; }
'

test_expect_success 'README.md links every page of doc/ and t/README' '
	missing= &&
	for page in "$TOP"/doc/*.md "$TOP/t/README"; do
		rel=${page#"$TOP"/} &&
		grep -qF "]($rel)" "$TOP/README.md" || missing="$missing $rel"
	done &&
	{ [ -z "$missing" ] || { echo "not linked from README.md:$missing"; false; }; }
'

test_expect_success 'every relative link of README.md, doc/*.md and t/README resolves' '
	(cd "$TOP" && broken_links README.md doc/*.md t/README) >broken &&
	{ ! test -s broken || { cat broken; false; }; }
'

test_expect_success 'the link check finds a missing file and a missing heading' '
	mkdir -p planted &&
	printf "# Title\n\n[a](gone.md) [b](#nowhere) [c](#title) [d](https://example.org/)\n" >planted/page.md &&
	broken_links planted/page.md >found &&
	grep -qF "planted/page.md: gone.md (no such file)" found &&
	grep -qF "planted/page.md: #nowhere (no such heading)" found &&
	test "$(wc -l <found)" = 2
'

test_expect_success 'every metric family of the status page has its row in doc/operations.md' '
	sed -n "s/^# TYPE \(cms_[a-z_]*\) .*/\1/p" "$TOP/t/unit/golden/status.prom" >families &&
	test "$(wc -l <families)" -ge 20 &&
	missing= &&
	for family in $(cat families); do
		grep -q "^|.*\`$family[\`{]" "$TOP/doc/operations.md" || missing="$missing $family"
	done &&
	{ [ -z "$missing" ] || { echo "families without a row in doc/operations.md:$missing"; false; }; }
'

test_done
