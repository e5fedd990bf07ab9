/*===- lwp_host_file.c - The host runtime's files ------------------------===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * Every file the host runtime creates, replaces or removes goes through this
 * file (docs/reliability.md, "Files"): the dump (written to a temporary and
 * renamed over the final name) and the continuous-mode state file. The
 * rules:
 *   - A relative path is resolved against the working directory the process
 *     had at start-up (a directory descriptor opened then), so that chdir()
 *     in the program changes nothing.
 *   - Files are created exclusively (O_CREAT | O_EXCL | O_NOFOLLOW): never
 *     through a symbolic link, never over a file that exists.
 *   - The temporary has a short name of its own in the dump's folder
 *     (".lwp-<pid>-<n>.tmp"), so that any final name up to NAME_MAX works.
 *   - A final name that exists and is not a regular file (symbolic link,
 *     device, FIFO, socket, directory) is refused, with one line; a regular
 *     file is replaced by rename (readers see the old or the new dump).
 *   - Only the runtime's own temporary, and its own state file (the same
 *     device and inode it created), are ever unlinked.
 * Everything here is async-signal-safe (the dump may be written from a
 * signal handler): system calls, no malloc, no stdio.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* O_PATH */
#endif
#include "lwp_host_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The working directory at start-up (O_PATH), or AT_FDCWD before. */
static int StartDir = AT_FDCWD;

void lwp_file_init(void) {
  if (StartDir != AT_FDCWD)
    return;
  int Fd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (Fd >= 0)
    StartDir = Fd;
}

int lwp_file_open_dir(const char *Path, struct lwp_file_dir *Out) {
  const char *Slash = strrchr(Path, '/');
  Out->base = Slash ? Slash + 1 : Path;
  Out->fd = -1;
  if (!*Out->base)
    return -1; /* a folder, not a file name */
  if (!Slash) {
    Out->fd = openat(StartDir, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
    return Out->fd >= 0 ? 0 : -1;
  }
  char Dir[4096];
  size_t N = (size_t)(Slash - Path);
  if (N >= sizeof(Dir))
    return -1;
  memcpy(Dir, Path, N);
  Dir[N] = '\0';
  if (N == 0) { /* "/name" */
    Dir[0] = '/';
    Dir[1] = '\0';
  }
  /* Symbolic links among the folders are the user's to name; only the
   * file itself is never followed. */
  Out->fd = openat(StartDir, Dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
  return Out->fd >= 0 ? 0 : -1;
}

void lwp_file_close_dir(struct lwp_file_dir *Dir) {
  if (Dir->fd >= 0)
    close(Dir->fd);
  Dir->fd = -1;
}

const char *lwp_file_refusal(const struct lwp_file_dir *Dir) {
  struct stat St;
  if (fstatat(Dir->fd, Dir->base, &St, AT_SYMLINK_NOFOLLOW) != 0)
    return errno == ENOENT ? NULL : "cannot be examined";
  switch (St.st_mode & S_IFMT) {
  case S_IFREG:
    return NULL;
  case S_IFLNK:
    return "is a symbolic link";
  case S_IFDIR:
    return "is a directory";
  case S_IFCHR:
  case S_IFBLK:
    return "is a device";
  case S_IFIFO:
    return "is a FIFO";
  case S_IFSOCK:
    return "is a socket";
  default:
    return "is not a regular file";
  }
}

/* Appends the decimal digits of \p V to \p Out at \p N; returns the new N. */
static size_t appendDecimal(char *Out, size_t N, unsigned long long V) {
  char Digits[24];
  size_t D = 0;
  do {
    Digits[D++] = (char)('0' + V % 10);
    V /= 10;
  } while (V);
  while (D)
    Out[N++] = Digits[--D];
  return N;
}

int lwp_file_create_temp(const struct lwp_file_dir *Dir,
                         char Name[LWP_TEMP_NAME_SIZE]) {
  static unsigned Serial;
  for (unsigned Try = 0; Try != 100; ++Try) {
    size_t N = 0;
    memcpy(Name, ".lwp-", 5);
    N = 5;
    N = appendDecimal(Name, N, (unsigned long long)getpid());
    Name[N++] = '-';
    N = appendDecimal(Name, N,
                      __atomic_fetch_add(&Serial, 1, __ATOMIC_RELAXED));
    memcpy(Name + N, ".tmp", 5);
    int Fd = openat(Dir->fd, Name,
                    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (Fd >= 0 || errno != EEXIST)
      return Fd;
  }
  return -1;
}

int lwp_file_publish(const struct lwp_file_dir *Dir, const char *Temp) {
  return renameat(Dir->fd, Temp, Dir->fd, Dir->base);
}

void lwp_file_discard(const struct lwp_file_dir *Dir, const char *Temp) {
  unlinkat(Dir->fd, Temp, 0);
}

int lwp_file_create_state(const struct lwp_file_dir *Dir,
                          struct lwp_file_id *Id) {
  int Fd = openat(Dir->fd, Dir->base,
                  O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  struct stat St;
  if (Fd >= 0 && fstat(Fd, &St) == 0) {
    Id->dev = (uint64_t)St.st_dev;
    Id->ino = (uint64_t)St.st_ino;
  }
  return Fd;
}

void lwp_file_remove_own(const struct lwp_file_dir *Dir,
                         const struct lwp_file_id *Id) {
  struct stat St;
  if (fstatat(Dir->fd, Dir->base, &St, AT_SYMLINK_NOFOLLOW) == 0 &&
      S_ISREG(St.st_mode) && (uint64_t)St.st_dev == Id->dev &&
      (uint64_t)St.st_ino == Id->ino)
    unlinkat(Dir->fd, Dir->base, 0);
}
