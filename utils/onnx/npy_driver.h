/*===- npy_driver.h - The generated ONNX driver's .npy reader and writer --===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * utils/lwp-run pastes this file into the C driver it generates for an ONNX
 * model (utils/onnx/lwp_onnx.py), so that the driver is one file. C99 and
 * stdio only: the same code builds for the host and for Hexagon against
 * LWP's C library (newlib; fopen/fread/fwrite reach the host's files under
 * qemu-hexagon).
 *
 * .npy: magic \x93NUMPY, version 1.0 written (2.0 and 3.0 read), a header
 * dict {'descr': ..., 'fortran_order': False, 'shape': (...), } padded with
 * spaces and a '\n' to a multiple of 64 bytes, then the elements,
 * little-endian, in C order. The descriptors are MLIR's ranked memref
 * descriptors {allocated, aligned, offset, sizes[rank], strides[rank]},
 * read and written with memcpy at their fields' offsets, whatever the rank.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const char *Name;     /* the graph's name of the tensor */
  const char *File;     /* its file name, without .npy */
  const char *DType;    /* numpy's name: float32 ... */
  const char *Descr;    /* npy descr: <f4 ... */
  int ElemSize;         /* bytes */
  int Rank;
  const int64_t *Shape; /* -1: a dimension the signature leaves open */
} NpyTensor;

/* Every rank's descriptor starts with these fields. */
typedef struct {
  void *Allocated;
  void *Aligned;
  int64_t Offset;
} NpyMemrefPrefix;
#define NPY_SIZES offsetof(NpyMemrefPrefix, Offset) + sizeof(int64_t)

static char *npyPath(const char *Dir, const NpyTensor *T) {
  size_t N = strlen(Dir) + strlen(T->File) + 6;
  char *Path = malloc(N);
  if (Path)
    snprintf(Path, N, "%s/%s.npy", Dir, T->File);
  return Path;
}

static void npyShapeText(char *Buf, size_t N, int Rank, const int64_t *Dims) {
  size_t Used = 0;
  Buf[0] = '\0';
  Used += snprintf(Buf + Used, N - Used, "[");
  for (int I = 0; I < Rank && Used < N; ++I) {
    if (Dims[I] < 0)
      Used += snprintf(Buf + Used, N - Used, "%s?", I ? "," : "");
    else
      Used += snprintf(Buf + Used, N - Used, "%s%lld", I ? "," : "",
                       (long long)Dims[I]);
  }
  if (Used < N)
    snprintf(Buf + Used, N - Used, "]");
}

/* The text after KEY's ':' in the header dict, or NULL. */
static const char *npyField(const char *Header, const char *Key) {
  const char *P = strstr(Header, Key);
  if (!P)
    return NULL;
  P += strlen(Key);
  while (*P == ' ' || *P == '\'' || *P == '"')
    ++P;
  if (*P != ':')
    return NULL;
  ++P;
  while (*P == ' ')
    ++P;
  return P;
}

/* Reads DIR/T->File.npy into a new buffer and fills the descriptor DESC
 * (rank T->Rank, C-order strides). Returns 0, or prints an error and
 * returns 1. */
static int npyLoad(const char *Dir, const NpyTensor *T, void *Desc) {
  char *Path = npyPath(Dir, T);
  FILE *F = Path ? fopen(Path, "rb") : NULL;
  if (!F) {
    fprintf(stderr, "driver: error: cannot open %s (input %s): %s\n",
            Path ? Path : T->File, T->Name, strerror(errno));
    return 1;
  }
  char *Buf = NULL;
  long Size = -1;
  if (fseek(F, 0, SEEK_END) == 0 && (Size = ftell(F)) >= 0 &&
      fseek(F, 0, SEEK_SET) == 0) {
    Buf = malloc((size_t)Size + 1);
    if (Buf && fread(Buf, 1, (size_t)Size, F) != (size_t)Size) {
      free(Buf);
      Buf = NULL;
    }
  }
  fclose(F);
  if (!Buf) {
    fprintf(stderr, "driver: error: cannot read %s\n", Path);
    return 1;
  }
  Buf[Size] = '\0';
  const char *Why = NULL;
  size_t Start = 0, Length = 0;
  if (Size < 10 || memcmp(Buf, "\x93NUMPY", 6) != 0)
    Why = "no \\x93NUMPY magic";
  else if (Buf[6] == 1) {
    Length = (unsigned char)Buf[8] | (size_t)(unsigned char)Buf[9] << 8;
    Start = 10;
  } else if ((Buf[6] == 2 || Buf[6] == 3) && Size >= 12) {
    Length = (unsigned char)Buf[8] | (size_t)(unsigned char)Buf[9] << 8 |
             (size_t)(unsigned char)Buf[10] << 16 |
             (size_t)(unsigned char)Buf[11] << 24;
    Start = 12;
  } else
    Why = "version";
  if (!Why && Start + Length > (size_t)Size)
    Why = "truncated header";
  char *Header = NULL;
  if (!Why) {
    Header = malloc(Length + 1);
    memcpy(Header, Buf + Start, Length);
    Header[Length] = '\0';
    const char *D = npyField(Header, "descr");
    const char *O = npyField(Header, "fortran_order");
    const char *S = npyField(Header, "shape");
    if (!D || !O || !S || *D != '\'' || *S != '(')
      Why = "header";
    else if (strncmp(D + 2, T->Descr + 1, 2) != 0 || D[4] != '\'' ||
             (D[1] == '>' && T->ElemSize > 1) || !strchr("<>=|", D[1]))
      Why = "dtype";
    else if (strncmp(O, "False", 5) != 0)
      Why = "Fortran order";
    else {
      int64_t Dims[64];
      int Rank = 0;
      const char *P = S + 1;
      for (;;) {
        while (*P == ' ' || *P == ',')
          ++P;
        if (*P == ')' || Rank == 64)
          break;
        char *End;
        long long V = strtoll(P, &End, 10);
        if (End == P || V < 0) {
          Why = "shape";
          break;
        }
        Dims[Rank++] = V;
        P = End;
      }
      int Fits = !Why && Rank == T->Rank;
      for (int I = 0; Fits && I < Rank; ++I)
        Fits = T->Shape[I] < 0 || T->Shape[I] == Dims[I];
      int64_t Count = 1;
      for (int I = 0; I < Rank; ++I)
        Count *= Dims[I];
      if (!Why && !Fits) {
        char Want[2048], Got[2048];
        npyShapeText(Want, sizeof Want, T->Rank, T->Shape);
        npyShapeText(Got, sizeof Got, Rank, Dims);
        fprintf(stderr,
                "driver: error: input %s: the model takes %s %s, %s holds "
                "%s\n",
                T->Name, T->DType, Want, Path, Got);
        free(Header);
        free(Buf);
        return 1;
      }
      if (!Why && (size_t)Size - Start - Length != (size_t)Count * T->ElemSize)
        Why = "data size";
      if (!Why) {
        /* The elements to the buffer's start: malloc's alignment. */
        memmove(Buf, Buf + Start + Length, (size_t)Count * T->ElemSize);
        void *Ptr = Buf;
        int64_t Zero = 0, Sizes[64], Strides[64], Stride = 1;
        for (int I = Rank - 1; I >= 0; --I) {
          Sizes[I] = Dims[I];
          Strides[I] = Stride;
          Stride *= Dims[I];
        }
        char *Bytes = Desc;
        memcpy(Bytes + offsetof(NpyMemrefPrefix, Allocated), &Ptr, sizeof Ptr);
        memcpy(Bytes + offsetof(NpyMemrefPrefix, Aligned), &Ptr, sizeof Ptr);
        memcpy(Bytes + offsetof(NpyMemrefPrefix, Offset), &Zero, sizeof Zero);
        memcpy(Bytes + NPY_SIZES, Sizes, Rank * sizeof(int64_t));
        memcpy(Bytes + NPY_SIZES + Rank * sizeof(int64_t), Strides,
               Rank * sizeof(int64_t));
      }
    }
  }
  free(Header);
  if (Why) {
    fprintf(stderr, "driver: error: %s (input %s): not a .npy file of %s (%s)\n",
            Path, T->Name, T->DType, Why);
    free(Buf);
    return 1;
  }
  free(Path);
  return 0;
}

/* Writes the memref DESC (rank T->Rank, any strides) to DIR/T->File.npy
 * and prints "NAME: DTYPE [SHAPE] fnv1a64 HASH" for it. Returns 0, or
 * prints an error and returns 1. */
static int npyStore(const char *Dir, const NpyTensor *T, const void *Desc) {
  const char *Bytes = Desc;
  char *Aligned;
  int64_t Offset, Sizes[64], Strides[64];
  int Rank = T->Rank;
  memcpy(&Aligned, Bytes + offsetof(NpyMemrefPrefix, Aligned), sizeof Aligned);
  memcpy(&Offset, Bytes + offsetof(NpyMemrefPrefix, Offset), sizeof Offset);
  memcpy(Sizes, Bytes + NPY_SIZES, Rank * sizeof(int64_t));
  memcpy(Strides, Bytes + NPY_SIZES + Rank * sizeof(int64_t),
         Rank * sizeof(int64_t));
  int64_t Count = 1;
  int Fits = 1;
  for (int I = 0; I < Rank; ++I) {
    Count *= Sizes[I];
    Fits &= T->Shape[I] < 0 || T->Shape[I] == Sizes[I];
  }
  char ShapeText[2048];
  npyShapeText(ShapeText, sizeof ShapeText, Rank, Sizes);
  if (!Fits) {
    char Want[2048];
    npyShapeText(Want, sizeof Want, Rank, T->Shape);
    fprintf(stderr,
            "driver: error: output %s: the model returned the shape %s, the "
            "signature says %s\n",
            T->Name, ShapeText, Want);
    return 1;
  }
  /* The elements in C order, whatever the strides. */
  size_t N = (size_t)Count * T->ElemSize;
  char *Data = malloc(N ? N : 1);
  int64_t Index[64] = {0};
  for (int64_t E = 0; E < Count; ++E) {
    int64_t At = Offset;
    for (int I = 0; I < Rank; ++I)
      At += Index[I] * Strides[I];
    memcpy(Data + E * T->ElemSize, Aligned + At * T->ElemSize, T->ElemSize);
    for (int I = Rank - 1; I >= 0; --I) {
      if (++Index[I] < Sizes[I])
        break;
      Index[I] = 0;
    }
  }
  /* The header, as np.save writes it. */
  char Header[2304], Dims[2048];
  size_t Used = 0;
  Dims[0] = '\0';
  for (int I = 0; I < Rank; ++I)
    Used += snprintf(Dims + Used, sizeof Dims - Used, "%s%lld",
                     I ? ", " : "", (long long)Sizes[I]);
  int Length = snprintf(Header + 10, sizeof Header - 10,
                        "{'descr': '%s', 'fortran_order': False, 'shape': "
                        "(%s%s), }",
                        T->Descr, Dims, Rank == 1 ? "," : "");
  int Total = (10 + Length + 1 + 63) / 64 * 64;
  memset(Header + 10 + Length, ' ', Total - 10 - Length - 1);
  Header[Total - 1] = '\n';
  memcpy(Header, "\x93NUMPY\x01\x00", 8);
  Header[8] = (char)((Total - 10) & 0xff);
  Header[9] = (char)((Total - 10) >> 8);
  char *Path = npyPath(Dir, T);
  FILE *F = Path ? fopen(Path, "wb") : NULL;
  int Failed = !F || fwrite(Header, 1, Total, F) != (size_t)Total ||
               fwrite(Data, 1, N, F) != N;
  if (F && fclose(F) != 0)
    Failed = 1;
  if (Failed) {
    fprintf(stderr, "driver: error: cannot write %s (output %s): %s\n",
            Path ? Path : T->File, T->Name, strerror(errno));
    return 1;
  }
  uint64_t Hash = 0xcbf29ce484222325ull;
  for (size_t I = 0; I < N; ++I)
    Hash = (Hash ^ (unsigned char)Data[I]) * 0x100000001b3ull;
  char Hex[17];
  for (int I = 15; I >= 0; --I, Hash >>= 4)
    Hex[I] = "0123456789abcdef"[Hash & 15];
  Hex[16] = '\0';
  printf("%s: %s %s fnv1a64 %s\n", T->Name, T->DType, ShapeText, Hex);
  free(Path);
  free(Data);
  return 0;
}
