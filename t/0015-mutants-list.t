#!/bin/sh
test_description='scripts/mutants --check passes on mutants/list as committed, and fails, naming the mutant, when the source has moved a listed text, a text is found twice, a test file named is missing, or a name is used twice'
. "$(dirname "$0")/lib.sh"

# A copy of scripts/mutants, mutants/list and every file the list names (the files to change and
# the test files), in which one drift is planted at a time and the mutant it touches checked (the
# whole list takes a second on an idle machine, a minute on a loaded one).
copy_tree () {
	rm -rf tree &&
	awk '$1 == "file" || $1 == "tests" { for (i = 2; i <= NF; i++) print $i }' \
		"$TOP/mutants/list" | sort -u >named &&
	test -s named &&
	{ echo scripts/mutants && echo mutants/list && cat named; } >files &&
	mkdir tree &&
	tar -C "$TOP" -cf - -T files | tar -C tree -xf -
}

# The file, and the text to find, of the first mutant of the copy's list; its name in $name.
first_mutant () {
	name=$(awk '$1 == "mutant" { print $2; exit }' tree/mutants/list) &&
	file=$(awk '$1 == "file" { print $2; exit }' tree/mutants/list) &&
	test -n "$name" &&
	test -f "tree/$file"
}

test_expect_success 'the list as committed passes' '
	"$TOP/scripts/mutants" --check >out 2>&1 ||
	{ cat out; false; }
'

test_expect_success 'the copy passes before anything is planted' '
	copy_tree &&
	tree/scripts/mutants --check >out 2>&1 ||
	{ cat out; false; }
'

test_expect_success 'a source whose listed text moved (the first mutant'"'"'s) fails, naming the mutant' '
	copy_tree &&
	first_mutant &&
	find=$(awk "\$1 == \"find\" { sub(/^find[ \t]+/, \"\"); print; exit }" tree/mutants/list) &&
	MUTANT_FIND=$find perl -0777 -i -pe "
		BEGIN { (\$f = \$ENV{MUTANT_FIND}) =~ s/\\\\n/\\n/g }
		s/\\Q\$f\\E/moved elsewhere/" "tree/$file" &&
	! grep -qF "moved elsewhere" "$TOP/$file" &&
	grep -qF "moved elsewhere" "tree/$file" &&
	! tree/scripts/mutants --check "$name" >out 2>&1 &&
	grep -q "^BROKEN   $name: the text to find in $file was found 0 times" out &&
	grep -q "1 broken" out
'

test_expect_success 'a text found twice in its file fails' '
	copy_tree &&
	first_mutant &&
	cat "tree/$file" "tree/$file" >doubled &&
	cp doubled "tree/$file" &&
	! tree/scripts/mutants --check "$name" >out 2>&1 &&
	grep -q "^BROKEN   $name: the text to find in $file was found 2 times" out
'

test_expect_success 'a mutant naming a test file that is not there fails' '
	copy_tree &&
	printf "\nmutant   drifted-test\nfile     %s\nfind     %s\ntests    t/9999-gone.t\n" \
		scripts/mutants "plant () {" >>tree/mutants/list &&
	! tree/scripts/mutants --check drifted-test >out 2>&1 &&
	grep -q "^BROKEN   drifted-test: no test file t/9999-gone.t" out
'

test_expect_success 'a name used twice fails' '
	copy_tree &&
	first_mutant &&
	awk "/^mutant / { n++ } n == 1" tree/mutants/list >first-block &&
	{ echo && cat first-block; } >>tree/mutants/list &&
	! tree/scripts/mutants --check "$name" >out 2>&1 &&
	grep -q "^BROKEN   $name: named twice in mutants/list" out
'

test_expect_success 'make lint runs the check' '
	grep -q "scripts/mutants --check" "$TOP/Makefile" &&
	make -s -C "$TOP" lint >out 2>&1 &&
	grep -q "0 broken" out
'

test_done
