/* onnx2c-style: FUNC_PREFIX node functions, a union of tensors, two-IV loops. */
#include <stdint.h>
#define MAX(X,Y) ( X > Y ? X : Y)

#if __STDC_VERSION__ < 199901L
#define FUNC_PREFIX
#else
#define FUNC_PREFIX static inline
#endif

union tensor_union_0 {
float a[1][4][8][8];
float b[1][4][4][4];
};
static union tensor_union_0 tu0;
static float w0[4][4][3][3];

FUNC_PREFIX void node_conv( const float x[1][4][8][8], const float w[4][4][3][3], float y[1][4][8][8] )
{
	for( uint32_t b=0; b<1; b++ ) {
	for( uint32_t m=0; m<4; m++) {
		for( int32_t o0=0, i0=-1; o0<8; o0++, i0+=1) {
		for( int32_t o1=0, i1=-1; o1<8; o1++, i1+=1) {
			y[b][m][o0][o1] = 0;
			for( int32_t c=0; c<4; c++ ) {
			for( uint32_t k0=0; k0<3; k0++ ) {
			for( uint32_t k1=0; k1<3; k1++ ) {
				int ii0 = i0+k0 * 1;
				int ii1 = i1+k1 * 1;
				if( ii0 >= 0 && ii0 < 8 && ii1 >= 0 && ii1 < 8 ) {
				y[b][m][o0][o1] += x[b][c][ii0][ii1] * w[m][c][k0][k1];
				}
			}
			}
			}
		}
		}
	}
	}
}

FUNC_PREFIX void node_relu( const float X[1][4][8][8], float Y[1][4][8][8] )
{
	float *X_ptr = (float*)X;
	float *Y_ptr = (float*)Y;
	uint32_t i;
	for( i=0; i<256; i++ )
		Y_ptr[i] = MAX(X_ptr[i], 0);
}

void entry(const float in[1][4][8][8], float out[1][4][8][8]){
	node_conv( in, w0, tu0.a);
	node_relu( tu0.a, out);
}
