// dynamic_cast through single, multiple, virtual, repeated, private and
// protected inheritance (test/Runtime/Hexagon/cxx-dynamic-cast.test):
// every line names the subobject a cast returned (or "null"), so that the
// output is the same on every target and C++ runtime; the host's (GCC's
// libsupc++ through libstdc++) is the reference for LWP's Hexagon
// __dynamic_cast.
#include <cstdio>
#include <typeinfo>

namespace {

struct A {
  virtual ~A() = default;
  int Av = 1;
};
struct B : A {};
struct C : virtual A {};
struct D : virtual A {};
struct E : C, D {};          // A once (virtual): a diamond
struct F : B, C {};          // A twice: in B, and C's virtual one
struct G : private A {       // A not reachable from outside
  A *self() { return this; }
};
struct H : G, B {};          // one private A (in G), one public (in B)
struct P : protected B {     // B not reachable from outside
  B *self() { return this; }
};
struct X {
  virtual ~X() = default;
};
struct Y : X, E {};          // X beside the diamond
struct Z {
  virtual ~Z() = default;
};
struct FZ : F, Z {};         // A twice, seen from Z
struct W : private C, public virtual A {}; // A public and through private C

// The subobjects of one object, by name, to label what a cast returns.
struct Label {
  const char *Name;
  const void *Address;
};

template <int N>
void report(const char *What, const void *Result, const Label (&Labels)[N]) {
  std::printf("%-28s", What);
  if (!Result) {
    std::printf(" null\n");
    return;
  }
  bool Any = false;
  for (const Label &L : Labels)
    if (L.Address == Result) {
      std::printf("%s%s", Any ? "=" : " ", L.Name);
      Any = true;
    }
  std::printf("%s\n", Any ? "" : " UNKNOWN");
}

#define TRY(Labels, Src, Dst)                                                  \
  report(#Src " -> " #Dst, dynamic_cast<Dst *>(Src), Labels)

__attribute__((noinline)) void diamond() {
  E Obj;
  const Label L[] = {{"E", &Obj},
                     {"C", static_cast<C *>(&Obj)},
                     {"D", static_cast<D *>(&Obj)},
                     {"A", static_cast<A *>(&Obj)}};
  A *Pa = &Obj;
  C *Pc = &Obj;
  D *Pd = &Obj;
  TRY(L, Pa, E);
  TRY(L, Pa, C);
  TRY(L, Pa, D);
  TRY(L, Pa, X);
  TRY(L, Pc, D);
  TRY(L, Pd, C);
  TRY(L, Pd, E);
  report("Pd -> void", dynamic_cast<void *>(Pd), L);
}

__attribute__((noinline)) void twice() {
  F Obj;
  A *InB = static_cast<A *>(static_cast<B *>(&Obj));
  A *InC = static_cast<A *>(static_cast<C *>(&Obj));
  const Label L[] = {{"F", &Obj},
                     {"B", static_cast<B *>(&Obj)},
                     {"C", static_cast<C *>(&Obj)},
                     {"A(B)", InB},
                     {"A(C)", InC}};
  TRY(L, InB, F);
  TRY(L, InB, B);
  TRY(L, InB, C);
  TRY(L, InC, F);
  TRY(L, InC, B);
  TRY(L, InC, C);
  FZ Obj2;
  Z *Pz = &Obj2;
  const Label L2[] = {{"FZ", &Obj2},
                      {"F", static_cast<F *>(&Obj2)},
                      {"B", static_cast<B *>(&Obj2)},
                      {"C", static_cast<C *>(&Obj2)},
                      {"Z", Pz}};
  TRY(L2, Pz, A);
  TRY(L2, Pz, B);
  TRY(L2, Pz, C);
  TRY(L2, Pz, F);
  TRY(L2, Pz, FZ);
}

__attribute__((noinline)) void hidden() {
  H Obj;
  A *Private = Obj.self();
  A *Public = static_cast<A *>(static_cast<B *>(&Obj));
  const Label L[] = {{"H", &Obj},
                     {"G", static_cast<G *>(&Obj)},
                     {"B", static_cast<B *>(&Obj)},
                     {"A(G)", Private},
                     {"A(B)", Public}};
  TRY(L, Private, H);
  TRY(L, Private, G);
  TRY(L, Private, B);
  TRY(L, Public, H);
  TRY(L, Public, G);
  TRY(L, Public, B);
  P Obj2;
  B *Protected = Obj2.self();
  const Label L2[] = {{"P", &Obj2}, {"B", Protected}};
  TRY(L2, Protected, P);
  W Obj3;
  A *Pa = &Obj3;
  const Label L3[] = {{"W", &Obj3}, {"A", Pa}};
  TRY(L3, Pa, W);
  TRY(L3, Pa, C);
}

__attribute__((noinline)) void beside() {
  Y Obj;
  X *Px = &Obj;
  A *Pa = &Obj;
  const Label L[] = {{"Y", &Obj},
                     {"X", Px},
                     {"E", static_cast<E *>(&Obj)},
                     {"C", static_cast<C *>(&Obj)},
                     {"D", static_cast<D *>(&Obj)},
                     {"A", Pa}};
  TRY(L, Px, A);
  TRY(L, Px, C);
  TRY(L, Px, D);
  TRY(L, Px, E);
  TRY(L, Px, Y);
  TRY(L, Pa, X);
  TRY(L, Pa, Y);
  std::printf("typeid: %s %s %s\n", typeid(*Px).name(), typeid(*Pa).name(),
              typeid(*Pa) == typeid(Y) ? "same" : "differ");
}

} // namespace

int main() {
  diamond();
  twice();
  hidden();
  beside();
  return 0;
}
