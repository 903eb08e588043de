// A stand-in for hipFFT's <hipfft/hipfft.h>: the declarations the lit tests
// use, with the library's parameter names (hipFFT API reference).
#pragma once
#include <hip/hip_runtime.h>

typedef struct hipfftHandle_t *hipfftHandle;
typedef enum { HIPFFT_SUCCESS = 0 } hipfftResult;
typedef enum { HIPFFT_C2C = 0x29 } hipfftType;
typedef struct { float x, y; } hipfftComplex;
#define HIPFFT_FORWARD -1

hipfftResult hipfftCreate(hipfftHandle *plan);
hipfftResult hipfftPlan1d(hipfftHandle *plan, int nx, hipfftType type, int batch);
hipfftResult hipfftSetStream(hipfftHandle plan, hipStream_t stream);
hipfftResult hipfftExecC2C(hipfftHandle plan, hipfftComplex *idata, hipfftComplex *odata,
                           int direction);
hipfftResult hipfftDestroy(hipfftHandle plan);
