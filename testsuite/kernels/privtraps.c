/* privtraps.c - scratch arrays that look private to each iteration of a
 * loop but are not, in ways the IR hides: a read inside the length of a
 * variable-length type, an inner counter that wraps in its narrow type,
 * one changed through its address, one stepped twice in its header, and
 * subscripts that go through a pointer element.  And two that the loop
 * names in `__typeof__` and `sizeof`: mtpar refuses them, or gives the copy
 * the array's own type.  Found by an adversarial review of array
 * privatization; before the fixes four of them printed wrong sums and two
 * crashed. */
#include <stdio.h>

#define R 128
#define C 32

static double in[R][C], out[R][C];
static double tmp[64];
static double other[64];
static double *rows[2] = { tmp, other };

static double checksum(const double *a, int n)
{
	double s = 0;
	int i;

	for (i = 0; i < n; i++)
		s += a[i] * (i % 7 + 1);
	return s;
}

static void fill(void)
{
	int i, j;

	for (j = 0; j < 64; j++)
		tmp[j] = other[j] = j;
	for (i = 0; i < R; i++)
		for (j = 0; j < C; j++)
			in[i][j] = (i * 31 + j * 17) % 101 / 101.0;
}

/* sizeof(char[n]) evaluates n, which reads tmp[C - 1] before this iteration writes it */
static void vla_length(void)
{
	int i, j;

	for (i = 0; i < R; i++) {
		for (j = 0; j < C; j++)
			tmp[j] = in[i][j] * 2 + i + (double)sizeof(char[(int)tmp[C - 1] % 8 + 1]);
		for (j = 0; j < C; j++)
			out[i][j] = tmp[j];
	}
}

/* u wraps at 256: the loop runs 86 times and writes tmp[32..35] */
static void narrow_counter(void)
{
	int i, j;
	unsigned char u;

	for (i = 0; i < R; i++) {
		for (j = 0; j < C; j++)
			tmp[j] = in[i][j] + i;
		for (u = 253; u < 255; u += 3)
			tmp[32 + (u + 3) % 4] = tmp[u % 32] * 0.5;
		for (j = 0; j < C; j++)
			out[i][j] = tmp[j] + tmp[32 + j % 4];
	}
}

/* *pj += 1 steps j a second time: only the even elements are written */
static void counter_address(void)
{
	int i, j;
	int *pj = &j;

	for (i = 0; i < R; i++) {
		for (j = 0; j < C; j++) {
			tmp[j] = in[i][j] * 3;
			*pj += 1;
		}
		for (j = 0; j < C; j++)
			out[i][j] = tmp[j];
	}
}

/* j++, j++: the header steps by two */
static void double_step(void)
{
	int i, j;

	for (i = 0; i < R; i++) {
		for (j = 0; j < C; j++, j++)
			tmp[j] = in[i][j] - 1;
		for (j = 0; j < C; j++)
			out[i][j] = tmp[j] * 2;
	}
}

/* rows[1][j] writes what rows[1] points to, not rows */
static void through_pointer(void)
{
	int i, j;

	for (i = 0; i < R; i++) {
		for (j = 0; j < C; j++)
			rows[1][j] = in[i][j] + 2;
		for (j = 0; j < C; j++)
			out[i][j] = rows[1][j];
	}
}

/* the loop reads tmp's type: a copy must be a double[64] too */
static double type_of(void)
{
	double s = 0;
	int i, j;

	for (i = 0; i < R; i++) {
		__typeof__(tmp) loc;

		for (j = 0; j < 64; j++)
			tmp[j] = in[i][j % C] * j;
		for (j = 0; j < C; j++) {
			loc[j] = tmp[j] * 2;
			out[i][j] = loc[j] + (double)sizeof loc + (double)sizeof(__typeof__(tmp)) + tmp[63 - j];
		}
	}
	for (j = 0; j < 64; j++)
		s += tmp[j];
	return s;
}

/* a pointer parameter whose type the loop reads */
static void param_type(double *t)
{
	int i, j;

	for (i = 0; i < R; i++) {
		for (j = 0; j < C; j++)
			t[j] = in[i][j] * 5;
		for (j = 0; j < C; j++) {
			__typeof__(t) p = in[i];

			out[i][j] = t[j] + p[j] + (double)sizeof(__typeof__(t));
		}
	}
}

int main(void)
{
	fill();
	vla_length();
	printf("vla %.9e %.9e\n", checksum(&out[0][0], R * C), checksum(tmp, 64));
	fill();
	narrow_counter();
	printf("narrow %.9e %.9e\n", checksum(&out[0][0], R * C), checksum(tmp, 64));
	fill();
	counter_address();
	printf("address %.9e %.9e\n", checksum(&out[0][0], R * C), checksum(tmp, 64));
	fill();
	double_step();
	printf("step %.9e %.9e\n", checksum(&out[0][0], R * C), checksum(tmp, 64));
	fill();
	through_pointer();
	printf("pointer %.9e %.9e %.9e\n", checksum(&out[0][0], R * C), checksum(tmp, 64),
	       checksum(other, 64));
	fill();
	printf("typeof %.9e", type_of());
	printf(" %.9e\n", checksum(&out[0][0], R * C));
	fill();
	param_type(other);
	printf("param %.9e %.9e\n", checksum(&out[0][0], R * C), checksum(other, 64));
	return 0;
}
