/*
 * Harness of net.c with a workspace allocator that is deliberately not
 * thread-safe, like TVM's: a stack in a fixed pool.  It aborts when a free
 * does not give back the last allocation, when two threads are inside it
 * at once, and (stricter than TVM needs, but independent of timing) when a
 * thread other than the first caller enters it: mtpar must keep every
 * allocation on the thread that runs the code around its parallel region.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int32_t run_model(void* input, void* output);
extern float in[64 * 64], w1[9], w2[9], w3[9], o2[64 * 64], o3[64 * 64], o4[64];

static unsigned char pool[1 << 20] __attribute__((aligned(64)));
static size_t top, stack[64];
static int live;
static volatile int inside;
static pthread_t owner;
static int owned;

static void enter(void) {
  if (!owned) {
    owner = pthread_self();
    owned = 1;
  }
  if (!pthread_equal(owner, pthread_self())) {
    fprintf(stderr, "allocator entered by a second thread\n");
    abort();
  }
  if (inside) {
    fprintf(stderr, "allocator entered by two threads\n");
    abort();
  }
  inside = 1;
  for (volatile int i = 0; i < 20000; i++)
    ;
}

void* TVMBackendAllocWorkspace(int device_type, int device_id, uint64_t nbytes,
                               int dtype_code_hint, int dtype_bits_hint) {
  void* p = NULL;
  size_t n = ((size_t)nbytes + 63) & ~(size_t)63;
  (void)device_type; (void)device_id; (void)dtype_code_hint; (void)dtype_bits_hint;
  enter();
  if (top + n <= sizeof(pool) && live < 64) {
    stack[live++] = top;
    p = pool + top;
    top += n;
  }
  inside = 0;
  return p;
}

int TVMBackendFreeWorkspace(int device_type, int device_id, void* ptr) {
  (void)device_type; (void)device_id;
  enter();
  if (live == 0 || (unsigned char*)ptr != pool + stack[live - 1]) {
    fprintf(stderr, "free out of stack order\n");
    abort();
  }
  top = stack[--live];
  inside = 0;
  return 0;
}

int main(void) {
  static float out[64 * 64];
  double sum = 0;
  for (int i = 0; i < 64 * 64; i++) in[i] = (float)((i * 37) % 101) / 50.0f - 1.0f;
  for (int i = 0; i < 9; i++) {
    w1[i] = 0.1f * (float)(i - 4);
    w2[i] = 0.05f * (float)(i % 3);
    w3[i] = -0.07f * (float)i + 0.2f;
  }
  for (int rep = 0; rep < 3; rep++) {
    if (run_model(in, out) != 0) return 1;
    for (int i = 0; i < 64 * 64; i++) sum += out[i] * (i % 7) + o2[i] * (i % 5) + o3[i] * (i % 3);
    for (int i = 0; i < 64; i++) sum += o4[i];
  }
  printf("checksum %.9g, workspace live at exit %d\n", sum, live);
  return 0;
}
