// What nvcc's host compilation gives and clang's CUDA mode does not, for
// every CUDA entry of a translated compile database (tools/cars_compdb.py
// hands it to clang with -include, after clang's own CUDA runtime wrapper;
// scripts/real-code.py does the same for its own runs):
// - __CUDACC__ as 1 (NVCC manual, "NVCC Predefined Macros"): clang's wrapper
//   leaves it defined empty, and CUDA 13's NCCL device headers test
//   `#if __CUDACC__` ("expected value in expression");
// - the __host__ overloads of min() and max() for integers and floating
//   point, which host code calls unqualified (nvcc: crt/math_functions.hpp
//   declares them __host__ __device__; clang's wrappers __device__ only).
//   Each returns the smaller (larger) of its two arguments, converted to
//   the result type.
#pragma once
#if defined(__CUDA__)
#undef __CUDACC__
#define __CUDACC__ 1
#endif
#if defined(__cplusplus) && defined(__CUDA__)
static inline __host__ int min(const int a, const int b) { return (int)a < (int)b ? (int)a : (int)b; }
static inline __host__ unsigned int min(const unsigned int a, const unsigned int b) { return (unsigned int)a < (unsigned int)b ? (unsigned int)a : (unsigned int)b; }
static inline __host__ unsigned int min(const int a, const unsigned int b) { return (unsigned int)a < (unsigned int)b ? (unsigned int)a : (unsigned int)b; }
static inline __host__ unsigned int min(const unsigned int a, const int b) { return (unsigned int)a < (unsigned int)b ? (unsigned int)a : (unsigned int)b; }
static inline __host__ long int min(const long int a, const long int b) { return (long int)a < (long int)b ? (long int)a : (long int)b; }
static inline __host__ unsigned long int min(const unsigned long int a, const unsigned long int b) { return (unsigned long int)a < (unsigned long int)b ? (unsigned long int)a : (unsigned long int)b; }
static inline __host__ unsigned long int min(const long int a, const unsigned long int b) { return (unsigned long int)a < (unsigned long int)b ? (unsigned long int)a : (unsigned long int)b; }
static inline __host__ unsigned long int min(const unsigned long int a, const long int b) { return (unsigned long int)a < (unsigned long int)b ? (unsigned long int)a : (unsigned long int)b; }
static inline __host__ long long int min(const long long int a, const long long int b) { return (long long int)a < (long long int)b ? (long long int)a : (long long int)b; }
static inline __host__ unsigned long long int min(const unsigned long long int a, const unsigned long long int b) { return (unsigned long long int)a < (unsigned long long int)b ? (unsigned long long int)a : (unsigned long long int)b; }
static inline __host__ unsigned long long int min(const long long int a, const unsigned long long int b) { return (unsigned long long int)a < (unsigned long long int)b ? (unsigned long long int)a : (unsigned long long int)b; }
static inline __host__ unsigned long long int min(const unsigned long long int a, const long long int b) { return (unsigned long long int)a < (unsigned long long int)b ? (unsigned long long int)a : (unsigned long long int)b; }
static inline __host__ float min(const float a, const float b) { return (float)a < (float)b ? (float)a : (float)b; }
static inline __host__ double min(const double a, const double b) { return (double)a < (double)b ? (double)a : (double)b; }
static inline __host__ double min(const float a, const double b) { return (double)a < (double)b ? (double)a : (double)b; }
static inline __host__ double min(const double a, const float b) { return (double)a < (double)b ? (double)a : (double)b; }
static inline __host__ int max(const int a, const int b) { return (int)a > (int)b ? (int)a : (int)b; }
static inline __host__ unsigned int max(const unsigned int a, const unsigned int b) { return (unsigned int)a > (unsigned int)b ? (unsigned int)a : (unsigned int)b; }
static inline __host__ unsigned int max(const int a, const unsigned int b) { return (unsigned int)a > (unsigned int)b ? (unsigned int)a : (unsigned int)b; }
static inline __host__ unsigned int max(const unsigned int a, const int b) { return (unsigned int)a > (unsigned int)b ? (unsigned int)a : (unsigned int)b; }
static inline __host__ long int max(const long int a, const long int b) { return (long int)a > (long int)b ? (long int)a : (long int)b; }
static inline __host__ unsigned long int max(const unsigned long int a, const unsigned long int b) { return (unsigned long int)a > (unsigned long int)b ? (unsigned long int)a : (unsigned long int)b; }
static inline __host__ unsigned long int max(const long int a, const unsigned long int b) { return (unsigned long int)a > (unsigned long int)b ? (unsigned long int)a : (unsigned long int)b; }
static inline __host__ unsigned long int max(const unsigned long int a, const long int b) { return (unsigned long int)a > (unsigned long int)b ? (unsigned long int)a : (unsigned long int)b; }
static inline __host__ long long int max(const long long int a, const long long int b) { return (long long int)a > (long long int)b ? (long long int)a : (long long int)b; }
static inline __host__ unsigned long long int max(const unsigned long long int a, const unsigned long long int b) { return (unsigned long long int)a > (unsigned long long int)b ? (unsigned long long int)a : (unsigned long long int)b; }
static inline __host__ unsigned long long int max(const long long int a, const unsigned long long int b) { return (unsigned long long int)a > (unsigned long long int)b ? (unsigned long long int)a : (unsigned long long int)b; }
static inline __host__ unsigned long long int max(const unsigned long long int a, const long long int b) { return (unsigned long long int)a > (unsigned long long int)b ? (unsigned long long int)a : (unsigned long long int)b; }
static inline __host__ float max(const float a, const float b) { return (float)a > (float)b ? (float)a : (float)b; }
static inline __host__ double max(const double a, const double b) { return (double)a > (double)b ? (double)a : (double)b; }
static inline __host__ double max(const float a, const double b) { return (double)a > (double)b ? (double)a : (double)b; }
static inline __host__ double max(const double a, const float b) { return (double)a > (double)b ? (double)a : (double)b; }
#endif
