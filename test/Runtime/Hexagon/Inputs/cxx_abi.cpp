// The C++ runtime for Hexagon (runtime/hexagon/cxx), case by case
// (test/Runtime/Hexagon/cxx-abi.test). Without an argument: the new
// handler, nothrow and aligned new, operator new and delete that a program
// replaces only in part (Inputs/cxx_abi_new.cpp), std::sort of every
// arithmetic type of libc++'s list, to_string and the sto* family, hashing,
// the clocks, and the order of the end: static destructors and atexit
// handlers by registration, then C destructors, then the dump; exit() from
// a nested call runs them too. With an argument, one case that ends the
// program with one line on stderr and abort: pure virtual call, failed
// dynamic_cast of a reference, typeid of a null pointer, vector::at out of
// range, stoi without digits, a static local whose initialization reaches
// itself, out of memory, std::terminate (without and with a handler).
// Between them, the standard exception classes, constructed and copied
// (never thrown).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <new>
#include <stdexcept>
#include <string>
#include <typeinfo>
#include <unordered_set>
#include <vector>

// Inputs/cxx_abi_new.cpp: the program's own operator new(size_t) and
// operator delete(void *) (counting); the other forms stay the runtime's.
extern int NewCalls, DeleteCalls;

namespace {

struct Tracer {
  const char *Name;
  explicit Tracer(const char *N) : Name(N) {
    std::printf("construct %s\n", Name);
  }
  ~Tracer() { std::printf("destroy %s\n", Name); }
};
Tracer Global("global");

__attribute__((destructor)) void cDestructor() {
  std::printf("C destructor\n");
}
void firstAtExit() { std::printf("atexit registered before main's static\n"); }

// Pure virtual: called from the base's constructor through a helper.
struct Abstract;
__attribute__((noinline)) void callIt(Abstract *A);
struct Abstract {
  Abstract() { callIt(this); }
  virtual ~Abstract() = default;
  virtual void run() = 0;
};
void callIt(Abstract *A) { A->run(); }
struct Concrete : Abstract {
  void run() override {}
};

struct Animal {
  virtual ~Animal() = default;
};
struct Dog : Animal {};
struct Cat : Animal {};

int recurse(int N);
int initOnce(int N) {
  static int Value = recurse(N);
  return Value;
}
int recurse(int N) { return N ? initOnce(N - 1) : 0; }

// Called each time an allocation fails; uninstalls itself on its second
// call.
int HandlerCalls;
void handler() {
  if (++HandlerCalls == 2)
    std::set_new_handler(nullptr);
}

__attribute__((noinline)) Animal &someAnimal() {
  static Dog D;
  return D;
}

__attribute__((noinline)) Animal *noAnimal() { return nullptr; }

// More than malloc can ever give (its size computation would overflow).
std::size_t hugeSize() {
  std::size_t volatile Huge = static_cast<std::size_t>(-1) - 64;
  return Huge;
}

template <class T> bool sortedAfterSort() {
  std::vector<T> V;
  for (int I = 0; I < 100; ++I)
    V.push_back(static_cast<T>((I * 37 + 11) % 100));
  std::sort(V.begin(), V.end());
  return std::is_sorted(V.begin(), V.end()) && V.front() == T(0) &&
         V.back() == T(99);
}

[[noreturn]] void endInside(int Depth) {
  if (Depth == 0)
    std::exit(4);
  endInside(Depth - 1);
  __builtin_unreachable();
}

int failCase(const char *What) {
  std::printf("case %s\n", What);
  std::fflush(stdout);
  if (!std::strcmp(What, "pure")) {
    Concrete C;
  } else if (!std::strcmp(What, "badcast")) {
    Cat &C = dynamic_cast<Cat &>(someAnimal());
    std::printf("%p\n", static_cast<void *>(&C));
  } else if (!std::strcmp(What, "typeid")) {
    Animal *A = noAnimal();
    std::printf("%s\n", typeid(*A).name());
  } else if (!std::strcmp(What, "at")) {
    std::vector<int> V(3);
    std::printf("%d\n", V.at(10));
  } else if (!std::strcmp(What, "stoi")) {
    std::printf("%d\n", std::stoi("lwp"));
  } else if (!std::strcmp(What, "guard")) {
    std::printf("%d\n", initOnce(3));
  } else if (!std::strcmp(What, "oom")) {
    // Over-aligned: the runtime's operator new (the program replaced only
    // the plain one).
    struct alignas(64) Line {
      char Bytes[64];
    };
    Line *P = new Line[hugeSize() / 64];
    std::printf("%p\n", static_cast<void *>(P));
  } else if (!std::strcmp(What, "terminate")) {
    std::terminate();
  } else if (!std::strcmp(What, "terminate-handler")) {
    std::set_terminate([] {
      std::printf("terminate handler\n");
      std::_Exit(6);
    });
    std::terminate();
  } else if (!std::strcmp(What, "exit")) {
    endInside(5);
  }
  return 1;
}

} // namespace

int main(int Argc, char **Argv) {
  std::atexit(firstAtExit);
  static Tracer Local("main's static");
  if (Argc > 1)
    return failCase(Argv[1]);

  // Nothrow new: null when memory runs out; with a new handler, the
  // allocation is tried again after each of its calls, until it uninstalls
  // itself.
  char *P = new (std::nothrow) char[hugeSize()];
  std::printf("nothrow: %s\n", P ? "memory" : "null");
  std::set_new_handler(handler);
  P = new (std::nothrow) char[hugeSize()];
  std::printf("new handler: %d calls, %s, %s\n", HandlerCalls,
              P ? "memory" : "null",
              std::get_new_handler() ? "installed" : "uninstalled");

  // Aligned new (the runtime's), and the replaced operator new / delete
  // (the program's, counting).
  struct alignas(256) Page {
    char Bytes[256];
  };
  Page *Pages = new Page[3];
  Page *One = new (std::nothrow) Page;
  std::printf("aligned: %d %d\n",
              static_cast<int>(reinterpret_cast<std::uintptr_t>(Pages) % 256),
              static_cast<int>(reinterpret_cast<std::uintptr_t>(One) % 256));
  delete One;
  delete[] Pages;
  int NewBefore = NewCalls, DeleteBefore = DeleteCalls;
  {
    std::vector<int> V;
    for (int I = 0; I < 100; ++I)
      V.push_back(I);
  }
  std::printf("replaced new: %d allocations, %d frees\n",
              NewCalls - NewBefore, DeleteCalls - DeleteBefore);

  // std::sort of every type libc++ compiles __sort for.
  bool Sorted = sortedAfterSort<char>() && sortedAfterSort<signed char>() &&
                sortedAfterSort<unsigned char>() && sortedAfterSort<short>() &&
                sortedAfterSort<unsigned short>() && sortedAfterSort<int>() &&
                sortedAfterSort<unsigned>() && sortedAfterSort<long>() &&
                sortedAfterSort<unsigned long>() &&
                sortedAfterSort<long long>() &&
                sortedAfterSort<unsigned long long>() &&
                sortedAfterSort<float>() && sortedAfterSort<double>() &&
                sortedAfterSort<long double>();
  std::printf("sort: %s\n", Sorted ? "all sorted" : "NOT SORTED");

  // to_string and sto*.
  std::printf("to_string: %s %s %s %s %s %s\n", std::to_string(-12).c_str(),
              std::to_string(4000000000u).c_str(),
              std::to_string(-9000000000000LL).c_str(),
              std::to_string(18000000000000000000ULL).c_str(),
              std::to_string(0.25f).c_str(), std::to_string(1e20).c_str());
  std::size_t Index = 0;
  long long LL = std::stoll("  -123456789012xyz", &Index);
  std::printf("sto: %d %lu %lld@%d %llu %.3f %.3f %.3Lf\n",
              std::stoi("0x1f", nullptr, 16), std::stoul("777", nullptr, 8),
              LL, static_cast<int>(Index), std::stoull("18446744073709551615"),
              static_cast<double>(std::stof("1.5")), std::stod("-2.125"),
              std::stold("3.5"));

  // Hashing (strings, doubles, long long) and bucket counts.
  std::unordered_set<std::string> Strings;
  std::unordered_set<double> Doubles;
  std::unordered_set<long long> Longs;
  for (int I = 0; I < 500; ++I) {
    Strings.insert("key" + std::to_string(I % 250));
    Doubles.insert(I * 0.5);
    Longs.insert(static_cast<long long>(I) << 33);
  }
  std::printf("hash: %d %d %d, string hashes %s\n",
              static_cast<int>(Strings.size()),
              static_cast<int>(Doubles.size()),
              static_cast<int>(Longs.size()),
              std::hash<std::string>()("abc") ==
                      std::hash<std::string>()(std::string("ab") + "c")
                  ? "equal"
                  : "differ");

  // Exception objects (never thrown): derived, copied (the message is
  // shared), assigned, what() through the base.
  struct MyError : std::runtime_error {
    explicit MyError(const std::string &M) : std::runtime_error("my: " + M) {}
  };
  MyError E1("first");
  std::runtime_error E2 = E1;
  std::logic_error L1(std::string("logic"));
  std::out_of_range O1("range");
  L1 = O1;
  const std::exception &Ref = O1;
  std::printf("exceptions: %s | %s | %s | %s | %s %s %s\n", E1.what(),
              E2.what(), L1.what(), Ref.what(), std::bad_alloc().what(),
              typeid(Ref).name(), std::get_terminate() ? "handler" : "none");

  // The clocks.
  auto S0 = std::chrono::steady_clock::now();
  auto S1 = std::chrono::steady_clock::now();
  auto Now = std::chrono::system_clock::now();
  std::printf("clocks: steady %s, system after 2020 %s\n",
              S1 >= S0 ? "monotonic" : "BACKWARDS",
              std::chrono::system_clock::to_time_t(Now) > 1577836800
                  ? "yes"
                  : "no");
  std::printf("main ends\n");
  return 0;
}
