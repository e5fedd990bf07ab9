/*===- lwp-recover.c - The dump of a continuous-mode state file ----------===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * lwp-recover STATE [-o DUMP]
 *
 * A program run with LWP_OUTPUT containing %c (continuous mode, host
 * runtime) keeps its profile in DUMP.state as it runs; when it ends without
 * its dump (_exit, SIGKILL, a power cut of the process), this writes DUMP
 * from that file: every count, exact figure and record up to the end, the
 * instances still open closed at the newest counter value. The state file is
 * kept. It is the runtime's own dump code (linked in), so the dump is the
 * one the program would have written.
 *
 * The default DUMP (STATE without '.state') is never replaced: when a file
 * of that name exists (a newer run's dump, or the dump of the image an
 * execve started), the tool says so and writes nothing; a DUMP named with
 * -o replaces a regular file. DUMP is a name, not an LWP_OUTPUT pattern:
 * '%p' in it stays as it is.
 */
#include "lwp_host_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* This process profiles nothing (lwp_host_internal.h): no dump, state file
 * or signal handler of its own, whatever LWP_OUTPUT says. */
const int lwp_tool_not_profiled = 1;

static int usage(FILE *Out) {
  fprintf(Out,
          "usage: lwp-recover STATE [-o DUMP]\n"
          "Writes the dump of a continuous-mode state file (LWP_OUTPUT with "
          "%%c) that its\nprocess left without a dump (_exit, SIGKILL). DUMP "
          "defaults to STATE without its\n'.state' suffix, and is then never "
          "replaced; a DUMP named with -o replaces\na regular file.\n");
  return Out == stdout ? 0 : 2;
}

int main(int argc, char **argv) {
  const char *StateFile = NULL, *DumpPath = NULL;
  for (int I = 1; I < argc; ++I) {
    if (!strcmp(argv[I], "-h") || !strcmp(argv[I], "--help") ||
        !strcmp(argv[I], "-help"))
      return usage(stdout);
    if (!strcmp(argv[I], "-o") && I + 1 < argc) {
      DumpPath = argv[++I];
    } else if (argv[I][0] == '-' || StateFile) {
      fprintf(stderr, "lwp-recover: error: unexpected argument '%s'\n",
              argv[I]);
      return usage(stderr);
    } else {
      StateFile = argv[I];
    }
  }
  if (!StateFile)
    return usage(stderr);
  char Default[4096];
  if (!DumpPath) {
    size_t N = strlen(StateFile);
    if (N <= 6 || strcmp(StateFile + N - 6, ".state") != 0 ||
        N - 6 >= sizeof(Default)) {
      fprintf(stderr, "lwp-recover: error: '%s' does not end in '.state'; "
                      "give the dump's path with -o\n",
              StateFile);
      return 2;
    }
    memcpy(Default, StateFile, N - 6);
    Default[N - 6] = '\0';
    DumpPath = Default;
  }
  if (lwp_recover_state(StateFile, DumpPath,
                        /*NoReplace=*/DumpPath == Default) != 0)
    return 1; /* the error line is out */
  printf("lwp-recover: wrote '%s' from '%s'\n", DumpPath, StateFile);
  return 0;
}
