/* an active #error fails the run, as it fails the compiler */
#if 1
#error this configuration is not supported
#endif
int x;
