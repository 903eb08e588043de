// Input of gate-summary.test: includes bad.cuh, which does not compile.
#include "bad.cuh"
void one() {}
