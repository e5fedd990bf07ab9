// Compiled with -fexceptions and no standard header (which would stop the
// compile: cxx-abi.test): links with LWP's C++ runtime for Hexagon, runs as
// long as nothing is thrown (a cleanup, a try block), and a throw ends it
// with one line and abort.
extern "C" int printf(const char *, ...);

struct Cleanup {
  ~Cleanup() { printf("cleanup\n"); }
};

__attribute__((noinline)) int thrower(int X) {
  if (X > 0)
    throw X;
  return 0;
}

int main(int Argc, char **) {
  Cleanup C;
  try {
    thrower(Argc - 1);
  } catch (int) {
    printf("caught\n");
  }
  printf("no throw\n");
  return 0;
}
