// A call-heavy program for -lwp-instruction-threshold (issue 23): the shape
// of an interpreter's benchmark (recursion, string building, sorting, many
// tiny functions reached through function pointers, so that the optimizer
// cannot inline them). Deterministic: prints one checksum line.
//
//   callheavy [SCALE]      (default 1: about 0.3 s uninstrumented at -O2)
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//===-- 1. a stack machine: one tiny function per opcode --------------------//

typedef struct VM {
  int64_t Stack[64];
  int Sp;
  int Pc;
  const int *Code;
} VM;

typedef void (*OpFn)(VM *);

static void opPush(VM *M) { M->Stack[M->Sp++] = M->Code[++M->Pc]; }
static void opAdd(VM *M) { --M->Sp; M->Stack[M->Sp - 1] += M->Stack[M->Sp]; }
static void opSub(VM *M) { --M->Sp; M->Stack[M->Sp - 1] -= M->Stack[M->Sp]; }
static void opMul(VM *M) { --M->Sp; M->Stack[M->Sp - 1] *= M->Stack[M->Sp]; }
static void opMod(VM *M) {
  --M->Sp;
  M->Stack[M->Sp - 1] %= M->Stack[M->Sp] ? M->Stack[M->Sp] : 1;
}
static void opDup(VM *M) { M->Stack[M->Sp] = M->Stack[M->Sp - 1]; ++M->Sp; }
static void opSwap(VM *M) {
  int64_t T = M->Stack[M->Sp - 1];
  M->Stack[M->Sp - 1] = M->Stack[M->Sp - 2];
  M->Stack[M->Sp - 2] = T;
}
static void opOver(VM *M) { M->Stack[M->Sp] = M->Stack[M->Sp - 2]; ++M->Sp; }
static void opRot(VM *M) {
  int64_t A = M->Stack[M->Sp - 3];
  M->Stack[M->Sp - 3] = M->Stack[M->Sp - 2];
  M->Stack[M->Sp - 2] = M->Stack[M->Sp - 1];
  M->Stack[M->Sp - 1] = A;
}
static void opDec(VM *M) { --M->Stack[M->Sp - 1]; }
static void opJnz(VM *M) {
  int Target = M->Code[++M->Pc];
  if (M->Stack[M->Sp - 1])
    M->Pc = Target - 1;
}
static void opDrop(VM *M) { --M->Sp; }

enum { PUSH, ADD, SUB, MUL, MOD, DUP, SWAP, OVER, ROT, DEC, JNZ, DROP, HALT };
static const OpFn Ops[] = {opPush, opAdd, opSub, opMul, opMod, opDup,
                           opSwap, opOver, opRot, opDec, opJnz, opDrop};

// acc = 0; for (i = n; i; --i) acc = (acc + i * i) % 1000003
static int64_t vmSumSquares(int N) {
  const int Code[] = {PUSH, 0,   PUSH, N,    // acc i
                      DUP,  DUP, MUL,        // acc i i*i
                      ROT,  ADD,             // i acc+i*i
                      PUSH, 1000003, MOD,    // i acc'
                      SWAP, DEC,             // acc' i-1
                      JNZ,  4,               // loop while i
                      DROP, HALT};
  VM M = {{0}, 0, 0, Code};
  for (M.Pc = 0; Code[M.Pc] != HALT; ++M.Pc)
    Ops[Code[M.Pc]](&M);
  return M.Stack[0];
}

//===-- 2. recursion ---------------------------------------------------------//

static int fib(int N) { return N < 2 ? N : fib(N - 1) + fib(N - 2); }

typedef struct Node {
  struct Node *Left, *Right;
  int Value;
} Node;

static Node *build(int Depth, int *Next) {
  Node *N = malloc(sizeof(Node));
  N->Value = (*Next)++;
  N->Left = Depth ? build(Depth - 1, Next) : NULL;
  N->Right = Depth ? build(Depth - 1, Next) : NULL;
  return N;
}

static int64_t treeSum(const Node *N) {
  return N ? N->Value + treeSum(N->Left) - treeSum(N->Right) / 2 : 0;
}

static void freeTree(Node *N) {
  if (!N)
    return;
  freeTree(N->Left);
  freeTree(N->Right);
  free(N);
}

//===-- 3. string building -------------------------------------------------===//

typedef struct Buf {
  char *Data;
  size_t Len, Cap;
} Buf;

static void bufGrow(Buf *B, size_t Need) {
  if (B->Len + Need <= B->Cap)
    return;
  B->Cap = (B->Cap + Need) * 2;
  B->Data = realloc(B->Data, B->Cap);
}
static void bufChar(Buf *B, char C) {
  bufGrow(B, 1);
  B->Data[B->Len++] = C;
}
static void bufStr(Buf *B, const char *S) {
  while (*S)
    bufChar(B, *S++);
}
static void bufInt(Buf *B, long V) {
  char T[24];
  int N = 0;
  if (V < 0) {
    bufChar(B, '-');
    V = -V;
  }
  do
    T[N++] = (char)('0' + V % 10);
  while ((V /= 10));
  while (N)
    bufChar(B, T[--N]);
}
static uint32_t hashStr(const char *S, size_t N) {
  uint32_t H = 2166136261u;
  for (size_t I = 0; I < N; ++I)
    H = (H ^ (uint8_t)S[I]) * 16777619u;
  return H;
}

static void (*volatile AppendInt)(Buf *, long) = bufInt;
static void (*volatile AppendStr)(Buf *, const char *) = bufStr;

static uint32_t buildStrings(int Rounds) {
  uint32_t H = 0;
  static const char *const Words[] = {"local", "function", "return", "end",
                                      "table", "pcall", "string", "sort"};
  for (int R = 0; R < Rounds; ++R) {
    Buf B = {0, 0, 0};
    for (int I = 0; I < 40; ++I) {
      AppendStr(&B, Words[(R + I) % 8]);
      bufChar(&B, '[');
      AppendInt(&B, (long)R * I - 7 * I);
      AppendStr(&B, "] ");
    }
    H ^= hashStr(B.Data, B.Len) + (uint32_t)B.Len;
    free(B.Data);
  }
  return H;
}

//===-- 4. sorting ---------------------------------------------------------===//

typedef struct Rec {
  int Key;
  char Name[12];
} Rec;

static int byKey(const void *A, const void *B) {
  int X = ((const Rec *)A)->Key, Y = ((const Rec *)B)->Key;
  return (X > Y) - (X < Y);
}
static int byName(const void *A, const void *B) {
  return strcmp(((const Rec *)A)->Name, ((const Rec *)B)->Name);
}

static uint32_t sortRecords(int N, unsigned Seed) {
  Rec *R = malloc(sizeof(Rec) * (size_t)N);
  for (int I = 0; I < N; ++I) {
    Seed = Seed * 1103515245u + 12345u;
    R[I].Key = (int)(Seed >> 8) % 100000;
    snprintf(R[I].Name, sizeof R[I].Name, "n%07u", (Seed >> 4) % 9999991u);
  }
  qsort(R, (size_t)N, sizeof(Rec), byKey);
  uint32_t H = (uint32_t)R[0].Key ^ (uint32_t)R[N - 1].Key << 8;
  qsort(R, (size_t)N, sizeof(Rec), byName);
  H ^= hashStr(R[N / 2].Name, strlen(R[N / 2].Name));
  free(R);
  return H;
}

int main(int Argc, char **Argv) {
  int Scale = Argc > 1 ? atoi(Argv[1]) : 1;
  if (Scale < 1)
    Scale = 1;
  int64_t Sum = 0;
  uint32_t H = 0;
  for (int S = 0; S < Scale; ++S) {
    Sum += vmSumSquares(150000);
    Sum += fib(25);
    for (int T = 0; T < 6; ++T) {
      int Next = 0;
      Node *Tree = build(14, &Next);
      Sum += treeSum(Tree);
      freeTree(Tree);
    }
    H ^= buildStrings(3000);
    H ^= sortRecords(60000, 7u + (unsigned)S);
  }
  printf("callheavy %lld %08x\n", (long long)Sum, H);
  return 0;
}
