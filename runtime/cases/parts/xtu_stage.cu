// The second unit of the two-unit cases (runtime/cases/xtu_*.cu): a helper
// that leaves its copy in flight and one that synchronizes the stream. Not
// a case of its own: agree.py builds it into the cases that name it in an
// `rt-parts:` line, and the check reads its functions through summaries
// exported from it (SummaryExportDirectory, then SummaryImportPaths).
#include "xtu_stage.h"

void xtu_fetch(float *h, const float *d, size_t bytes, cudaStream_t s) {
  cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s);
}

void xtu_wait(cudaStream_t s) { cudaStreamSynchronize(s); }
