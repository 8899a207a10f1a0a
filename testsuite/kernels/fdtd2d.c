/* fdtd2d.c - 2-D finite-difference time domain, as PolyBench writes it:
 * a time loop over three sweeps (ey, ex, hz) and a boundary row set from
 * _fict_[t].  Each sweep is split by rows; the ey and ex sweeps are
 * independent, and a schedule that gave one core both halves of ey and the
 * other both halves of ex moved the grids between the cores every step
 * (0.65x on two cores): chunk k of every sweep runs on core k. */
#include <stdio.h>

#include "bench.h"

#define _B_TMAX LOOP_BOUND(FDTD_T, tmax)
#define _B_NX LOOP_BOUND(FDTD_X, nx)
#define _B_NY LOOP_BOUND(FDTD_Y, ny)

static DATA_TYPE ex[FDTD_X][FDTD_Y], ey[FDTD_X][FDTD_Y], hz[FDTD_X][FDTD_Y], _fict_[FDTD_T];

static void init_array(int tmax, int nx, int ny, DATA_TYPE ARR2(ex, FDTD_X, FDTD_Y, nx, ny),
                       DATA_TYPE ARR2(ey, FDTD_X, FDTD_Y, nx, ny), DATA_TYPE ARR2(hz, FDTD_X, FDTD_Y, nx, ny),
                       DATA_TYPE ARR1(_fict_, FDTD_T, tmax))
{
	int i, j;

	for (i = 0; i < tmax; i++)
		_fict_[i] = (DATA_TYPE)i;
	for (i = 0; i < nx; i++)
		for (j = 0; j < ny; j++) {
			ex[i][j] = ((DATA_TYPE)i * (j + 1)) / nx;
			ey[i][j] = ((DATA_TYPE)i * (j + 2)) / ny;
			hz[i][j] = ((DATA_TYPE)i * (j + 3)) / nx;
		}
}

static void kernel_fdtd_2d(int tmax, int nx, int ny, DATA_TYPE ARR2(ex, FDTD_X, FDTD_Y, nx, ny),
                           DATA_TYPE ARR2(ey, FDTD_X, FDTD_Y, nx, ny), DATA_TYPE ARR2(hz, FDTD_X, FDTD_Y, nx, ny),
                           DATA_TYPE ARR1(_fict_, FDTD_T, tmax))
{
	int t, i, j;

	for (t = 0; t < _B_TMAX; t++) {
		for (j = 0; j < _B_NY; j++)
			ey[0][j] = _fict_[t];
		for (i = 1; i < _B_NX; i++)
			for (j = 0; j < _B_NY; j++)
				ey[i][j] = ey[i][j] - SCALAR_VAL(0.5) * (hz[i][j] - hz[i - 1][j]);
		for (i = 0; i < _B_NX; i++)
			for (j = 1; j < _B_NY; j++)
				ex[i][j] = ex[i][j] - SCALAR_VAL(0.5) * (hz[i][j] - hz[i][j - 1]);
		for (i = 0; i < _B_NX - 1; i++)
			for (j = 0; j < _B_NY - 1; j++)
				hz[i][j] = hz[i][j] - SCALAR_VAL(0.7) * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]);
	}
}

int main(void)
{
	double s = 0;
	int i, j;

	init_array(FDTD_T, FDTD_X, FDTD_Y, ex, ey, hz, _fict_);
	kernel_fdtd_2d(FDTD_T, FDTD_X, FDTD_Y, ex, ey, hz, _fict_);
	for (i = 0; i < FDTD_X; i++)
		for (j = 0; j < FDTD_Y; j++)
			s += (ex[i][j] + 2 * ey[i][j] + 3 * hz[i][j]) * ((i + j) % 3 + 1);
	printf("fdtd2d %.9e\n", s);
	return 0;
}
