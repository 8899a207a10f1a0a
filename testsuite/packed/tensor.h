/* The argument values and tensors of the packed operators (after TVM's TVMValue and DLTensor). */
#ifndef PACKED_TENSOR_H
#define PACKED_TENSOR_H
#include <stdint.h>

typedef struct Tensor {
	void *data;
	int64_t *shape;
} Tensor;

typedef union Value {
	void *v_handle;
	int64_t v_int64;
} Value;

#endif
