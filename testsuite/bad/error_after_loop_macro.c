#define FOR(i, n) for (int i = 0; i < (n); i++)
int f(int *a)
{
	FOR(i, 8) a[i] = i;
	return a[3]
}
