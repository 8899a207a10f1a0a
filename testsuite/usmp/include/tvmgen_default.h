#ifndef TVMGEN_DEFAULT_H_
#define TVMGEN_DEFAULT_H_
#include <stdint.h>

/* Input tensor pointers for TVM module "default" */
struct tvmgen_default_inputs {
  int8_t* input;
};

/* Output tensor pointers for TVM module "default" */
struct tvmgen_default_outputs {
  float* output;
};

int32_t tvmgen_default_run(struct tvmgen_default_inputs* inputs,
                           struct tvmgen_default_outputs* outputs);
#endif
