/* The part of TVM's c_runtime_api.h that AOT output includes (a stand-in). */
#ifndef TVM_RUNTIME_C_RUNTIME_API_H_
#define TVM_RUNTIME_C_RUNTIME_API_H_
#include <stddef.h>
#include <stdint.h>
#define TVM_DLL
#endif
