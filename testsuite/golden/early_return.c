/* Early exits: a conditional return makes the MTs after it control
 * dependent on its fall-through; a TVM guard on an operator that always
 * returns 0 folds into a plain call; a break in a loop body makes the rest
 * of the body depend on it. */
static float a[64], b[64], c[64];

static int op(float *x, float v) {
	for (int i = 0; i < 64; i++)
		x[i] = v;
	return 0;
}

static void fill(float *x, float v) {
	for (int i = 0; i < 64; i++)
		x[i] = v;
}

int early(int n) {
	fill(a, 1.0f);
	if (n < 0)
		return -1;
	if (op(b, 2.0f) != 0) return -1;
	fill(c, 3.0f);
	for (int i = 0; i < n; i++) {
		if (a[i] < 0.0f)
			break;
		fill(b, a[i]);
		c[i] += b[i];
	}
	return 0;
}
