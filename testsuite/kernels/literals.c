/* literals.c - the size of a string literal, as a loop bound: a universal
 * character name is the bytes its encoding takes (UTF-8 in a narrow or u8
 * literal: U+00E9 two, U+1F600 four), a u"" literal counts 16-bit units
 * (U+1F600 a pair), L"" and U"" 32-bit ones.  Counted as one byte each, the
 * loops below looked shorter than they run, and their slices stopped
 * early (a helper's sweep of NR- and f2c-style programs, session 34). */
#include <stdio.h>

#define K 20000

static int narrow[K * 5], utf16[K * 8], wide[K * 16], utf32[K * 12], mixed[K * 6];

int main(void)
{
	size_t i;
	long t = 0;

	for (i = 0; i < K * sizeof "\U0001F600"; i++)
		narrow[i] = (int)(i % 3) + 1;
	for (i = 0; i < K * sizeof u"a\U0001F600"; i++)
		utf16[i] = (int)(i % 5) + 2;
	for (i = 0; i < K * sizeof L"ab\u00e9"; i++)
		wide[i] = (int)(i % 7) + 3;
	for (i = 0; i < K * sizeof U"a\U0001F600"; i++)
		utf32[i] = (int)(i % 11) + 4;
	for (i = 0; i < K * sizeof "a" "\u00e9" "\x41\101"; i++)
		mixed[i] = (int)(i % 13) + 5;
	for (i = 0; i < K * 5; i++)
		t += narrow[i];
	for (i = 0; i < K * 8; i++)
		t += utf16[i] * 3;
	for (i = 0; i < K * 16; i++)
		t += wide[i] * 5;
	for (i = 0; i < K * 12; i++)
		t += utf32[i] * 7;
	for (i = 0; i < K * 6; i++)
		t += mixed[i] * 11;
	printf("%ld\n", t);
	return 0;
}
