/* Harness of the benchmark in multi-module.test (utils.c), in the style of
   PolyBench's polybench.h: array set-up, checksums and output. */
#ifndef MULTI_UTILS_H
#define MULTI_UTILS_H

void util_init_matrix(double *M, int Rows, int Cols, int Seed);
void util_init_vector(double *V, int N, int Seed);
void util_print_checksum(const char *Name, const double *V, int N);
void util_print_matrix(const char *Name, const double *M, int Rows, int Cols,
                       int Stride);

#endif
