// Example network: one Inception block in the style of onnx2c (ea045cc, `onnx2c -e`), the
// code shape of the corpus's onnx2c-googlenet: FUNC_PREFIX node functions, plain static tensors
// (no unions here), entry() as a straight line of node calls. Written by hand, not by onnx2c.
//
// Parallelism: after the stem, the four branches (1x1; 1x1 then 3x3; 1x1 then 5x5; maxpool
// then 1x1) read the stem output and write their own tensors, so they are mutually
// independent; only the concat waits for all four. The branches are unbalanced (the 3x3 branch
// is about 60% of the work), so loop parallelism inside the nodes is still needed.
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define MAX(X,Y) ( X > Y ? X : Y)
#define MIN(X,Y) ( X < Y ? X : Y)
#define CLIP(X,L) ( MAX(MIN(X,L), -L) )

#if __STDC_VERSION__ < 199901L
#define FUNC_PREFIX
#else
#define FUNC_PREFIX static inline
#endif

float tensor_stem_conv_weight[64][3][3][3];
float tensor_stem_conv_bias[64];
float tensor_branch1_conv_weight[32][64][1][1];
float tensor_branch1_conv_bias[32];
float tensor_branch2_0_conv_weight[48][64][1][1];
float tensor_branch2_0_conv_bias[48];
float tensor_branch2_1_conv_weight[64][48][3][3];
float tensor_branch2_1_conv_bias[64];
float tensor_branch3_0_conv_weight[16][64][1][1];
float tensor_branch3_0_conv_bias[16];
float tensor_branch3_1_conv_weight[32][16][5][5];
float tensor_branch3_1_conv_bias[32];
float tensor_branch4_conv_weight[32][64][1][1];
float tensor_branch4_conv_bias[32];

static float tensor__stem_conv_Conv_output_0[1][64][64][64];
static float tensor__stem_relu_Relu_output_0[1][64][64][64];
static float tensor__branch1_conv_Conv_output_0[1][32][64][64];
static float tensor__branch1_relu_Relu_output_0[1][32][64][64];
static float tensor__branch2_0_conv_Conv_output_0[1][48][64][64];
static float tensor__branch2_0_relu_Relu_output_0[1][48][64][64];
static float tensor__branch2_1_conv_Conv_output_0[1][64][64][64];
static float tensor__branch2_1_relu_Relu_output_0[1][64][64][64];
static float tensor__branch3_0_conv_Conv_output_0[1][16][64][64];
static float tensor__branch3_0_relu_Relu_output_0[1][16][64][64];
static float tensor__branch3_1_conv_Conv_output_0[1][32][64][64];
static float tensor__branch3_1_relu_Relu_output_0[1][32][64][64];
static float tensor__branch4_pool_MaxPool_output_0[1][64][64][64];
static float tensor__branch4_conv_Conv_output_0[1][32][64][64];
static float tensor__branch4_relu_Relu_output_0[1][32][64][64];


/*
 * Operand:           Conv
 * Name in ONNX file: /stem/conv/Conv
 */
FUNC_PREFIX void node__stem_conv_Conv( const float x[1][3][64][64], const float w[64][3][3][3], const float bias[64], float y[1][64][64][64] )
{
	/* Conv
	 *
	 * auto_pad: NOTSET
	 * dilations: 1 1
	 * group: 1
	 * kernel_shape: 3 3
	 * pads: 1 1 1 1
	 * strides: 1 1
	 */
	for( uint32_t b=0; b<1; b++ ) {
	for( uint32_t m=0; m<64; m++) {
		for( int32_t o0=0, i0=-1; o0<64; o0++, i0+=1) {
		for( int32_t o1=0, i1=-1; o1<64; o1++, i1+=1) {
			y[b][m][o0][o1] = bias[m];
			for( int32_t c=0; c<3; c++ ) {
			for( int32_t k0=0; k0<3; k0++ ) {
			for( int32_t k1=0; k1<3; k1++ ) {
				int ii0 = i0+k0 * 1;
				int ii1 = i1+k1 * 1;
				if( ii0 >= 0 && ii0 < 64 && ii1 >= 0 && ii1 < 64 ) {
				y[b][m][o0][o1] += x[b][c][ii0][ii1] * w[m][c][k0][k1];
				} /* if valid */
			} /* k */
			} /* k */
			} /* c */
		} /* o */
		} /* o */
	} /* m */
	} /* b */
}

/*
 * Operand:           Relu
 * Name in ONNX file: /stem/relu/Relu
 */
FUNC_PREFIX void node__stem_relu_Relu( const float X[1][64][64][64], float Y[1][64][64][64] )
{
	/*Relu*/
	float *X_ptr = (float*)X;
	float *Y_ptr = (float*)Y;
	uint32_t i;
	for( i=0; i<262144; i++ )
		Y_ptr[i] = X_ptr[i] > 0 ? X_ptr[i] : 0;

}

/*
 * Operand:           Conv
 * Name in ONNX file: /branch1/conv/Conv
 */
FUNC_PREFIX void node__branch1_conv_Conv( const float x[1][64][64][64], const float w[32][64][1][1], const float bias[32], float y[1][32][64][64] )
{
	/* Conv
	 *
	 * auto_pad: NOTSET
	 * dilations: 1 1
	 * group: 1
	 * kernel_shape: 1 1
	 * pads: 0 0 0 0
	 * strides: 1 1
	 */
	for( uint32_t b=0; b<1; b++ ) {
	for( uint32_t m=0; m<32; m++) {
		for( int32_t o0=0, i0=0; o0<64; o0++, i0+=1) {
		for( int32_t o1=0, i1=0; o1<64; o1++, i1+=1) {
			y[b][m][o0][o1] = bias[m];
			for( int32_t c=0; c<64; c++ ) {
			for( int32_t k0=0; k0<1; k0++ ) {
			for( int32_t k1=0; k1<1; k1++ ) {
				int ii0 = i0+k0 * 1;
				int ii1 = i1+k1 * 1;
				if( ii0 >= 0 && ii0 < 64 && ii1 >= 0 && ii1 < 64 ) {
				y[b][m][o0][o1] += x[b][c][ii0][ii1] * w[m][c][k0][k1];
				} /* if valid */
			} /* k */
			} /* k */
			} /* c */
		} /* o */
		} /* o */
	} /* m */
	} /* b */
}

/*
 * Operand:           Relu
 * Name in ONNX file: /branch1/relu/Relu
 */
FUNC_PREFIX void node__branch1_relu_Relu( const float X[1][32][64][64], float Y[1][32][64][64] )
{
	/*Relu*/
	float *X_ptr = (float*)X;
	float *Y_ptr = (float*)Y;
	uint32_t i;
	for( i=0; i<131072; i++ )
		Y_ptr[i] = X_ptr[i] > 0 ? X_ptr[i] : 0;

}

/*
 * Operand:           Conv
 * Name in ONNX file: /branch2/branch2.0/conv/Conv
 */
FUNC_PREFIX void node__branch2_0_conv_Conv( const float x[1][64][64][64], const float w[48][64][1][1], const float bias[48], float y[1][48][64][64] )
{
	/* Conv
	 *
	 * auto_pad: NOTSET
	 * dilations: 1 1
	 * group: 1
	 * kernel_shape: 1 1
	 * pads: 0 0 0 0
	 * strides: 1 1
	 */
	for( uint32_t b=0; b<1; b++ ) {
	for( uint32_t m=0; m<48; m++) {
		for( int32_t o0=0, i0=0; o0<64; o0++, i0+=1) {
		for( int32_t o1=0, i1=0; o1<64; o1++, i1+=1) {
			y[b][m][o0][o1] = bias[m];
			for( int32_t c=0; c<64; c++ ) {
			for( int32_t k0=0; k0<1; k0++ ) {
			for( int32_t k1=0; k1<1; k1++ ) {
				int ii0 = i0+k0 * 1;
				int ii1 = i1+k1 * 1;
				if( ii0 >= 0 && ii0 < 64 && ii1 >= 0 && ii1 < 64 ) {
				y[b][m][o0][o1] += x[b][c][ii0][ii1] * w[m][c][k0][k1];
				} /* if valid */
			} /* k */
			} /* k */
			} /* c */
		} /* o */
		} /* o */
	} /* m */
	} /* b */
}

/*
 * Operand:           Relu
 * Name in ONNX file: /branch2/branch2.0/relu/Relu
 */
FUNC_PREFIX void node__branch2_0_relu_Relu( const float X[1][48][64][64], float Y[1][48][64][64] )
{
	/*Relu*/
	float *X_ptr = (float*)X;
	float *Y_ptr = (float*)Y;
	uint32_t i;
	for( i=0; i<196608; i++ )
		Y_ptr[i] = X_ptr[i] > 0 ? X_ptr[i] : 0;

}

/*
 * Operand:           Conv
 * Name in ONNX file: /branch2/branch2.1/conv/Conv
 */
FUNC_PREFIX void node__branch2_1_conv_Conv( const float x[1][48][64][64], const float w[64][48][3][3], const float bias[64], float y[1][64][64][64] )
{
	/* Conv
	 *
	 * auto_pad: NOTSET
	 * dilations: 1 1
	 * group: 1
	 * kernel_shape: 3 3
	 * pads: 1 1 1 1
	 * strides: 1 1
	 */
	for( uint32_t b=0; b<1; b++ ) {
	for( uint32_t m=0; m<64; m++) {
		for( int32_t o0=0, i0=-1; o0<64; o0++, i0+=1) {
		for( int32_t o1=0, i1=-1; o1<64; o1++, i1+=1) {
			y[b][m][o0][o1] = bias[m];
			for( int32_t c=0; c<48; c++ ) {
			for( int32_t k0=0; k0<3; k0++ ) {
			for( int32_t k1=0; k1<3; k1++ ) {
				int ii0 = i0+k0 * 1;
				int ii1 = i1+k1 * 1;
				if( ii0 >= 0 && ii0 < 64 && ii1 >= 0 && ii1 < 64 ) {
				y[b][m][o0][o1] += x[b][c][ii0][ii1] * w[m][c][k0][k1];
				} /* if valid */
			} /* k */
			} /* k */
			} /* c */
		} /* o */
		} /* o */
	} /* m */
	} /* b */
}

/*
 * Operand:           Relu
 * Name in ONNX file: /branch2/branch2.1/relu/Relu
 */
FUNC_PREFIX void node__branch2_1_relu_Relu( const float X[1][64][64][64], float Y[1][64][64][64] )
{
	/*Relu*/
	float *X_ptr = (float*)X;
	float *Y_ptr = (float*)Y;
	uint32_t i;
	for( i=0; i<262144; i++ )
		Y_ptr[i] = X_ptr[i] > 0 ? X_ptr[i] : 0;

}

/*
 * Operand:           Conv
 * Name in ONNX file: /branch3/branch3.0/conv/Conv
 */
FUNC_PREFIX void node__branch3_0_conv_Conv( const float x[1][64][64][64], const float w[16][64][1][1], const float bias[16], float y[1][16][64][64] )
{
	/* Conv
	 *
	 * auto_pad: NOTSET
	 * dilations: 1 1
	 * group: 1
	 * kernel_shape: 1 1
	 * pads: 0 0 0 0
	 * strides: 1 1
	 */
	for( uint32_t b=0; b<1; b++ ) {
	for( uint32_t m=0; m<16; m++) {
		for( int32_t o0=0, i0=0; o0<64; o0++, i0+=1) {
		for( int32_t o1=0, i1=0; o1<64; o1++, i1+=1) {
			y[b][m][o0][o1] = bias[m];
			for( int32_t c=0; c<64; c++ ) {
			for( int32_t k0=0; k0<1; k0++ ) {
			for( int32_t k1=0; k1<1; k1++ ) {
				int ii0 = i0+k0 * 1;
				int ii1 = i1+k1 * 1;
				if( ii0 >= 0 && ii0 < 64 && ii1 >= 0 && ii1 < 64 ) {
				y[b][m][o0][o1] += x[b][c][ii0][ii1] * w[m][c][k0][k1];
				} /* if valid */
			} /* k */
			} /* k */
			} /* c */
		} /* o */
		} /* o */
	} /* m */
	} /* b */
}

/*
 * Operand:           Relu
 * Name in ONNX file: /branch3/branch3.0/relu/Relu
 */
FUNC_PREFIX void node__branch3_0_relu_Relu( const float X[1][16][64][64], float Y[1][16][64][64] )
{
	/*Relu*/
	float *X_ptr = (float*)X;
	float *Y_ptr = (float*)Y;
	uint32_t i;
	for( i=0; i<65536; i++ )
		Y_ptr[i] = X_ptr[i] > 0 ? X_ptr[i] : 0;

}

/*
 * Operand:           Conv
 * Name in ONNX file: /branch3/branch3.1/conv/Conv
 */
FUNC_PREFIX void node__branch3_1_conv_Conv( const float x[1][16][64][64], const float w[32][16][5][5], const float bias[32], float y[1][32][64][64] )
{
	/* Conv
	 *
	 * auto_pad: NOTSET
	 * dilations: 1 1
	 * group: 1
	 * kernel_shape: 5 5
	 * pads: 2 2 2 2
	 * strides: 1 1
	 */
	for( uint32_t b=0; b<1; b++ ) {
	for( uint32_t m=0; m<32; m++) {
		for( int32_t o0=0, i0=-2; o0<64; o0++, i0+=1) {
		for( int32_t o1=0, i1=-2; o1<64; o1++, i1+=1) {
			y[b][m][o0][o1] = bias[m];
			for( int32_t c=0; c<16; c++ ) {
			for( int32_t k0=0; k0<5; k0++ ) {
			for( int32_t k1=0; k1<5; k1++ ) {
				int ii0 = i0+k0 * 1;
				int ii1 = i1+k1 * 1;
				if( ii0 >= 0 && ii0 < 64 && ii1 >= 0 && ii1 < 64 ) {
				y[b][m][o0][o1] += x[b][c][ii0][ii1] * w[m][c][k0][k1];
				} /* if valid */
			} /* k */
			} /* k */
			} /* c */
		} /* o */
		} /* o */
	} /* m */
	} /* b */
}

/*
 * Operand:           Relu
 * Name in ONNX file: /branch3/branch3.1/relu/Relu
 */
FUNC_PREFIX void node__branch3_1_relu_Relu( const float X[1][32][64][64], float Y[1][32][64][64] )
{
	/*Relu*/
	float *X_ptr = (float*)X;
	float *Y_ptr = (float*)Y;
	uint32_t i;
	for( i=0; i<131072; i++ )
		Y_ptr[i] = X_ptr[i] > 0 ? X_ptr[i] : 0;

}

/*
 * Operand:           MaxPool
 * Name in ONNX file: /branch4/pool/MaxPool
 */
FUNC_PREFIX void node__branch4_pool_MaxPool( const float x[1][64][64][64], float y[1][64][64][64] )
{
	/* MaxPool
	 *
	 * auto_pad: NOTSET
	 * dilations: 1 1
	 * kernel_shape: 3 3
	 * pads: 1 1 1 1
	 * strides: 1 1
	 */
	for( uint32_t b=0; b<1; b++ ) {
	for( uint32_t m=0, c=0; m<64; m++, c=m) {
		for( int32_t o0=0, i0=-1; o0<64; o0++, i0+=1) {
		for( int32_t o1=0, i1=-1; o1<64; o1++, i1+=1) {
			float curmax = -FLT_MAX;
			for( int32_t k0=0; k0<3; k0++ ) {
			for( int32_t k1=0; k1<3; k1++ ) {
				int ii0 = i0+k0 * 1;
				int ii1 = i1+k1 * 1;
				if( ii0 >= 0 && ii0 < 64 && ii1 >= 0 && ii1 < 64 ) {
				if( curmax < x[b][c][ii0][ii1]) {
				curmax = x[b][c][ii0][ii1];
				}
				} /* if valid */
			} /* k */
			} /* k */
			y[b][m][o0][o1]= curmax;
		} /* o */
		} /* o */
	} /* m */
	} /* b */
}

/*
 * Operand:           Conv
 * Name in ONNX file: /branch4/conv/Conv
 */
FUNC_PREFIX void node__branch4_conv_Conv( const float x[1][64][64][64], const float w[32][64][1][1], const float bias[32], float y[1][32][64][64] )
{
	/* Conv
	 *
	 * auto_pad: NOTSET
	 * dilations: 1 1
	 * group: 1
	 * kernel_shape: 1 1
	 * pads: 0 0 0 0
	 * strides: 1 1
	 */
	for( uint32_t b=0; b<1; b++ ) {
	for( uint32_t m=0; m<32; m++) {
		for( int32_t o0=0, i0=0; o0<64; o0++, i0+=1) {
		for( int32_t o1=0, i1=0; o1<64; o1++, i1+=1) {
			y[b][m][o0][o1] = bias[m];
			for( int32_t c=0; c<64; c++ ) {
			for( int32_t k0=0; k0<1; k0++ ) {
			for( int32_t k1=0; k1<1; k1++ ) {
				int ii0 = i0+k0 * 1;
				int ii1 = i1+k1 * 1;
				if( ii0 >= 0 && ii0 < 64 && ii1 >= 0 && ii1 < 64 ) {
				y[b][m][o0][o1] += x[b][c][ii0][ii1] * w[m][c][k0][k1];
				} /* if valid */
			} /* k */
			} /* k */
			} /* c */
		} /* o */
		} /* o */
	} /* m */
	} /* b */
}

/*
 * Operand:           Relu
 * Name in ONNX file: /branch4/relu/Relu
 */
FUNC_PREFIX void node__branch4_relu_Relu( const float X[1][32][64][64], float Y[1][32][64][64] )
{
	/*Relu*/
	float *X_ptr = (float*)X;
	float *Y_ptr = (float*)Y;
	uint32_t i;
	for( i=0; i<131072; i++ )
		Y_ptr[i] = X_ptr[i] > 0 ? X_ptr[i] : 0;

}

/*
 * Operand:           Concat
 * Name in ONNX file: /Concat
 */
FUNC_PREFIX void node__Concat( const float input_0[1][32][64][64], const float input_1[1][64][64][64], const float input_2[1][32][64][64], const float input_3[1][32][64][64], float concat_result[1][160][64][64] )
{
	/* Concat */
	for (size_t i0 = 0; i0<1; i0++)
	for (size_t i1 = 0; i1<32; i1++)
	for (size_t i2 = 0; i2<64; i2++)
	for (size_t i3 = 0; i3<64; i3++)
	{
		concat_result[i0][0 + i1][i2][i3] = input_0[i0][i1][i2][i3];
	}
	for (size_t i0 = 0; i0<1; i0++)
	for (size_t i1 = 0; i1<64; i1++)
	for (size_t i2 = 0; i2<64; i2++)
	for (size_t i3 = 0; i3<64; i3++)
	{
		concat_result[i0][32 + i1][i2][i3] = input_1[i0][i1][i2][i3];
	}
	for (size_t i0 = 0; i0<1; i0++)
	for (size_t i1 = 0; i1<32; i1++)
	for (size_t i2 = 0; i2<64; i2++)
	for (size_t i3 = 0; i3<64; i3++)
	{
		concat_result[i0][96 + i1][i2][i3] = input_2[i0][i1][i2][i3];
	}
	for (size_t i0 = 0; i0<1; i0++)
	for (size_t i1 = 0; i1<32; i1++)
	for (size_t i2 = 0; i2<64; i2++)
	for (size_t i3 = 0; i3<64; i3++)
	{
		concat_result[i0][128 + i1][i2][i3] = input_3[i0][i1][i2][i3];
	}
}


void entry(const float tensor_input[1][3][64][64], float tensor_output[1][160][64][64]){
	node__stem_conv_Conv( tensor_input, tensor_stem_conv_weight, tensor_stem_conv_bias, tensor__stem_conv_Conv_output_0);
	node__stem_relu_Relu( tensor__stem_conv_Conv_output_0, tensor__stem_relu_Relu_output_0);
	node__branch1_conv_Conv( tensor__stem_relu_Relu_output_0, tensor_branch1_conv_weight, tensor_branch1_conv_bias, tensor__branch1_conv_Conv_output_0);
	node__branch1_relu_Relu( tensor__branch1_conv_Conv_output_0, tensor__branch1_relu_Relu_output_0);
	node__branch2_0_conv_Conv( tensor__stem_relu_Relu_output_0, tensor_branch2_0_conv_weight, tensor_branch2_0_conv_bias, tensor__branch2_0_conv_Conv_output_0);
	node__branch2_0_relu_Relu( tensor__branch2_0_conv_Conv_output_0, tensor__branch2_0_relu_Relu_output_0);
	node__branch2_1_conv_Conv( tensor__branch2_0_relu_Relu_output_0, tensor_branch2_1_conv_weight, tensor_branch2_1_conv_bias, tensor__branch2_1_conv_Conv_output_0);
	node__branch2_1_relu_Relu( tensor__branch2_1_conv_Conv_output_0, tensor__branch2_1_relu_Relu_output_0);
	node__branch3_0_conv_Conv( tensor__stem_relu_Relu_output_0, tensor_branch3_0_conv_weight, tensor_branch3_0_conv_bias, tensor__branch3_0_conv_Conv_output_0);
	node__branch3_0_relu_Relu( tensor__branch3_0_conv_Conv_output_0, tensor__branch3_0_relu_Relu_output_0);
	node__branch3_1_conv_Conv( tensor__branch3_0_relu_Relu_output_0, tensor_branch3_1_conv_weight, tensor_branch3_1_conv_bias, tensor__branch3_1_conv_Conv_output_0);
	node__branch3_1_relu_Relu( tensor__branch3_1_conv_Conv_output_0, tensor__branch3_1_relu_Relu_output_0);
	node__branch4_pool_MaxPool( tensor__stem_relu_Relu_output_0, tensor__branch4_pool_MaxPool_output_0);
	node__branch4_conv_Conv( tensor__branch4_pool_MaxPool_output_0, tensor_branch4_conv_weight, tensor_branch4_conv_bias, tensor__branch4_conv_Conv_output_0);
	node__branch4_relu_Relu( tensor__branch4_conv_Conv_output_0, tensor__branch4_relu_Relu_output_0);
	node__Concat( tensor__branch1_relu_Relu_output_0, tensor__branch2_1_relu_Relu_output_0, tensor__branch3_1_relu_Relu_output_0, tensor__branch4_relu_Relu_output_0, tensor_output);
}

/* ---- harness (not generated) ---- */

static float input[1][3][64][64];
static float output[1][160][64][64];

/* Fill n floats with deterministic values in [-0.5, 0.5): the input from the (i*7919)%1000
 * pattern, weights (times scale) from an LCG stream. */
static void fill_input(void *p, uint32_t n)
{
	float *f = p;
	for (uint32_t i = 0; i < n; i++)
		f[i] = (float)((i * 7919u) % 1000u) / 1000.0f - 0.5f;
}

static void fill(void *p, uint32_t n, uint32_t seed, float scale)
{
	float *f = p;
	uint32_t s = seed * 2654435761u + 1u;
	for (uint32_t i = 0; i < n; i++) {
		s = s * 1664525u + 1013904223u;
		f[i] = ((float)(s >> 8) / 16777216.0f - 0.5f) * scale;
	}
}

static double now(void)
{
	struct timespec ts;
	timespec_get(&ts, TIME_UTC);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(void)
{
	fill_input(input, sizeof(input) / sizeof(float));
	fill(tensor_stem_conv_weight, sizeof(tensor_stem_conv_weight) / sizeof(float), 1, 0.943f);
	fill(tensor_stem_conv_bias, sizeof(tensor_stem_conv_bias) / sizeof(float), 2, 0.1f);
	fill(tensor_branch1_conv_weight, sizeof(tensor_branch1_conv_weight) / sizeof(float), 3, 0.612f);
	fill(tensor_branch1_conv_bias, sizeof(tensor_branch1_conv_bias) / sizeof(float), 4, 0.1f);
	fill(tensor_branch2_0_conv_weight, sizeof(tensor_branch2_0_conv_weight) / sizeof(float), 5, 0.612f);
	fill(tensor_branch2_0_conv_bias, sizeof(tensor_branch2_0_conv_bias) / sizeof(float), 6, 0.1f);
	fill(tensor_branch2_1_conv_weight, sizeof(tensor_branch2_1_conv_weight) / sizeof(float), 7, 0.236f);
	fill(tensor_branch2_1_conv_bias, sizeof(tensor_branch2_1_conv_bias) / sizeof(float), 8, 0.1f);
	fill(tensor_branch3_0_conv_weight, sizeof(tensor_branch3_0_conv_weight) / sizeof(float), 9, 0.612f);
	fill(tensor_branch3_0_conv_bias, sizeof(tensor_branch3_0_conv_bias) / sizeof(float), 10, 0.1f);
	fill(tensor_branch3_1_conv_weight, sizeof(tensor_branch3_1_conv_weight) / sizeof(float), 11, 0.245f);
	fill(tensor_branch3_1_conv_bias, sizeof(tensor_branch3_1_conv_bias) / sizeof(float), 12, 0.1f);
	fill(tensor_branch4_conv_weight, sizeof(tensor_branch4_conv_weight) / sizeof(float), 13, 0.612f);
	fill(tensor_branch4_conv_bias, sizeof(tensor_branch4_conv_bias) / sizeof(float), 14, 0.1f);

	double t0 = now();
	entry(input, output);
	double t1 = now();

	/* Weighted by position so that misplaced values change the checksum. */
	const float *o = &output[0][0][0][0];
	double sum = 0.0;
	for (uint32_t i = 0; i < sizeof(output) / sizeof(float); i++)
		sum += (double)o[i] * (double)(i % 7 + 1);
	printf("checksum: %.9g\n", sum);
	printf("time_s: %.6f\n", t1 - t0);
	return 0;
}
