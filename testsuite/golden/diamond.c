/* A diamond: both arms of an if write x, the join reads it and waits for
 * whichever arm ran (Fin(MT3) OR Fin(MT4)); z is independent of all. */
static float x[64], y[64], z[64];

static void fill(float *p, float v) {
	for (int i = 0; i < 64; i++)
		p[i] = v;
}

static void scale(float *p, float v) {
	for (int i = 0; i < 64; i++)
		p[i] *= v;
}

void diamond(int c) {
	fill(x, 1.0f);
	if (c > 0) {
		scale(x, 2.0f);
	} else {
		fill(x, 3.0f);
	}
	for (int i = 0; i < 64; i++)
		y[i] = x[i];
	fill(z, 0.0f);
}
