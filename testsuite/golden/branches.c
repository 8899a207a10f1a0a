/* Control flow between macro tasks: the brief's worked example, an early
 * return, a loop in an else arm, while and do-while loops. */
static float a[64], b[64], c[64];

static void produce(float *x, int n) {
	for (int i = 0; i < n; i++)
		x[i] = (float)i;
}

int run(int flag, int n) {
	int k = 0;
	if (flag) {
		produce(a, 64);
	}
	produce(b, 64);
	for (int i = 0; i < 64; i++)
		c[i] = a[i] + b[i];
	if (n < 0)
		return -1;
	if (n > 64) {
		k = 1;
	} else {
		for (int i = 0; i < n; i++)
			c[i] *= 2;
	}
	while (k < 10)
		k += 2;
	do {
		k--;
	} while (k > 0);
	return k;
}
