#ifdef A
int x;
#else
int y;
#else
int z;
#endif
