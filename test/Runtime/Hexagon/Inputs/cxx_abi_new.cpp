// The program's own operator new(size_t) and operator delete(void *), for
// Inputs/cxx_abi.cpp: they count their calls. The runtime's other forms
// (new[], sized delete ...) reach them, as C++ says of the default
// versions.
#include <cstdlib>
#include <new>

int NewCalls, DeleteCalls;

void *operator new(std::size_t Size) {
  ++NewCalls;
  return std::malloc(Size ? Size : 1);
}

void operator delete(void *P) noexcept {
  if (P)
    ++DeleteCalls;
  std::free(P);
}
