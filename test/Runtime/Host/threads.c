// A C kernel instrumented by the LLVM plugin (clang -O2 -fpass-plugin) and
// linked with the host runtime, run in three threads: exact counts from
// every thread, one record stream per thread, the same output as without
// probes, and the cap and drop figures that follow from the trip counts.
// RUN: clang -O2 -fpass-plugin=%lwp_llvm_plugin -mllvm -stats-level=70 -mllvm -max-loop-depth=1 -mllvm -lwp-function-filter=^kernel$ %s %lwp_host_lib -lpthread -o %t
// RUN: clang -O2 %s -lpthread -o %t.plain
// RUN: %t.plain 20 > %t.plain.out
// RUN: env LWP_OUTPUT=%t.dump %t 20 > %t.out
// RUN: diff %t.plain.out %t.out
// RUN: lwp-report --raw --no-records %t.dump | FileCheck %s
// RUN: env LWP_OUTPUT=%t.cap.dump LWP_CAP=5 %t 20 > /dev/null
// RUN: lwp-report --raw --no-records %t.cap.dump | FileCheck %s --check-prefix=CAP
// RUN: env LWP_OUTPUT= %t 20 > /dev/null
// REQUIRES: lwp-llvm-plugin

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static int Cols;

// Region 0: the function; 1: the row loop (depth 0); 2: the column loop
// (depth 1).
__attribute__((noinline)) long kernel(int Rows, int Seed) {
  long Sum = 0;
  for (int I = 0; I < Rows; ++I)
    for (int J = 0; J < Cols; ++J)
      Sum += (long)(I * 31 + J * 7 + Seed) % 13;
  return Sum;
}

struct Job {
  int Rows;
  long Result;
};

static void *worker(void *P) {
  struct Job *J = P;
  J->Result = kernel(J->Rows, J->Rows);
  return 0;
}

int main(int argc, char **argv) {
  Cols = argc > 1 ? atoi(argv[1]) : 1;
  struct Job Jobs[3] = {{10, 0}, {11, 0}, {12, 0}};
  pthread_t T[3];
  for (int I = 0; I != 3; ++I)
    pthread_create(&T[I], 0, worker, &Jobs[I]);
  for (int I = 0; I != 3; ++I)
    pthread_join(T[I], 0);
  printf("%ld %ld %ld\n", Jobs[0].Result, Jobs[1].Result, Jobs[2].Result);
  return 0;
}

// Three calls, three row loops, 10 + 11 + 12 = 33 column loops; each thread
// records 2 x (1 + 1 + rows) records.
// CHECK:      dropped 0,
// CHECK:      module 0: image 0, blob 0x{{[0-9a-f]+}}, IDs 1-3
// CHECK:      count 1: 3
// CHECK-NEXT: count 2: 3
// CHECK-NEXT: count 3: 33
// CHECK-DAG:  thread {{[0-9]}}: tid {{[0-9]+}}, 24 records
// CHECK-DAG:  thread {{[0-9]}}: tid {{[0-9]+}}, 26 records
// CHECK-DAG:  thread {{[0-9]}}: tid {{[0-9]+}}, 28 records

// With cap 5 per thread, the column loop keeps 5 starts and 5 ends a
// thread: (10-5 + 11-5 + 12-5) x 2 = 36 dropped; counts stay exact.
// CAP:      cap 5, dropped 36,
// CAP:      count 1: 3
// CAP-NEXT: count 2: 3
// CAP-NEXT: count 3: 33
// CAP-DAG:  thread {{[0-9]}}: tid {{[0-9]+}}, 14 records
// CAP-DAG:  thread {{[0-9]}}: tid {{[0-9]+}}, 14 records
// CAP-DAG:  thread {{[0-9]}}: tid {{[0-9]+}}, 14 records
