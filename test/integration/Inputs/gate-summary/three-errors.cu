// Input of gate-summary.test: one translation unit with three compile
// errors (one unit not analysed, not three).
#include <cuda_runtime.h>
void a(float *h) { undeclared_one(h); }
void b(float *h) { undeclared_two(h); }
void c(float *h) { undeclared_three(h); }
