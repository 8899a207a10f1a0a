int x;
#endif
