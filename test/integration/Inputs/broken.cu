// Does not compile: the gate must report it as not analysed (exit 2).
#include <cuda_runtime.h>
void broken(float *h) { undeclared_function(h); }
