// A call-heavy tree interpreter (issue 30): a toy language's syntax tree
// evaluated by a recursive eval() in which every node is one call of a small
// function of its kind, the shape of an AST interpreter's hot loop. The
// program sorts an array with insertion sort and sums a Collatz walk over
// it, TREE_SCALE times. Deterministic: prints one checksum line. Portable C
// for the host and LWP's Hexagon runtime (malloc, printf).
//
//   treeinterp              (-DTREE_SCALE=N at build time; default 1)
#include <stdio.h>
#include <stdlib.h>

#ifndef TREE_SCALE
#define TREE_SCALE 1
#endif

enum Kind { Const, Var, Add, Sub, Mul, Div, Mod, Less, Assign, Seq, If,
            While, Load, Store };

typedef struct Node {
  enum Kind K;
  int Value;              // Const: the value; Var/Assign: the variable
  struct Node *A, *B, *C; // operands
} Node;

static long Vars[8];
static long Mem[64];

static Node *mk(enum Kind K, int Value, Node *A, Node *B, Node *C) {
  Node *N = malloc(sizeof(Node));
  N->K = K;
  N->Value = Value;
  N->A = A;
  N->B = B;
  N->C = C;
  return N;
}
static Node *num(int V) { return mk(Const, V, 0, 0, 0); }
static Node *var(int I) { return mk(Var, I, 0, 0, 0); }
static Node *bin(enum Kind K, Node *A, Node *B) { return mk(K, 0, A, B, 0); }
static Node *set(int I, Node *E) { return mk(Assign, I, E, 0, 0); }
static Node *seq(Node *A, Node *B) { return mk(Seq, 0, A, B, 0); }

long eval(const Node *N);

__attribute__((noinline)) long evalConst(const Node *N) { return N->Value; }
__attribute__((noinline)) long evalVar(const Node *N) { return Vars[N->Value]; }
__attribute__((noinline)) long evalAdd(const Node *N) {
  return eval(N->A) + eval(N->B);
}
__attribute__((noinline)) long evalSub(const Node *N) {
  return eval(N->A) - eval(N->B);
}
__attribute__((noinline)) long evalMul(const Node *N) {
  return eval(N->A) * eval(N->B);
}
__attribute__((noinline)) long evalDiv(const Node *N) {
  long D = eval(N->B);
  return D ? eval(N->A) / D : 0;
}
__attribute__((noinline)) long evalMod(const Node *N) {
  long D = eval(N->B);
  return D ? eval(N->A) % D : 0;
}
__attribute__((noinline)) long evalLess(const Node *N) {
  return eval(N->A) < eval(N->B);
}
__attribute__((noinline)) long evalAssign(const Node *N) {
  return Vars[N->Value] = eval(N->A);
}
__attribute__((noinline)) long evalSeq(const Node *N) {
  eval(N->A);
  return eval(N->B);
}
__attribute__((noinline)) long evalIf(const Node *N) {
  return eval(N->A) ? eval(N->B) : N->C ? eval(N->C) : 0;
}
__attribute__((noinline)) long evalWhile(const Node *N) {
  long R = 0;
  while (eval(N->A))
    R = eval(N->B);
  return R;
}
__attribute__((noinline)) long evalLoad(const Node *N) {
  return Mem[eval(N->A) & 63];
}
__attribute__((noinline)) long evalStore(const Node *N) {
  return Mem[eval(N->A) & 63] = eval(N->B);
}

__attribute__((noinline)) long eval(const Node *N) {
  switch (N->K) {
  case Const: return evalConst(N);
  case Var: return evalVar(N);
  case Add: return evalAdd(N);
  case Sub: return evalSub(N);
  case Mul: return evalMul(N);
  case Div: return evalDiv(N);
  case Mod: return evalMod(N);
  case Less: return evalLess(N);
  case Assign: return evalAssign(N);
  case Seq: return evalSeq(N);
  case If: return evalIf(N);
  case While: return evalWhile(N);
  case Load: return evalLoad(N);
  case Store: return evalStore(N);
  }
  return 0;
}

// Variables: 0 i, 1 j, 2 key, 3 n, 4 sum, 5 x, 6 steps.
static Node *program(int Size) {
  // for (i = 0; i < n; ++i) mem[i] = (i * 37 + 11) % 101;
  Node *Fill = seq(set(0, num(0)),
      mk(While, 0, bin(Less, var(0), var(3)),
         seq(mk(Store, 0, var(0),
                bin(Mod, bin(Add, bin(Mul, var(0), num(37)), num(11)),
                    num(101)), 0),
             set(0, bin(Add, var(0), num(1)))), 0));
  // Insertion sort of mem[0..n).
  Node *Inner = mk(While, 0,
      mk(If, 0, bin(Less, num(0), bin(Add, var(1), num(1))),
         bin(Less, var(2), mk(Load, 0, var(1), 0, 0)), num(0)),
      seq(mk(Store, 0, bin(Add, var(1), num(1)), mk(Load, 0, var(1), 0, 0), 0),
          set(1, bin(Sub, var(1), num(1)))), 0);
  Node *Sort = seq(set(0, num(1)),
      mk(While, 0, bin(Less, var(0), var(3)),
         seq(seq(set(2, mk(Load, 0, var(0), 0, 0)),
                 seq(set(1, bin(Sub, var(0), num(1))),
                     seq(Inner, mk(Store, 0, bin(Add, var(1), num(1)),
                                   var(2), 0)))),
             set(0, bin(Add, var(0), num(1)))), 0));
  // sum += the Collatz steps of each mem[i] + 1.
  Node *Walk = seq(set(0, num(0)),
      mk(While, 0, bin(Less, var(0), var(3)),
         seq(set(5, bin(Add, mk(Load, 0, var(0), 0, 0), num(1))),
             seq(mk(While, 0, bin(Less, num(1), var(5)),
                    seq(set(5, mk(If, 0, bin(Mod, var(5), num(2)),
                                  bin(Add, bin(Mul, var(5), num(3)), num(1)),
                                  bin(Div, var(5), num(2)))),
                        set(4, bin(Add, var(4), num(1)))), 0),
                 set(0, bin(Add, var(0), num(1))))), 0));
  (void)Size;
  return seq(Fill, seq(Sort, Walk));
}

int main(void) {
  long Check = 0;
  for (int R = 0; R < TREE_SCALE; ++R) {
    for (int I = 0; I < 8; ++I)
      Vars[I] = 0;
    Vars[3] = 60;
    Check += eval(program(60)) + Vars[4] * 7;
    for (int I = 0; I < 60; ++I)
      Check = Check * 31 + Mem[I];
  }
  printf("treeinterp checksum %ld\n", Check);
  return 0;
}
