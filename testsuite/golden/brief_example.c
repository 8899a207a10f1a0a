/* The design brief's worked example (section 3): MT1 branches to MT2 (T)
 * or not, MT3 is independent, MT4 reads what MT2 and MT3 write.  Expected:
 * EEC(MT2) = Br(MT1,T); EEC(MT3) = true;
 * EEC(MT4) = (Fin(MT2) OR Br(MT1,F)) AND Fin(MT3). */
static float a[64], b[64], c[64];

static void produce(float *x, float v) {
	for (int i = 0; i < 64; i++)
		x[i] = v;
}

void run(int flag) {
	if (flag) {
		produce(a, 1.0f);
	}
	produce(b, 2.0f);
	for (int i = 0; i < 64; i++)
		c[i] = a[i] + b[i];
}
