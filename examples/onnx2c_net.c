// Example network in the style of onnx2c (ea045cc, `onnx2c -e`): FUNC_PREFIX node functions
// over fixed-size array parameters, intermediate tensors as members of global unions, and
// entry() as a straight line of node calls. Written by hand, not by onnx2c; the weights are
// non-const globals filled by main() instead of large initializers.
//
// Parallelism: a plain chain (conv, relu, pool, ..., gemm), so none between nodes, and
// consecutive nodes reuse each other's storage through the unions (tu0.a is dead when tu0.b is
// written). Inside each node the output-channel loop m (and the o0 loop) is DOALL; the
// c/k0/k1 loops accumulate into one output element.
#include <float.h>
#include <math.h>
#include <stdbool.h>
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

float tensor_conv1_weight[32][3][3][3];
float tensor_conv1_bias[32];
float tensor_conv2_weight[32][32][3][3];
float tensor_conv2_bias[32];
float tensor_conv3_weight[64][32][3][3];
float tensor_conv3_bias[64];
float tensor_conv4_weight[64][64][3][3];
float tensor_conv4_bias[64];
float tensor_conv5_weight[128][64][3][3];
float tensor_conv5_bias[128];
float tensor_fc_weight[10][128];
float tensor_fc_bias[10];

union tensor_union_0 {
float tensor__conv1_Conv_output_0[1][32][96][96];
float tensor__conv2_Conv_output_0[1][32][96][96];
float tensor__pool1_MaxPool_output_0[1][32][48][48];
float tensor__relu3_Relu_output_0[1][64][48][48];
float tensor__relu4_Relu_output_0[1][64][48][48];
float tensor__conv5_Conv_output_0[1][128][24][24];
float tensor__gap_GlobalAveragePool_output_0[1][128][1][1];
};
static union tensor_union_0 tu0;

union tensor_union_1 {
float tensor__relu1_Relu_output_0[1][32][96][96];
float tensor__relu2_Relu_output_0[1][32][96][96];
float tensor__conv3_Conv_output_0[1][64][48][48];
float tensor__conv4_Conv_output_0[1][64][48][48];
float tensor__pool2_MaxPool_output_0[1][64][24][24];
float tensor__relu5_Relu_output_0[1][128][24][24];
float tensor__Flatten_output_0[1][128];
};
static union tensor_union_1 tu1;


/*
 * Operand:           Conv
 * Name in ONNX file: /conv1/Conv
 */
FUNC_PREFIX void node__conv1_Conv( const float x[1][3][96][96], const float w[32][3][3][3], const float bias[32], float y[1][32][96][96] )
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
	for( uint32_t m=0; m<32; m++) {
		for( int32_t o0=0, i0=-1; o0<96; o0++, i0+=1) {
		for( int32_t o1=0, i1=-1; o1<96; o1++, i1+=1) {
			y[b][m][o0][o1] = bias[m];
			for( int32_t c=0; c<3; c++ ) {
			for( int32_t k0=0; k0<3; k0++ ) {
			for( int32_t k1=0; k1<3; k1++ ) {
				int ii0 = i0+k0 * 1;
				int ii1 = i1+k1 * 1;
				if( ii0 >= 0 && ii0 < 96 && ii1 >= 0 && ii1 < 96 ) {
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
 * Name in ONNX file: /relu1/Relu
 */
FUNC_PREFIX void node__relu1_Relu( const float X[1][32][96][96], float Y[1][32][96][96] )
{
	/*Relu*/
	float *X_ptr = (float*)X;
	float *Y_ptr = (float*)Y;
	uint32_t i;
	for( i=0; i<294912; i++ )
		Y_ptr[i] = X_ptr[i] > 0 ? X_ptr[i] : 0;

}

/*
 * Operand:           Conv
 * Name in ONNX file: /conv2/Conv
 */
FUNC_PREFIX void node__conv2_Conv( const float x[1][32][96][96], const float w[32][32][3][3], const float bias[32], float y[1][32][96][96] )
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
	for( uint32_t m=0; m<32; m++) {
		for( int32_t o0=0, i0=-1; o0<96; o0++, i0+=1) {
		for( int32_t o1=0, i1=-1; o1<96; o1++, i1+=1) {
			y[b][m][o0][o1] = bias[m];
			for( int32_t c=0; c<32; c++ ) {
			for( int32_t k0=0; k0<3; k0++ ) {
			for( int32_t k1=0; k1<3; k1++ ) {
				int ii0 = i0+k0 * 1;
				int ii1 = i1+k1 * 1;
				if( ii0 >= 0 && ii0 < 96 && ii1 >= 0 && ii1 < 96 ) {
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
 * Name in ONNX file: /relu2/Relu
 */
FUNC_PREFIX void node__relu2_Relu( const float X[1][32][96][96], float Y[1][32][96][96] )
{
	/*Relu*/
	float *X_ptr = (float*)X;
	float *Y_ptr = (float*)Y;
	uint32_t i;
	for( i=0; i<294912; i++ )
		Y_ptr[i] = X_ptr[i] > 0 ? X_ptr[i] : 0;

}

/*
 * Operand:           MaxPool
 * Name in ONNX file: /pool1/MaxPool
 */
FUNC_PREFIX void node__pool1_MaxPool( const float x[1][32][96][96], float y[1][32][48][48] )
{
	/* MaxPool
	 *
	 * auto_pad: NOTSET
	 * dilations: 1 1
	 * kernel_shape: 2 2
	 * pads: 0 0 0 0
	 * strides: 2 2
	 */
	for( uint32_t b=0; b<1; b++ ) {
	for( uint32_t m=0, c=0; m<32; m++, c=m) {
		for( int32_t o0=0, i0=0; o0<48; o0++, i0+=2) {
		for( int32_t o1=0, i1=0; o1<48; o1++, i1+=2) {
			float curmax = -FLT_MAX;
			for( int32_t k0=0; k0<2; k0++ ) {
			for( int32_t k1=0; k1<2; k1++ ) {
				int ii0 = i0+k0 * 1;
				int ii1 = i1+k1 * 1;
				curmax = MAX( curmax, x[b][c][ii0][ii1] );
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
 * Name in ONNX file: /conv3/Conv
 */
FUNC_PREFIX void node__conv3_Conv( const float x[1][32][48][48], const float w[64][32][3][3], const float bias[64], float y[1][64][48][48] )
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
		for( int32_t o0=0, i0=-1; o0<48; o0++, i0+=1) {
		for( int32_t o1=0, i1=-1; o1<48; o1++, i1+=1) {
			y[b][m][o0][o1] = bias[m];
			for( int32_t c=0; c<32; c++ ) {
			for( int32_t k0=0; k0<3; k0++ ) {
			for( int32_t k1=0; k1<3; k1++ ) {
				int ii0 = i0+k0 * 1;
				int ii1 = i1+k1 * 1;
				if( ii0 >= 0 && ii0 < 48 && ii1 >= 0 && ii1 < 48 ) {
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
 * Name in ONNX file: /relu3/Relu
 */
FUNC_PREFIX void node__relu3_Relu( const float X[1][64][48][48], float Y[1][64][48][48] )
{
	/*Relu*/
	float *X_ptr = (float*)X;
	float *Y_ptr = (float*)Y;
	uint32_t i;
	for( i=0; i<147456; i++ )
		Y_ptr[i] = X_ptr[i] > 0 ? X_ptr[i] : 0;

}

/*
 * Operand:           Conv
 * Name in ONNX file: /conv4/Conv
 */
FUNC_PREFIX void node__conv4_Conv( const float x[1][64][48][48], const float w[64][64][3][3], const float bias[64], float y[1][64][48][48] )
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
		for( int32_t o0=0, i0=-1; o0<48; o0++, i0+=1) {
		for( int32_t o1=0, i1=-1; o1<48; o1++, i1+=1) {
			y[b][m][o0][o1] = bias[m];
			for( int32_t c=0; c<64; c++ ) {
			for( int32_t k0=0; k0<3; k0++ ) {
			for( int32_t k1=0; k1<3; k1++ ) {
				int ii0 = i0+k0 * 1;
				int ii1 = i1+k1 * 1;
				if( ii0 >= 0 && ii0 < 48 && ii1 >= 0 && ii1 < 48 ) {
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
 * Name in ONNX file: /relu4/Relu
 */
FUNC_PREFIX void node__relu4_Relu( const float X[1][64][48][48], float Y[1][64][48][48] )
{
	/*Relu*/
	float *X_ptr = (float*)X;
	float *Y_ptr = (float*)Y;
	uint32_t i;
	for( i=0; i<147456; i++ )
		Y_ptr[i] = X_ptr[i] > 0 ? X_ptr[i] : 0;

}

/*
 * Operand:           MaxPool
 * Name in ONNX file: /pool2/MaxPool
 */
FUNC_PREFIX void node__pool2_MaxPool( const float x[1][64][48][48], float y[1][64][24][24] )
{
	/* MaxPool
	 *
	 * auto_pad: NOTSET
	 * dilations: 1 1
	 * kernel_shape: 2 2
	 * pads: 0 0 0 0
	 * strides: 2 2
	 */
	for( uint32_t b=0; b<1; b++ ) {
	for( uint32_t m=0, c=0; m<64; m++, c=m) {
		for( int32_t o0=0, i0=0; o0<24; o0++, i0+=2) {
		for( int32_t o1=0, i1=0; o1<24; o1++, i1+=2) {
			float curmax = -FLT_MAX;
			for( int32_t k0=0; k0<2; k0++ ) {
			for( int32_t k1=0; k1<2; k1++ ) {
				int ii0 = i0+k0 * 1;
				int ii1 = i1+k1 * 1;
				curmax = MAX( curmax, x[b][c][ii0][ii1] );
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
 * Name in ONNX file: /conv5/Conv
 */
FUNC_PREFIX void node__conv5_Conv( const float x[1][64][24][24], const float w[128][64][3][3], const float bias[128], float y[1][128][24][24] )
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
	for( uint32_t m=0; m<128; m++) {
		for( int32_t o0=0, i0=-1; o0<24; o0++, i0+=1) {
		for( int32_t o1=0, i1=-1; o1<24; o1++, i1+=1) {
			y[b][m][o0][o1] = bias[m];
			for( int32_t c=0; c<64; c++ ) {
			for( int32_t k0=0; k0<3; k0++ ) {
			for( int32_t k1=0; k1<3; k1++ ) {
				int ii0 = i0+k0 * 1;
				int ii1 = i1+k1 * 1;
				if( ii0 >= 0 && ii0 < 24 && ii1 >= 0 && ii1 < 24 ) {
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
 * Name in ONNX file: /relu5/Relu
 */
FUNC_PREFIX void node__relu5_Relu( const float X[1][128][24][24], float Y[1][128][24][24] )
{
	/*Relu*/
	float *X_ptr = (float*)X;
	float *Y_ptr = (float*)Y;
	uint32_t i;
	for( i=0; i<73728; i++ )
		Y_ptr[i] = X_ptr[i] > 0 ? X_ptr[i] : 0;

}

/*
 * Operand:           GlobalAveragePool
 * Name in ONNX file: /gap/GlobalAveragePool
 */
FUNC_PREFIX void node__gap_GlobalAveragePool( const float input[1][128][24][24], float output[1][128][1][1] )
{
	/* GlobalAveragePool */
	for( int32_t b=0; b<1; b++ ) {
	for( int32_t c=0; c<128; c++ ) {
		float dimsum=0.0f;
		for( int32_t d0 = 0; d0<24; d0++ ) {
		for( int32_t d1 = 0; d1<24; d1++ ) {
			dimsum +=  input[b][c][d0][d1];
		}
		}
		output[b][c][0][0] = dimsum / 576;
	}
	}
}

/*
 * Operand:           Flatten
 * Name in ONNX file: /Flatten
 */
FUNC_PREFIX void node__Flatten( const float input[1][128][1][1], float output[1][128] )
{
	/* Flatten*/
	float *input_ = (float*)input;
	float *output_ = (float*)output;
	for( uint32_t i=0; i<128; i++ )
		output_[i] = input_[i];

}

/*
 * Operand:           Gemm
 * Name in ONNX file: /fc/Gemm
 */
FUNC_PREFIX void node__fc_Gemm( const float A[1][128], const float B[10][128], const float C[10], float Y[1][10] )
{
	/* Gemm
	 *
	 * alpha: 1  beta: 1
	 * transA: 0  transB: 1
	 */
	for( uint32_t r=0; r<1; r++ ) {
	for( uint32_t n=0; n<10; n++ ) {
		float acc = C[n];
		for( uint32_t k=0; k<128; k++ )
			acc += A[r][k] * B[n][k];
		Y[r][n] = acc;
	} /* n */
	} /* r */
}


void entry(const float tensor_input[1][3][96][96], float tensor_output[1][10]){
	node__conv1_Conv( tensor_input, tensor_conv1_weight, tensor_conv1_bias, tu0.tensor__conv1_Conv_output_0);
	node__relu1_Relu( tu0.tensor__conv1_Conv_output_0, tu1.tensor__relu1_Relu_output_0);
	node__conv2_Conv( tu1.tensor__relu1_Relu_output_0, tensor_conv2_weight, tensor_conv2_bias, tu0.tensor__conv2_Conv_output_0);
	node__relu2_Relu( tu0.tensor__conv2_Conv_output_0, tu1.tensor__relu2_Relu_output_0);
	node__pool1_MaxPool( tu1.tensor__relu2_Relu_output_0, tu0.tensor__pool1_MaxPool_output_0);
	node__conv3_Conv( tu0.tensor__pool1_MaxPool_output_0, tensor_conv3_weight, tensor_conv3_bias, tu1.tensor__conv3_Conv_output_0);
	node__relu3_Relu( tu1.tensor__conv3_Conv_output_0, tu0.tensor__relu3_Relu_output_0);
	node__conv4_Conv( tu0.tensor__relu3_Relu_output_0, tensor_conv4_weight, tensor_conv4_bias, tu1.tensor__conv4_Conv_output_0);
	node__relu4_Relu( tu1.tensor__conv4_Conv_output_0, tu0.tensor__relu4_Relu_output_0);
	node__pool2_MaxPool( tu0.tensor__relu4_Relu_output_0, tu1.tensor__pool2_MaxPool_output_0);
	node__conv5_Conv( tu1.tensor__pool2_MaxPool_output_0, tensor_conv5_weight, tensor_conv5_bias, tu0.tensor__conv5_Conv_output_0);
	node__relu5_Relu( tu0.tensor__conv5_Conv_output_0, tu1.tensor__relu5_Relu_output_0);
	node__gap_GlobalAveragePool( tu1.tensor__relu5_Relu_output_0, tu0.tensor__gap_GlobalAveragePool_output_0);
	node__Flatten( tu0.tensor__gap_GlobalAveragePool_output_0, tu1.tensor__Flatten_output_0);
	node__fc_Gemm( tu1.tensor__Flatten_output_0, tensor_fc_weight, tensor_fc_bias, tensor_output);
}

/* ---- harness (not generated) ---- */

static float input[1][3][96][96];
static float output[1][10];

/* Fill n floats with deterministic values in [-0.5, 0.5) times scale: the input from the
 * (i*7919)%1000 pattern, weights from an LCG stream (the pattern would correlate with the
 * input and kill whole layers after ReLU). */
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
	fill(tensor_conv1_weight, sizeof(tensor_conv1_weight) / sizeof(float), 1, 0.9f);
	fill(tensor_conv1_bias, 32, 2, 0.1f);
	fill(tensor_conv2_weight, sizeof(tensor_conv2_weight) / sizeof(float), 3, 0.3f);
	fill(tensor_conv2_bias, 32, 4, 0.1f);
	fill(tensor_conv3_weight, sizeof(tensor_conv3_weight) / sizeof(float), 5, 0.3f);
	fill(tensor_conv3_bias, 64, 6, 0.1f);
	fill(tensor_conv4_weight, sizeof(tensor_conv4_weight) / sizeof(float), 7, 0.2f);
	fill(tensor_conv4_bias, 64, 8, 0.1f);
	fill(tensor_conv5_weight, sizeof(tensor_conv5_weight) / sizeof(float), 9, 0.2f);
	fill(tensor_conv5_bias, 128, 10, 0.1f);
	fill(tensor_fc_weight, sizeof(tensor_fc_weight) / sizeof(float), 11, 0.6f);
	fill(tensor_fc_bias, 10, 12, 0.1f);

	double t0 = now();
	entry(input, output);
	double t1 = now();

	/* Weighted so that a permutation of the outputs changes the checksum. */
	double sum = 0.0;
	for (int i = 0; i < 10; i++)
		sum += (double)output[0][i] * (double)(i + 1);
	printf("checksum: %.9g\n", sum);
	printf("time_s: %.6f\n", t1 - t0);
	return 0;
}
