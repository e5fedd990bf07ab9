/*===- dlopen_loader.c - Runs a benchmark from a dlopen'ed library --------===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * Benchmark helper (not a test): loads the shared object argv[1] with dlopen
 * and calls its `bench_main`, so that a probe benchmark built as a shared
 * object (with its own copy of the runtime, initial-exec TLS in a dlopen'ed
 * library) is measured as a plug-in would run. The executable itself has no
 * runtime and is not linked with -rdynamic.
 */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: dlopen_loader LIBRARY.so\n");
    return 2;
  }
  void *H = dlopen(argv[1], RTLD_NOW);
  if (!H) {
    fprintf(stderr, "dlopen_loader: %s\n", dlerror());
    return 1;
  }
  int (*Main)(void) = (int (*)(void))dlsym(H, "bench_main");
  if (!Main) {
    fprintf(stderr, "dlopen_loader: no bench_main in %s\n", argv[1]);
    return 1;
  }
  return Main();
}
