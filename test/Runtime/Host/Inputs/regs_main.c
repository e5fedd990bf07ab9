// Calls the kernel of a shared library linked the normal way (lazy binding),
// then loads a second instrumented library with dlopen (the executable is not
// linked with -rdynamic), calls it, closes it, and forks: the child runs its
// own regions and writes its own dump.
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

uint64_t regs_kernel(uint64_t n);

static uint64_t main_loop(uint64_t n) {
  uint64_t s = 0;
  for (uint64_t i = 0; i < n; ++i)
    s = s * 3 + (i ^ s);
  return s;
}

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  for (uint64_t n = 1; n <= 5; ++n)
    printf("regs %llu: %llx\n", (unsigned long long)n,
           (unsigned long long)regs_kernel(n * 100));
  void *H = dlopen(argv[1], RTLD_NOW);
  if (!H) {
    fprintf(stderr, "dlopen: %s\n", dlerror());
    return 1;
  }
  uint64_t (*Entry)(uint64_t) =
      (uint64_t(*)(uint64_t))dlsym(H, "plugin_entry");
  printf("plugin: %llu\n", (unsigned long long)(Entry(7) + Entry(9)));
  dlclose(H);
  printf("main: %llu\n", (unsigned long long)main_loop(50));
  fflush(stdout);
  pid_t Child = fork();
  if (Child == 0) {
    printf("child: %llu\n", (unsigned long long)main_loop(20));
    return 0;
  }
  int Status;
  waitpid(Child, &Status, 0);
  return WIFEXITED(Status) ? WEXITSTATUS(Status) : 1;
}
