// Without debug info the regions get no source location: the plugin says so
// once per module; with line tables it says nothing.
// RUN: clang -O1 -fpass-plugin=%lwp_llvm_plugin -mllvm -stats-level=70 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: clang -O1 -gline-tables-only -fpass-plugin=%lwp_llvm_plugin -mllvm -stats-level=70 -c %s -o /dev/null 2>&1 | count 0
// RUN: clang -O1 -fpass-plugin=%lwp_llvm_plugin -mllvm -stats-level=39 -c %s -o /dev/null 2>&1 | count 0
// CHECK:     warning: lwp-instrument: module '{{.*}}no-debug-info.c' has no debug info: its regions get no source location (compile with -gline-tables-only)
// CHECK-NEXT: 1 warning generated.

int f(int N) {
  int S = 0;
  for (int I = 0; I < N; ++I)
    S += I * I;
  return S;
}

int g(int N) { return f(N) + 1; }
