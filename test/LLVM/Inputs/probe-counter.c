/* A test-only probe handler: counts starts and ends per region ID, checks
   that ends match the innermost open start, and prints the counts (IDs with
   activity, in ID order) and any open regions when the program exits.
   Compiled WITHOUT the plugin. */
#include <stdio.h>
#include <stdlib.h>

#define MAX_ID 256
static unsigned long Starts[MAX_ID], Ends[MAX_ID];
static int Stack[1024], Top, Errors;

void __lwp_probe_start(int Id) {
  if (Id < 0 || Id >= MAX_ID || Top == 1024) {
    ++Errors;
    return;
  }
  ++Starts[Id];
  Stack[Top++] = Id;
}

void __lwp_probe_end(int Id) {
  if (Id < 0 || Id >= MAX_ID || Top == 0 || Stack[Top - 1] != Id) {
    printf("lwp-count: unbalanced end %d (open: %d)\n", Id,
           Top ? Stack[Top - 1] : -1);
    ++Errors;
    return;
  }
  ++Ends[Id];
  --Top;
}

__attribute__((destructor)) static void report(void) {
  for (int I = 0; I < MAX_ID; ++I)
    if (Starts[I] || Ends[I])
      printf("lwp-count: id %d starts %lu ends %lu\n", I, Starts[I], Ends[I]);
  printf("lwp-count: open %d errors %d\n", Top, Errors);
}
