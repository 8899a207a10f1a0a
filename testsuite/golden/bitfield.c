/* csmith writes unnamed bit-fields, which tree-sitter-c 0.23.6 cannot parse:
 * pp_scan hides them, and the struct's member offsets become unknown. */
struct S0 {
   signed f0 : 10;
   unsigned : 0;
   volatile unsigned f1 : 4;
   signed : 0;
   int f2;
};
static struct S0 g = {1, 2, 3};

int f(int c) {
	switch (c) {
	case 1: return g.f0;
	default: return g.f2;
	}
}
