#!/bin/sh
# check-lines.sh INPUT OUTPUT - every line of mtpar's OUTPUT that the
# compiler numbers as a line of INPUT (through the output's #line
# directives) and whose text occurs in INPUT once only (at least 16
# characters, blanks at its ends ignored) carries that line's number.
# Prints each line that does not and fails; prints the count checked.
awk -v input="$1" '
function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t\r]+$/, "", s); return s }
FNR == NR { t = trim($0); if (length(t) >= 16) { n[t]++; at[t] = FNR } next }
FNR == 1 { file = ""; line = 0 }
/^#line [0-9]+ "/ {
	line = $2 - 1; file = $3; gsub(/^"|"$/, "", file); next
}
{
	line++
	t = trim($0)
	if (file != input || !(t in n) || n[t] != 1)
		next
	checked++
	if (at[t] != line) {
		bad++
		printf "%s: output line %d is numbered %d, its text is at line %d of %s\n", FILENAME, FNR, line, at[t], input
	}
}
END { printf "%d lines checked, %d misnumbered\n", checked, bad; exit bad > 0 }
' "$1" "$2"
