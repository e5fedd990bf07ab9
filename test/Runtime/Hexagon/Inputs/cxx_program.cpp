// A C++ program for every target (Hexagon: test/Runtime/Hexagon/cxx.test,
// docs/hexagon-runtime.md, "C++"): templates, virtual functions over a pure
// virtual base, single, multiple and virtual inheritance with dynamic_cast
// and typeid, lambdas and std::function, static objects constructed before
// main and destroyed after it (with an atexit handler between them), a
// static local (guard variable), std::vector, std::sort, std::string,
// std::map, std::unordered_map, shared_ptr and weak_ptr, over-aligned new,
// printing with <cstdio>. Its output is the same on every target and C++
// library (no addresses, sizes of long or pointers, hash orders or
// distributions; std::mt19937's raw numbers are the standard's), and it
// ends with status 3.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <typeinfo>
#include <unordered_map>
#include <utility>
#include <vector>

namespace {

// Static objects: constructed before main in the order of their
// definitions, destroyed after it in the reverse order.
struct Tracer {
  const char *Name;
  explicit Tracer(const char *N) : Name(N) {
    std::printf("construct %s\n", Name);
  }
  ~Tracer() { std::printf("destroy %s\n", Name); }
};
Tracer First("first");
Tracer Second("second");

// A static local: constructed at the first call (a guard variable).
Tracer &lazy() {
  static Tracer Lazy("lazy");
  return Lazy;
}

// Templates.
// Not inlined: the report names each instance (also checksum and feed).
template <typename T, int N>
__attribute__((noinline)) void mul(const T *A, const T *B, T *C) {
  for (int I = 0; I < N; ++I)
    for (int J = 0; J < N; ++J) {
      T S = 0;
      for (int K = 0; K < N; ++K)
        S += A[I * N + K] * B[K * N + J];
      C[I * N + J] = S;
    }
}

template <typename T>
__attribute__((noinline)) long long checksum(const T *V, int N) {
  long long S = 0;
  for (int I = 0; I < N; ++I)
    S = S * 7 + static_cast<long long>(V[I]);
  return S;
}

// Virtual functions over a pure virtual base.
struct Sum {
  virtual ~Sum() = default;
  virtual void add(long X) = 0;
  virtual long total() const = 0;
  virtual const char *name() const { return "sum"; }
};

struct Plain : Sum {
  long T = 0;
  void add(long X) override { T += X; }
  long total() const override { return T; }
};

struct Squares : Sum {
  long T = 0;
  void add(long X) override { T += X * X; }
  long total() const override { return T; }
  const char *name() const override { return "squares"; }
};

struct Counted : Plain {
  int N = 0;
  void add(long X) override {
    Plain::add(X);
    ++N;
  }
  const char *name() const override { return "counted"; }
};

__attribute__((noinline)) void feed(Sum &S, const std::vector<long> &V) {
  for (long X : V)
    S.add(X);
}

// Multiple and virtual inheritance, for dynamic_cast.
struct Shape {
  virtual ~Shape() = default;
  virtual int sides() const = 0;
};
struct Named {
  virtual ~Named() = default;
  virtual const char *label() const = 0;
};
struct Square : Shape, Named {
  int sides() const override { return 4; }
  const char *label() const override { return "square"; }
};
struct Triangle : Shape {
  int sides() const override { return 3; }
};
struct Base {
  virtual ~Base() = default;
  int B = 1;
};
struct Left : virtual Base {
  int L = 2;
};
struct Right : virtual Base {
  int R = 3;
};
struct Diamond : Left, Right {
  int D = 4;
};
// Node twice (not virtual): a cast to Node from outside is ambiguous.
struct Node {
  virtual ~Node() = default;
  int V = 5;
};
struct Lhs : Node {};
struct Rhs : Node {};
struct Extra {
  virtual ~Extra() = default;
};
struct Twice : Lhs, Rhs, Extra {};

struct alignas(64) Block {
  int Words[16];
};

void atExit() { std::printf("atexit handler\n"); }

} // namespace

int main() {
  std::printf("main starts\n");

  // Templates.
  int A[16], B[16], C[16];
  for (int I = 0; I < 16; ++I) {
    A[I] = I + 1;
    B[I] = 16 - I;
  }
  mul<int, 4>(A, B, C);
  std::printf("mul<int, 4>: %lld %d %d\n", checksum(C, 16), C[0], C[15]);
  double X[9], Y[9], Z[9];
  for (int I = 0; I < 9; ++I) {
    X[I] = 0.5 * I;
    Y[I] = 1.0 / (I + 1);
  }
  mul<double, 3>(X, Y, Z);
  std::printf("mul<double, 3>: %.6f %.6f\n", Z[0], Z[8]);

  // std::vector, std::sort, lambdas, std::function.
  std::vector<int> V;
  for (int I = 0; I < 60; ++I)
    V.push_back((I * 37 + 11) % 101);
  std::sort(V.begin(), V.end());
  std::printf("sorted: %d %d %d ... %d\n", V[0], V[1], V[2], V.back());
  int Threshold = 50;
  auto Above = std::count_if(V.begin(), V.end(),
                             [Threshold](int E) { return E > Threshold; });
  std::sort(V.begin(), V.end(), [](int L, int R) { return L > R; });
  std::printf("descending: %d %d, above %d: %d\n", V[0], V[1], Threshold,
              static_cast<int>(Above));
  std::vector<double> D{2.5, -1.0, 3.25, 0.0, 1.5};
  std::sort(D.begin(), D.end());
  std::printf("doubles: %.2f %.2f %.2f %.2f %.2f\n", D[0], D[1], D[2], D[3],
              D[4]);
  std::vector<std::pair<int, int>> Pairs{{3, 0}, {1, 1}, {3, 2}, {1, 3}};
  std::stable_sort(Pairs.begin(), Pairs.end(),
                   [](const auto &L, const auto &R) { return L.first < R.first; });
  std::printf("stable:");
  for (const auto &P : Pairs)
    std::printf(" %d/%d", P.first, P.second);
  std::printf("\n");
  int Calls = 0;
  std::function<long(long)> Scale = [&Calls, Threshold](long E) {
    ++Calls;
    return E * Threshold;
  };
  long Scaled = 0;
  for (long E = 1; E <= 10; ++E)
    Scaled += Scale(E);
  std::printf("function: %ld after %d calls\n", Scaled, Calls);

  // std::string.
  std::string S = "loop";
  S += "-profiler";
  S.insert(0, "lwp ");
  S.replace(S.find("loop"), 4, "LOOP");
  std::string Num = std::to_string(42) + "/" + std::to_string(-7) + "/" +
                    std::to_string(1.5);
  std::printf("string: '%s' %d '%s' '%s' %d %ld %.2f\n", S.c_str(),
              static_cast<int>(S.size()), S.substr(4, 4).c_str(),
              Num.c_str(), std::stoi("123"), std::stol("-456"),
              std::stod("2.25"));
  std::vector<std::string> Words{"pear", "apple", "fig", "banana", "cherry"};
  std::sort(Words.begin(), Words.end());
  std::string Joined;
  for (const std::string &W : Words)
    Joined += (Joined.empty() ? "" : ",") + W;
  std::printf("words: %s\n", Joined.c_str());

  // Virtual functions.
  std::vector<std::unique_ptr<Sum>> Sums;
  Sums.push_back(std::make_unique<Plain>());
  Sums.push_back(std::make_unique<Squares>());
  Sums.push_back(std::make_unique<Counted>());
  std::vector<long> Values{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  for (auto &Each : Sums) {
    feed(*Each, Values);
    std::printf("%s: %ld\n", Each->name(), Each->total());
  }

  // dynamic_cast and typeid.
  Square Sq;
  Triangle Tr;
  Shape *Shapes[] = {&Sq, &Tr};
  for (Shape *Sh : Shapes) {
    Named *N = dynamic_cast<Named *>(Sh);   // cross cast
    Square *Q = dynamic_cast<Square *>(Sh); // down cast
    std::printf("shape %s: %d sides, named %s, square %s\n",
                typeid(*Sh).name(), Sh->sides(), N ? N->label() : "-",
                Q ? "yes" : "no");
  }
  Diamond Dm;
  Base *Bp = &Dm;
  Left *Lp = dynamic_cast<Left *>(Bp);
  Right *Rp = dynamic_cast<Right *>(Bp);
  Diamond *Dp = dynamic_cast<Diamond *>(Rp);
  std::printf("diamond: %d %d %d %d, %s\n", Lp ? Lp->L : 0, Rp ? Rp->R : 0,
              Dp ? Dp->D : 0, Dp ? Dp->B : 0,
              typeid(*Bp) == typeid(Diamond) ? "typeid ok" : "typeid bad");
  Twice Tw;
  Extra *Ex = &Tw;
  Node *Nd = static_cast<Lhs *>(&Tw);
  std::printf("twice: node %s, lhs %s, rhs %s, twice %s\n",
              dynamic_cast<Node *>(Ex) ? "found" : "ambiguous",
              dynamic_cast<Lhs *>(Ex) ? "found" : "none",
              dynamic_cast<Rhs *>(Nd) ? "found" : "none",
              dynamic_cast<Twice *>(Nd) ? "found" : "none");
  std::printf("typeid: %s %s %s\n", typeid(int).name(),
              typeid(const char *).name(), typeid(Sum).name());

  // shared_ptr and weak_ptr.
  std::weak_ptr<std::string> Weak;
  {
    auto Shared = std::make_shared<std::string>("shared");
    Weak = Shared;
    auto Copy = Shared;
    std::printf("shared: %ld %s\n", static_cast<long>(Shared.use_count()),
                Weak.lock() ? Weak.lock()->c_str() : "-");
  }
  std::printf("expired: %s\n", Weak.expired() ? "yes" : "no");

  // std::map and std::unordered_map (printed in key order).
  std::map<std::string, int> Lengths;
  std::unordered_map<int, int> Squared;
  for (const std::string &W : Words)
    Lengths[W] = static_cast<int>(W.size());
  for (int I = 0; I < 40; ++I)
    Squared[I] = I * I;
  long long SquaredSum = 0;
  for (int I = 0; I < 40; ++I)
    SquaredSum += Squared.at(I);
  std::printf("map:");
  for (const auto &E : Lengths)
    std::printf(" %s=%d", E.first.c_str(), E.second);
  std::printf("; unordered: %d entries, sum %lld\n",
              static_cast<int>(Squared.size()), SquaredSum);

  // std::mt19937's numbers are the standard's.
  std::mt19937 Gen(5489u);
  unsigned R1 = Gen();
  unsigned R2 = Gen();
  std::printf("mt19937: %u %u\n", R1, R2);

  // Over-aligned new, arrays.
  Block *Blk = new Block();
  int *Arr = new int[100]();
  Arr[99] = 5;
  std::printf("aligned: %s, array %d\n",
              reinterpret_cast<std::uintptr_t>(Blk) % 64 ? "no" : "yes",
              Arr[0] + Arr[99]);
  delete[] Arr;
  delete Blk;

  // The static local: constructed once.
  std::printf("lazy: %s %s\n", lazy().Name, lazy().Name);
  // Registered after lazy: runs before its destructor.
  std::atexit(atExit);
  std::printf("main ends\n");
  return 3;
}
