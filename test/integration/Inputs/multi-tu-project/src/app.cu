#include "stage.h"
#include <cstdio>

float blockingCopy(const float *d, float *pinned, size_t n) {
  stage::copyToHost(pinned, d, n);
  return pinned[0];
}

float raceAfterFetch(const float *d, float *pinned, size_t n, cudaStream_t s) {
  stage::fetchAsync(pinned, d, n, s);
  return pinned[0];
}

float fetchThenWait(const float *d, float *pinned, size_t n, cudaStream_t s) {
  stage::fetchAsync(pinned, d, n, s);
  stage::waitFor(s);
  return pinned[0];
}

float stagedAndFinished(const float *d, size_t n) {
  stage::Staging st;
  st.begin(d, n);
  st.finish();
  return st.host_[0];
}

float stagedNotFinished(const float *d, size_t n) {
  stage::Staging st;
  st.begin(d, n);
  return st.host_[0];
}
