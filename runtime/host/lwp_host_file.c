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
 *   - The temporary is unnamed (O_TMPFILE) until it is complete, where the
 *     file system has it; it then gets a random name (".lwp-<16 hex
 *     digits>.tmp", from getrandom) in the dump's folder, as it does from
 *     the start elsewhere: nobody can predict it, plant it or see a partial
 *     dump under it, and any final name up to NAME_MAX works. It is
 *     fsync'ed before it is renamed over the final name.
 *   - Nothing is written past the file size limit (RLIMIT_FSIZE): such a
 *     write fails with EFBIG instead of raising SIGXFSZ, which would kill
 *     the program; the file system's blocks of the continuous-mode state
 *     are allocated before the probes write them (a full file system then
 *     fails an allocation instead of raising SIGBUS).
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
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

/* The working directory at start-up (O_PATH), or AT_FDCWD before. */
static int StartDir = AT_FDCWD;
/* Its path, when no descriptor was left for it (ulimit -n): relative paths
 * are then made absolute with it, so a chdir() still changes nothing. */
static char StartPath[4096];

void lwp_file_init(void) {
  if (StartDir != AT_FDCWD || StartPath[0])
    return;
  int Fd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (Fd >= 0)
    StartDir = Fd;
  else if (!getcwd(StartPath, sizeof(StartPath)))
    StartPath[0] = '\0';
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

int lwp_file_expand(const char *Pattern, char *Out, size_t Size,
                    int AppendPid) {
  size_t N = 0;
  int HasPid = 0;
  char Buf[256];
  for (const char *P = Pattern; *P; ++P) {
    const char *Piece = Buf;
    size_t Len;
    if (P[0] == '%' && P[1] == 'p') {
      Len = appendDecimal(Buf, 0, (unsigned long long)getpid());
      HasPid = 1;
      ++P;
    } else if (P[0] == '%' && P[1] == 'h') {
      if (gethostname(Buf, sizeof(Buf)) != 0)
        strcpy(Buf, "unknown-host");
      Buf[sizeof(Buf) - 1] = '\0';
      Len = strlen(Buf);
      ++P;
    } else if (P[0] == '%' && P[1] == '%') {
      Piece = "%";
      Len = 1;
      ++P;
    } else if (P[0] == '%' && P[1] == 'c') {
      Len = 0; /* continuous mode: no text */
      ++P;
    } else {
      Piece = P;
      Len = 1;
    }
    if (N + Len >= Size)
      return -1;
    memcpy(Out + N, Piece, Len);
    N += Len;
  }
  /* A folder ("", "out/"): the default name in it. */
  if (N == 0 || Out[N - 1] == '/') {
    static const char Default[] = "lwp.dump";
    if (N + sizeof(Default) > Size)
      return -1;
    memcpy(Out + N, Default, sizeof(Default) - 1);
    N += sizeof(Default) - 1;
  }
  if (AppendPid && !HasPid) {
    char Pid[24];
    size_t Len = appendDecimal(Pid, 0, (unsigned long long)getpid());
    if (N + 1 + Len >= Size)
      return -1;
    Out[N++] = '.';
    memcpy(Out + N, Pid, Len);
    N += Len;
  }
  Out[N] = '\0';
  return 0;
}

int lwp_file_open_dir(const char *Path, struct lwp_file_dir *Out) {
  const char *Slash = strrchr(Path, '/');
  Out->base = Slash ? Slash + 1 : Path;
  Out->fd = -1;
  if (!*Out->base) {
    errno = EISDIR; /* a folder, not a file name */
    return -1;
  }
  char Dir[8192];
  size_t N = Slash ? (size_t)(Slash - Path) : 0;
  size_t Prefix = 0;
  if (Path[0] != '/' && StartDir == AT_FDCWD && StartPath[0]) {
    Prefix = strlen(StartPath);
    if (Prefix + 1 + N + 1 > sizeof(Dir)) {
      errno = ENAMETOOLONG;
      return -1;
    }
    memcpy(Dir, StartPath, Prefix);
    Dir[Prefix++] = '/';
  }
  if (Prefix + N + 2 > sizeof(Dir)) {
    errno = ENAMETOOLONG;
    return -1;
  }
  memcpy(Dir + Prefix, Path, N);
  N += Prefix;
  if (N == 0) /* "name" (".") or "/name" ("/") */
    Dir[N++] = Slash ? '/' : '.';
  Dir[N] = '\0';
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

/* A random temporary name, ".lwp-<16 hex digits>.tmp": getrandom, else the
 * counter, the process ID and a serial mixed. */
static void randomName(char Name[LWP_TEMP_NAME_SIZE]) {
  static unsigned Serial;
  uint64_t R;
  if (getrandom(&R, sizeof(R), GRND_NONBLOCK) != (ssize_t)sizeof(R)) {
    R = lwp_read_counter() ^ ((uint64_t)getpid() << 32) ^
        ((uint64_t)__atomic_fetch_add(&Serial, 1, __ATOMIC_RELAXED) << 48);
    R *= 0x9e3779b97f4a7c15ull;
  }
  static const char Hex[] = "0123456789abcdef";
  memcpy(Name, ".lwp-", 5);
  for (int I = 0; I != 16; ++I)
    Name[5 + I] = Hex[(R >> (60 - 4 * I)) & 15];
  memcpy(Name + 21, ".tmp", 5);
}

/* "/proc/self/fd/<Fd>", through which linkat names an unnamed file. */
static void procFdPath(int Fd, char Out[40]) {
  memcpy(Out, "/proc/self/fd/", 14);
  Out[appendDecimal(Out, 14, (unsigned long long)Fd)] = '\0';
}

int lwp_file_create_temp(const struct lwp_file_dir *Dir,
                         struct lwp_file_temp *T) {
  T->offset = 0;
  T->name[0] = '\0';
  /* Unnamed, where the file system has O_TMPFILE and /proc lets it be
   * linked later. */
  static int NoTmpFile;
  if (!__atomic_load_n(&NoTmpFile, __ATOMIC_RELAXED)) {
    T->fd = openat(Dir->fd, ".", O_WRONLY | O_TMPFILE | O_CLOEXEC, 0644);
    if (T->fd >= 0) {
      char Proc[40];
      procFdPath(T->fd, Proc);
      if (access(Proc, F_OK) == 0)
        return 0;
      close(T->fd);
      __atomic_store_n(&NoTmpFile, 1, __ATOMIC_RELAXED);
    } else if (errno == EMFILE || errno == ENFILE || errno == ENOSPC ||
               errno == EDQUOT || errno == EACCES || errno == EROFS) {
      return -1; /* the cause is not O_TMPFILE */
    }
  }
  for (unsigned Try = 0; Try != 16; ++Try) {
    randomName(T->name);
    T->fd = openat(Dir->fd, T->name,
                   O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (T->fd >= 0 || errno != EEXIST)
      break;
  }
  if (T->fd < 0)
    T->name[0] = '\0';
  return T->fd >= 0 ? 0 : -1;
}

/* Bytes a file may have (RLIMIT_FSIZE; UINT64_MAX when unlimited). */
static uint64_t sizeLimit(void) {
  struct rlimit L;
  if (getrlimit(RLIMIT_FSIZE, &L) != 0 || L.rlim_cur == RLIM_INFINITY)
    return UINT64_MAX;
  return (uint64_t)L.rlim_cur;
}

int lwp_file_write(void *Ctx, const void *Data, uint64_t Size) {
  struct lwp_file_temp *T = Ctx;
  if (Size > sizeLimit() - T->offset || T->offset > sizeLimit()) {
    errno = EFBIG;
    return -1;
  }
  const char *P = Data;
  while (Size) {
    ssize_t N = write(T->fd, P, Size);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0) {
      if (N == 0)
        errno = ENOSPC;
      return -1;
    }
    P += N;
    Size -= (uint64_t)N;
    T->offset += (uint64_t)N;
  }
  return 0;
}

/* Renames \p From over (or, with \p NoReplace, to) \p To in \p Dir. */
static int renameInDir(int Dir, const char *From, const char *To,
                       int NoReplace) {
  if (!NoReplace)
    return renameat(Dir, From, Dir, To);
  if (renameat2(Dir, From, Dir, To, RENAME_NOREPLACE) == 0)
    return 0;
  if (errno != EINVAL && errno != ENOSYS)
    return -1;
  /* A file system without RENAME_NOREPLACE: link fails if To exists. */
  if (linkat(Dir, From, Dir, To, 0) != 0)
    return -1;
  unlinkat(Dir, From, 0);
  return 0;
}

int lwp_file_publish(const struct lwp_file_dir *Dir, struct lwp_file_temp *T,
                     int NoReplace) {
  int Err = 0;
  if (fsync(T->fd) != 0 && errno != EINVAL)
    Err = errno;
  if (!Err && !T->name[0]) {
    char Proc[40];
    procFdPath(T->fd, Proc);
    for (unsigned Try = 0; Try != 16; ++Try) {
      randomName(T->name);
      if (linkat(AT_FDCWD, Proc, Dir->fd, T->name, AT_SYMLINK_FOLLOW) == 0)
        break;
      Err = errno;
      T->name[0] = '\0';
      if (Err != EEXIST)
        break;
    }
    if (T->name[0])
      Err = 0;
  }
  if (close(T->fd) != 0 && !Err)
    Err = errno;
  T->fd = -1;
  if (!Err && renameInDir(Dir->fd, T->name, Dir->base, NoReplace) != 0)
    Err = errno;
  if (Err) {
    if (T->name[0])
      unlinkat(Dir->fd, T->name, 0);
    T->name[0] = '\0';
    errno = Err;
    return -1;
  }
  T->name[0] = '\0';
  return 0;
}

void lwp_file_discard(const struct lwp_file_dir *Dir, struct lwp_file_temp *T) {
  if (T->fd >= 0)
    close(T->fd);
  T->fd = -1;
  if (T->name[0])
    unlinkat(Dir->fd, T->name, 0);
  T->name[0] = '\0';
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

int lwp_file_reserve(int Fd, uint64_t From, uint64_t To) {
  if (To <= From)
    return 0;
  if (To > sizeLimit()) {
    errno = EFBIG;
    return -1;
  }
  int E;
  do
    E = fallocate(Fd, 0, (off_t)From, (off_t)(To - From));
  while (E != 0 && errno == EINTR);
  return E;
}

void lwp_file_remove_own(const struct lwp_file_dir *Dir,
                         const struct lwp_file_id *Id) {
  struct stat St;
  if (fstatat(Dir->fd, Dir->base, &St, AT_SYMLINK_NOFOLLOW) == 0 &&
      S_ISREG(St.st_mode) && (uint64_t)St.st_dev == Id->dev &&
      (uint64_t)St.st_ino == Id->ino)
    unlinkat(Dir->fd, Dir->base, 0);
}
