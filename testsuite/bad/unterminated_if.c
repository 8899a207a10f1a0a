#if __STDC_VERSION__ > 1
int x;
