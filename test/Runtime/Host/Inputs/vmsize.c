/* Prints the process's address space (VmPeak, VmSize) after one region:
 * what the runtime reserves while a program runs (threads-bounded.test). */
#include <stdio.h>
#include <string.h>
volatile int S;
__attribute__((noinline)) void f(void) { for (int i = 0; i < 10; i++) S += i; }
int main(void) { f(); char L[256]; FILE *F = fopen("/proc/self/status", "r"); while (fgets(L, sizeof L, F)) if (!strncmp(L, "VmPeak", 6) || !strncmp(L, "VmSize", 6)) fputs(L, stdout); return 0; }
