// A context whose streams are created in context.cu, and written elsewhere
// in adopt.cu (test/checkers/cross-tu-stream-members.cu).
#include <cuda_runtime.h>

struct Context {
  bool init();
  cudaStream_t stream_ = nullptr; // created non-blocking in context.cu
  cudaStream_t side_ = nullptr;   // created blocking in context.cu
  cudaStream_t mixed_ = nullptr;  // created there, given any stream in adopt.cu
};

// Its stream is created blocking in context.cu, and copied from a
// Context's non-blocking one in cross-tu-stream-members.cu.
struct Solver {
  void own();
  cudaStream_t stream_ = nullptr;
};
