// Summaries across translation units of operators and conversion
// functions: view.cu's `DeviceMatrix::operator HostMatrix()` and
// `operator[]` leave a copy in flight into the matrix they return, like its
// named `rows()` and the free function `download(dm)`, which copies on a
// member of its parameter (exported as {"root": "param"}). A call of them has no identifier for the check's trigger
// to match by name; it is matched by kind, and applied by USR as any other
// imported summary (votca/xtp's `Eigen::MatrixXd m = cuda_matrix;`).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang_tidy_cars %S/Inputs/cross-tu-operators/view.cu \
// RUN:   -config="{CheckOptions: {cuda-async-read-before-sync.SummaryExportDirectory: '%t/s'}}" \
// RUN:   -- %cuda_mock_flags -std=c++17 -I%S/Inputs/cross-tu-operators
// RUN: %clang_tidy_cars %s \
// RUN:   -config="{CheckOptions: {cuda-async-read-before-sync.SummaryImportPaths: '%t/s'}}" \
// RUN:   -- %cuda_mock_flags -std=c++17 -I%S/Inputs/cross-tu-operators \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

#include "view.h"

float converted(const DeviceMatrix &dm) {
  HostMatrix m = dm;
  return m.data()[0];
  // CHECK: :[[@LINE-1]]:10: warning: 'm' is read before the asynchronous device-to-host copy into it is known to be complete
  // CHECK: :[[@LINE-3]]:18: note: the copy is issued in another translation unit, at {{.*}}view.cu:6:3
}

float indexed(const DeviceMatrix &dm) {
  HostMatrix m = dm[2];
  return m.data()[0];
  // CHECK: :[[@LINE-1]]:10: warning: 'm' is read before the asynchronous device-to-host copy into it is known to be complete
}

float named(const DeviceMatrix &dm) {
  HostMatrix m = dm.rows(2);
  return m.data()[0];
  // CHECK: :[[@LINE-1]]:10: warning: 'm' is read before the asynchronous device-to-host copy into it is known to be complete
}

// A free function's copy on a member of its parameter (`dm.s`): the
// argument's member here, which the fixed form synchronizes.
float downloaded(const DeviceMatrix &dm) {
  HostMatrix m = download(dm);
  return m.data()[0];
  // CHECK: :[[@LINE-1]]:10: warning: 'm' is read before the asynchronous device-to-host copy into it is known to be complete
  // CHECK: :[[@LINE-3]]:18: note: this call leaves an asynchronous device-to-host copy into 'm' in flight on stream 'dm.s'
}
float downloadedSynced(const DeviceMatrix &dm) {
  HostMatrix m = download(dm);
  cudaStreamSynchronize(dm.s);
  return m.data()[0];
}

// Fixed: the stream is synchronized before the read.
float convertedSynced(const DeviceMatrix &dm) {
  HostMatrix m = dm;
  cudaStreamSynchronize(dm.s);
  return m.data()[0];
}
