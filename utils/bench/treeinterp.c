// A call-heavy tree interpreter (issue 30): a toy language's syntax tree
// evaluated by a recursive eval() in which every node is one call of eval
// and one of a small function of its kind (evalAdd, evalVar, ...), the shape
// of an AST interpreter's hot loop. The language has constants, frame
// variables, + - * / % <, assignment, sequence, if, while, array load and
// store, and calls of its own functions (a new frame of 8 variables, two
// arguments). One round of the program fills an array of 64 numbers, sorts
// it (insertion sort), sums the Collatz walks of its elements, sums
// iterative fib(k) through a call each, and sums recursive gcd calls.
//
// Deterministic and the same on every target: values stay within 31 bits
// (long is 32 bits on Hexagon), the checksum is unsigned 32-bit arithmetic.
// Prints one checksum line. Portable C99 for the host and LWP's Hexagon
// runtime (malloc, printf).
//
//   treeinterp              (-DTREE_SCALE=N at build time: N rounds of
//                            84355 node evaluations (eval calls) each;
//                            default 150: about 0.04 s on an x86-64 host,
//                            1.5 s under qemu-hexagon, uninstrumented)
#include <stdio.h>
#include <stdlib.h>

#ifndef TREE_SCALE
#define TREE_SCALE 150
#endif

typedef long Val;

enum Kind { Const, Var, Add, Sub, Mul, Div, Mod, Less, Assign, Seq, If,
            While, Load, Store, Call };

typedef struct Node {
  enum Kind K;
  int Value;              // Const: the value; Var, Assign: the variable;
                          // Call: the function
  struct Node *A, *B, *C; // operands; Call: the two arguments
} Node;

enum { FrameSize = 8, MaxFrames = 256, MemSize = 64, NumFuncs = 2 };

static Val Stack[FrameSize * MaxFrames];
static Val *Frame = Stack;     // the current call's variables
static Val Mem[MemSize];
static Node *Funcs[NumFuncs];  // the program's functions' bodies
static Node *Program;         // main's body
static int Overflow;

static Node *mk(enum Kind K, int Value, Node *A, Node *B, Node *C) {
  Node *N = malloc(sizeof(Node));
  if (!N) {
    printf("treeinterp: out of memory\n");
    exit(1);
  }
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
static Node *seq3(Node *A, Node *B, Node *C) { return seq(A, seq(B, C)); }
static Node *loop(Node *Cond, Node *Body) { return mk(While, 0, Cond, Body, 0); }
static Node *cond(Node *C, Node *T, Node *E) { return mk(If, 0, C, T, E); }
static Node *load(Node *I) { return mk(Load, 0, I, 0, 0); }
static Node *store(Node *I, Node *V) { return mk(Store, 0, I, V, 0); }
static Node *call(int F, Node *X, Node *Y) { return mk(Call, F, X, Y, 0); }
static Node *inc(int I) { return set(I, bin(Add, var(I), num(1))); }

long eval(const Node *N);

__attribute__((noinline)) Val evalConst(const Node *N) { return N->Value; }
__attribute__((noinline)) Val evalVar(const Node *N) { return Frame[N->Value]; }
__attribute__((noinline)) Val evalAdd(const Node *N) {
  return eval(N->A) + eval(N->B);
}
__attribute__((noinline)) Val evalSub(const Node *N) {
  return eval(N->A) - eval(N->B);
}
__attribute__((noinline)) Val evalMul(const Node *N) {
  return eval(N->A) * eval(N->B);
}
__attribute__((noinline)) Val evalDiv(const Node *N) {
  Val A = eval(N->A), D = eval(N->B);
  return D ? A / D : 0;
}
__attribute__((noinline)) Val evalMod(const Node *N) {
  Val A = eval(N->A), D = eval(N->B);
  return D ? A % D : 0;
}
__attribute__((noinline)) Val evalLess(const Node *N) {
  Val A = eval(N->A);
  return A < eval(N->B);
}
__attribute__((noinline)) Val evalAssign(const Node *N) {
  return Frame[N->Value] = eval(N->A);
}
__attribute__((noinline)) Val evalSeq(const Node *N) {
  eval(N->A);
  return eval(N->B);
}
__attribute__((noinline)) Val evalIf(const Node *N) {
  if (eval(N->A))
    return eval(N->B);
  return N->C ? eval(N->C) : 0;
}
__attribute__((noinline)) Val evalWhile(const Node *N) {
  Val R = 0;
  while (eval(N->A))
    R = eval(N->B);
  return R;
}
__attribute__((noinline)) Val evalLoad(const Node *N) {
  return Mem[eval(N->A) & (MemSize - 1)];
}
__attribute__((noinline)) Val evalStore(const Node *N) {
  Val I = eval(N->A);
  return Mem[I & (MemSize - 1)] = eval(N->B);
}
__attribute__((noinline)) Val evalCall(const Node *N) {
  Val X = N->A ? eval(N->A) : 0, Y = N->B ? eval(N->B) : 0;
  if (Frame + 2 * FrameSize > Stack + FrameSize * MaxFrames) {
    Overflow = 1;
    return 0;
  }
  Val *Caller = Frame;
  Frame += FrameSize;
  Frame[0] = X;
  Frame[1] = Y;
  for (int I = 2; I < FrameSize; ++I)
    Frame[I] = 0;
  Val R = eval(Funcs[N->Value]);
  Frame = Caller;
  return R;
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
  case Call: return evalCall(N);
  }
  return 0;
}

// The toy program. Functions: 0 fib(k) (iterative), 1 gcd(a, b)
// (recursive). Main's variables: 0 i, 1 j, 2 key, 3 n, 4 sum, 5 x, 7 round.
enum { Fib, Gcd };

static Node *program(void) {
  // fib(k): a = 0; b = 1; while (0 < k) { t = a + b; a = b; b = t; k = k - 1 }; a
  Funcs[Fib] = seq3(
      seq(set(2, num(0)), set(3, num(1))),
      loop(bin(Less, num(0), var(0)),
           seq3(set(4, bin(Add, var(2), var(3))), set(2, var(3)),
                seq(set(3, var(4)), set(0, bin(Sub, var(0), num(1)))))),
      var(2));
  // gcd(a, b): if (b) gcd(b, a % b) else a
  Funcs[Gcd] = cond(var(1), call(Gcd, var(1), bin(Mod, var(0), var(1))),
                    var(0));
  // i = 0; while (i < n) { mem[i] = (i * 37 + round * 11 + 11) % 101; ++i }
  Node *Fill = seq(
      set(0, num(0)),
      loop(bin(Less, var(0), var(3)),
           seq(store(var(0),
                     bin(Mod,
                         bin(Add, bin(Add, bin(Mul, var(0), num(37)),
                                      bin(Mul, var(7), num(11))),
                             num(11)),
                         num(101))),
               inc(0))));
  // Insertion sort of mem[0..n).
  Node *Inner = loop(
      cond(bin(Less, num(0), bin(Add, var(1), num(1))),
           bin(Less, var(2), load(var(1))), num(0)),
      seq(store(bin(Add, var(1), num(1)), load(var(1))),
          set(1, bin(Sub, var(1), num(1)))));
  Node *Sort = seq(
      set(0, num(1)),
      loop(bin(Less, var(0), var(3)),
           seq3(set(2, load(var(0))),
                seq3(set(1, bin(Sub, var(0), num(1))), Inner,
                     store(bin(Add, var(1), num(1)), var(2))),
                inc(0))));
  // sum = sum + the Collatz steps of each mem[i] + 1.
  Node *Walk = seq(
      set(0, num(0)),
      loop(bin(Less, var(0), var(3)),
           seq3(set(5, bin(Add, load(var(0)), num(1))),
                loop(bin(Less, num(1), var(5)),
                     seq(set(5, cond(bin(Mod, var(5), num(2)),
                                     bin(Add, bin(Mul, var(5), num(3)),
                                          num(1)),
                                     bin(Div, var(5), num(2)))),
                         inc(4))),
                inc(0))));
  // sum = (sum + fib(mem[i] % 40)) % 1000003 for each i.
  Node *Fibs = seq(
      set(0, num(0)),
      loop(bin(Less, var(0), var(3)),
           seq(set(4, bin(Mod,
                          bin(Add, var(4),
                              call(Fib, bin(Mod, load(var(0)), num(40)), 0)),
                          num(1000003))),
               inc(0))));
  // sum = sum + gcd(mem[i] * 7 + 3, i + 1) for each i.
  Node *Gcds = seq(
      set(0, num(0)),
      loop(bin(Less, var(0), var(3)),
           seq(set(4, bin(Add, var(4),
                          call(Gcd, bin(Add, bin(Mul, load(var(0)), num(7)),
                                        num(3)),
                               bin(Add, var(0), num(1))))),
               inc(0))));
  return seq3(Fill, seq(Sort, Walk), seq(Fibs, Gcds));
}

int main(void) {
  Program = program();
  unsigned Check = 2166136261u;
  for (int R = 0; R < TREE_SCALE; ++R) {
    for (int I = 0; I < FrameSize; ++I)
      Frame[I] = 0;
    Frame[3] = MemSize;
    Frame[7] = R;
    Val Result = eval(Program);
    Check = (Check ^ (unsigned)Result) * 16777619u;
    Check = (Check ^ (unsigned)Frame[4]) * 16777619u;
    for (int I = 0; I < MemSize; ++I)
      Check = (Check ^ (unsigned)Mem[I]) * 16777619u;
  }
  if (Overflow) {
    printf("treeinterp: the toy program's call stack overflowed\n");
    return 1;
  }
  printf("treeinterp checksum %08x\n", Check);
  return 0;
}
