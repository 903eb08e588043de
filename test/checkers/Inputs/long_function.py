#!/usr/bin/env python3
"""Writes a long generated CUDA function to stdout, for budget.cu.

  long_function.py cuda-check N   N groups of copy / sync / read, each call
                                  in an error-checking macro (a local error
                                  variable and a no-return handler); the
                                  last group reads before its sync (a race)
  long_function.py wide N         N distinct buffers copied into on one
                                  stream and left in flight, then N
                                  branches reading another buffer: more
                                  work than the check's budget allows
  long_function.py heavy-helper N the wide function as a helper, called
                                  after a race by caller()
  long_function.py else-if N      an else-if chain of N branches on one
                                  variable, a copy in each; the read after
                                  it races

Each is followed by small() with one race, which the check always analyses.
"""
import sys

HEADER = ("#include <cuda_runtime.h>\n"
          "void consume(float);\n"
          "[[noreturn]] void fatal(cudaError_t e, const char *file, int line);\n"
          "#define CUDA_CHECK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) "
          "fatal(err_, __FILE__, __LINE__); } while (0)\n")
SMALL = ("void small(float *h, const float *d, cudaStream_t s) {\n"
         "  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);\n"
         "  consume(h[0]); // RACE-SMALL\n}\n")


def cuda_check(n):
    body = ""
    for i in range(n):
        body += "  CUDA_CHECK(cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s));\n"
        if i == n - 1:
            body += "  consume(h[0]); // RACE-LAST\n"
        body += "  CUDA_CHECK(cudaStreamSynchronize(s));\n  consume(h[1]);\n"
    return "void f(float *h, const float *d, cudaStream_t s) {\n" + body + "}\n"


def wide(n):
    params = "".join("float *h%d, " % i for i in range(n))
    body = "".join("  cudaMemcpyAsync(h%d, d, 64, cudaMemcpyDeviceToHost, s);\n" % i
                   for i in range(n))
    body += "".join("  if (c%d) consume(x[%d]);\n" % (i % 8, i % 64) for i in range(n * 8))
    body += "  consume(h0[0]);\n"
    conds = ", ".join("bool c%d" % i for i in range(8))
    return ("void f(%sconst float *d, const float *x, cudaStream_t s, %s) {\n"
            % (params, conds) + body + "}\n")


def heavy_helper(n):
    return wide(n).replace("void f(", "void heavy(", 1) + (
        "void caller(float *h, float *g, const float *d, const float *x,\n"
        "            cudaStream_t s) {\n"
        "  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);\n"
        "  consume(h[0]); // RACE-CALLER\n"
        "  heavy(%sd, x, s, %s);\n"
        "  consume(h[1]); // after the helper: taken as synchronized\n}\n"
        % ("g, " * n, ", ".join(["true"] * 8)))


def else_if(n):
    body = "  if (k == 0)\n    cudaMemcpyAsync(h, d, 4, cudaMemcpyDeviceToHost, s);\n"
    body += "".join("  else if (k == %d)\n    cudaMemcpyAsync(h + %d, d, 4, "
                    "cudaMemcpyDeviceToHost, s);\n" % (i, i % 64) for i in range(1, n))
    body += "  consume(h[0]); // RACE-CHAIN\n  cudaStreamSynchronize(s);\n  consume(h[1]);\n"
    return "void f(float *h, const float *d, cudaStream_t s, int k) {\n" + body + "}\n"


def main():
    shape, n = sys.argv[1], int(sys.argv[2])
    sys.stdout.write(HEADER + {"cuda-check": cuda_check, "wide": wide,
                      "heavy-helper": heavy_helper, "else-if": else_if}[shape](n) + SMALL)


if __name__ == "__main__":
    main()
