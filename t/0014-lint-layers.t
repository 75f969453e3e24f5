#!/bin/sh
test_description='scripts/lint passes on the tree, and refuses an include that points up a layer, one without its folder, and a source file outside the layer folders'
. "$(dirname "$0")/lib.sh"

# A copy of scripts/lint and the sources of src/ in which one fault is planted at a time (lint
# reads the tree above its own folder).
copy_tree () {
	rm -rf tree &&
	mkdir -p tree/scripts &&
	cp "$TOP/scripts/lint" tree/scripts/ &&
	(cd "$TOP" && find src -name "*.cpp" -o -name "*.h") >sources &&
	tar -C "$TOP" -cf - -T sources | tar -C tree -xf -
}

test_expect_success 'the tree as committed passes' '
	"$TOP/scripts/lint" >out 2>&1 ||
	{ cat out; false; }
'

test_expect_success 'the copy passes before anything is planted' '
	copy_tree &&
	tree/scripts/lint >out 2>&1 ||
	{ cat out; false; }
'

test_expect_success 'base/ including a db/ header is refused and named' '
	copy_tree &&
	sed -i "0,/^#include \"/s||#include \"db/db.h\"\n&|" tree/src/base/text.cpp &&
	grep -q "^#include \"db/db.h\"" tree/src/base/text.cpp &&
	! tree/scripts/lint >out 2>&1 &&
	grep -q "pointing up a layer" out &&
	grep -q "^src/base/text.cpp:[0-9]*:#include \"db/db.h\"" out
'

test_expect_success 'the metrics layer including the api is refused; the api including metrics is not' '
	copy_tree &&
	echo "#include \"api/book_handlers.h\"" >>tree/src/metrics/scoreboard.h &&
	! tree/scripts/lint >out 2>&1 &&
	grep -q "^src/metrics/scoreboard.h:[0-9]*:#include \"api/book_handlers.h\"" out &&
	copy_tree &&
	echo "#include \"metrics/scoreboard.h\"" >>tree/src/api/routes.cpp &&
	tree/scripts/lint >out 2>&1 ||
	{ cat out; false; }
'

test_expect_success 'an include without its folder is refused' '
	copy_tree &&
	echo "#include \"text.h\"" >>tree/src/base/utf8.cpp &&
	! tree/scripts/lint >out 2>&1 &&
	grep -q "^src/base/utf8.cpp:[0-9]*:#include \"text.h\"" out
'

test_expect_success 'a source file in src/ itself, or in a folder that is no layer, is refused' '
	copy_tree &&
	echo "int x;" >tree/src/stray.cpp &&
	! tree/scripts/lint >out 2>&1 &&
	grep -q "^src/stray.cpp$" out &&
	copy_tree &&
	mkdir tree/src/misc &&
	echo "int y;" >tree/src/misc/stray.cpp &&
	! tree/scripts/lint >out 2>&1 &&
	grep -q "^src/misc/stray.cpp$" out
'

test_done
