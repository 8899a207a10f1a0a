/* Constructs the IR does not model keep the code around them sequential. */
#include <setjmp.h>
#include <stdio.h>

static jmp_buf env;

int scan(int *x, int n) {
	for (int i = 0; i < n; i++) {
		if (x[i] < 0)
			goto fail;
		x[i] *= 2;
	}
	return 0;
fail:
	return -1;
}

int vla(int n) {
	float t[n];
	for (int i = 0; i < n; i++)
		t[i] = (float)i;
	return (int)t[n - 1];
}

int jump(void) {
	if (setjmp(env))
		return 1;
	printf("%d\n", vla(3));
	return 0;
}
