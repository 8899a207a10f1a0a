#!/bin/sh
# unchanged.sh INPUT OUTPUT - succeeds when mtpar's OUTPUT is INPUT as it
# was: nothing but mtpar's first-line comment and the "#line 1" after it
# (behind the byte-order mark, if INPUT has one) added.
sed '1s/^\xef\xbb\xbf//' "$1" >"$2.input" &&
	sed '1s/^\xef\xbb\xbf//' "$2" | sed '1{/^\/\* mtpar /d}' | sed '1{/^#line 1 "/d}' |
	cmp -s - "$2.input"
rc=$?
rm -f "$2.input"
exit $rc
