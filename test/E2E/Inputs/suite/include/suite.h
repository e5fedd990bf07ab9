/* A benchmark-suite-like harness (lwp-run-flags.test): sizes come from -D
 * macros, as in PolyBench. */
#ifndef SUITE_H
#define SUITE_H
#ifndef N
#error "compile with -DN=<size>"
#endif
#ifndef TSTEPS
#define TSTEPS 2
#endif
double *suite_alloc(int Count);
void suite_print(const char *Name, const double *V, int Count);
#endif
