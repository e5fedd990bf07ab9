// Calls the @main_graph of a model without graph inputs (lwp-import-onnx,
// lowered without probes) and prints its one result on one line, row-major:
// integers with %d, floats (-DFLOAT) with %.9g, as quantization_models.py
// prints the expected values. -DRANK=R -DELEM=TYPE give the result's memref.
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef struct {
  ELEM *Allocated, *Aligned;
  int64_t Offset, Sizes[RANK], Strides[RANK];
} Result;

void _mlir_ciface_main_graph(Result *R);

// memref.copy between memrefs that are not both contiguous (tensor.pad's
// bufferization copies the input into a subview) calls MLIR's runner
// utilities' memrefCopy; this is the same copy, so that the test needs no
// library.
typedef struct {
  int64_t Rank;
  void *Descriptor;
} UnrankedMemRef;

void memrefCopy(int64_t ElemSize, UnrankedMemRef *Src, UnrankedMemRef *Dst) {
  int64_t Rank = Src->Rank, Index[16] = {0}, N = 1;
  char **SP = Src->Descriptor, **DP = Dst->Descriptor;
  // After the two pointers: offset, sizes[Rank], strides[Rank].
  int64_t *S = (int64_t *)(SP + 2), *D = (int64_t *)(DP + 2);
  for (int64_t I = 0; I < Rank; ++I)
    N *= S[1 + I];
  for (int64_t E = 0; E < N; ++E) {
    int64_t SO = S[0], DO = D[0];
    for (int64_t I = 0; I < Rank; ++I) {
      SO += Index[I] * S[1 + Rank + I];
      DO += Index[I] * D[1 + Rank + I];
    }
    memcpy(DP[1] + DO * ElemSize, SP[1] + SO * ElemSize, ElemSize);
    for (int64_t I = Rank - 1; I >= 0; --I) {
      if (++Index[I] < S[1 + I])
        break;
      Index[I] = 0;
    }
  }
}

int main(void) {
  Result R;
  _mlir_ciface_main_graph(&R);
  int64_t Index[RANK] = {0}, N = 1;
  for (int I = 0; I < RANK; ++I)
    N *= R.Sizes[I];
  for (int64_t E = 0; E < N; ++E) {
    int64_t At = R.Offset;
    for (int I = 0; I < RANK; ++I)
      At += Index[I] * R.Strides[I];
#ifdef FLOAT
    printf(E ? " %.9g" : "%.9g", (double)R.Aligned[At]);
#else
    printf(E ? " %d" : "%d", (int)R.Aligned[At]);
#endif
    for (int I = RANK - 1; I >= 0; --I) {
      if (++Index[I] < R.Sizes[I])
        break;
      Index[I] = 0;
    }
  }
  printf("\n");
  return 0;
}
