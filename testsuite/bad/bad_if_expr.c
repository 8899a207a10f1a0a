#if (1 +
int x;
#endif
