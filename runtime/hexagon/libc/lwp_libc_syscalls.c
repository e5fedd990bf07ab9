/*===- lwp_libc_syscalls.c - newlib's system calls for qemu-hexagon -------===*\
|*                                                                            *|
|* Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * The machine pieces of LWP's Hexagon C library (newlib, docs/
 * hexagon-runtime.md): the OS subroutines newlib's reentrant wrappers call
 * (_read, _write, _open, _close, _lseek, _fstat, _stat, _isatty, _sbrk,
 * _kill, _getpid, _gettimeofday, _times, _link, _unlink, _mkdir, _fcntl),
 * clock_gettime, clock_getres and nanosleep, as Linux system calls through
 * trap0(#1)
 * (number in r6, arguments in r0-r5, result or -errno in r0; numbers of
 * asm-generic/unistd.h for a 32-bit target, which Hexagon Linux uses).
 * Linux's flag, errno, signal and stat encodings are translated to newlib's.
 *
 * exit, _exit and environ are the process layer's (lwp_hexagon_process.c,
 * in liblwp_hexagon.a), the start-up the LWP runtime's. This file calls the
 * process layer only, never the LWP runtime: it registers the stdio
 * clean-up as an exit hook (run by exit after newlib's atexit handlers and
 * the destructors, before the LWP dump), and _kill runs the signal hooks
 * (the LWP dump) before a signal ends the process (abort's SIGABRT).
 */
#include <errno.h>
#include <fcntl.h>
#include <reent.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>

#include "lwp_hexagon_process.h"

#undef errno
extern int errno;

enum {
  SysFcntl64 = 25,
  SysIoctl = 29,
  SysMkdirat = 34,
  SysUnlinkat = 35,
  SysLinkat = 37,
  SysOpenat = 56,
  SysClose = 57,
  SysLlseek = 62,
  SysRead = 63,
  SysWrite = 64,
  SysFstatat64 = 79,
  SysFstat64 = 80,
  SysNanosleep = 101,    /* 32-bit time_t */
  SysClockGettime = 113, /* 32-bit time_t */
  SysClockGetres = 114,  /* 32-bit time_t */
  SysKill = 129,
  SysGetpid = 172,
  SysBrk = 214,
  AtFdCwd = -100,
  Tcgets = 0x5401,
};

static long sys5(long Nr, long A, long B, long C, long D, long E) {
  register long R0 __asm__("r0") = A;
  register long R1 __asm__("r1") = B;
  register long R2 __asm__("r2") = C;
  register long R3 __asm__("r3") = D;
  register long R4 __asm__("r4") = E;
  register long R6 __asm__("r6") = Nr;
  __asm__ volatile("trap0(#1)"
                   : "+r"(R0)
                   : "r"(R1), "r"(R2), "r"(R3), "r"(R4), "r"(R6)
                   : "memory");
  return R0;
}

static long sys3(long Nr, long A, long B, long C) {
  return sys5(Nr, A, B, C, 0, 0);
}

/* Linux errno values past 34 (where the two agree) to newlib's. */
static int newlibErrno(long LinuxErr) {
  switch (LinuxErr) {
  case 35:
    return EDEADLK;
  case 36:
    return ENAMETOOLONG;
  case 37:
    return ENOLCK;
  case 38:
    return ENOSYS;
  case 39:
    return ENOTEMPTY;
  case 40:
    return ELOOP;
  case 75:
    return EOVERFLOW;
  case 95:
    return EOPNOTSUPP;
  case 110:
    return ETIMEDOUT;
  default:
    return LinuxErr <= 34 ? (int)LinuxErr : EIO;
  }
}

/* A system call's result: -errno becomes -1 with errno set. */
static long result(long R) {
  if (R < 0 && R > -4096) {
    errno = newlibErrno(-R);
    return -1;
  }
  return R;
}

int _write(int Fd, const void *Buf, size_t Count) {
  return (int)result(sys3(SysWrite, Fd, (long)Buf, (long)Count));
}

int _read(int Fd, void *Buf, size_t Count) {
  return (int)result(sys3(SysRead, Fd, (long)Buf, (long)Count));
}

/* newlib's O_* (sys/_default_fcntl.h) to Linux's (asm-generic/fcntl.h). */
static long linuxOpenFlags(int Flags) {
  long L = Flags & O_ACCMODE;
  if (Flags & O_CREAT)
    L |= 0100;
  if (Flags & O_EXCL)
    L |= 0200;
  if (Flags & O_NOCTTY)
    L |= 0400;
  if (Flags & O_TRUNC)
    L |= 01000;
  if (Flags & O_APPEND)
    L |= 02000;
  if (Flags & O_NONBLOCK)
    L |= 04000;
  if (Flags & O_SYNC)
    L |= 04010000;
#ifdef O_CLOEXEC
  if (Flags & O_CLOEXEC)
    L |= 02000000;
#endif
#ifdef O_DIRECTORY
  if (Flags & O_DIRECTORY)
    L |= 040000;
#endif
  return L | 0100000; /* O_LARGEFILE: 64-bit offsets on a 32-bit target */
}

/* Variadic, as newlib declares it (Hexagon passes variadic arguments on
 * the stack). */
int _open(const char *Path, int Flags, ...) {
  va_list Ap;
  va_start(Ap, Flags);
  int Mode = (Flags & O_CREAT) ? va_arg(Ap, int) : 0;
  va_end(Ap);
  return (int)result(
      sys5(SysOpenat, AtFdCwd, (long)Path, linuxOpenFlags(Flags), Mode, 0));
}

int _close(int Fd) { return (int)result(sys3(SysClose, Fd, 0, 0)); }

off_t _lseek(int Fd, off_t Offset, int Whence) {
  long long Off = Offset, Out = 0;
  long R = result(
      sys5(SysLlseek, Fd, (long)(Off >> 32), (long)Off, (long)&Out, Whence));
  if (R < 0)
    return -1;
  if (Out != (off_t)Out) {
    errno = EOVERFLOW;
    return -1;
  }
  return (off_t)Out;
}

/* struct stat64 of asm-generic/stat.h (32-bit targets). */
struct LinuxStat64 {
  unsigned long long Dev, Ino;
  unsigned Mode, Nlink, Uid, Gid;
  unsigned long long Rdev, Pad1;
  long long Size;
  int Blksize, Pad2;
  long long Blocks;
  int Atime;
  unsigned AtimeNsec;
  int Mtime;
  unsigned MtimeNsec;
  int Ctime;
  unsigned CtimeNsec;
  unsigned Unused4, Unused5;
};
_Static_assert(sizeof(struct LinuxStat64) == 104, "asm-generic stat64");

static void toNewlibStat(const struct LinuxStat64 *K, struct stat *St) {
  memset(St, 0, sizeof(*St));
  St->st_dev = (dev_t)K->Dev;
  St->st_ino = (ino_t)K->Ino;
  St->st_mode = (mode_t)K->Mode; /* S_IF* bits agree */
  St->st_nlink = (nlink_t)K->Nlink;
  St->st_uid = (uid_t)K->Uid;
  St->st_gid = (gid_t)K->Gid;
  St->st_rdev = (dev_t)K->Rdev;
  St->st_size = (off_t)K->Size;
  St->st_atim.tv_sec = K->Atime;
  St->st_atim.tv_nsec = (long)K->AtimeNsec;
  St->st_mtim.tv_sec = K->Mtime;
  St->st_mtim.tv_nsec = (long)K->MtimeNsec;
  St->st_ctim.tv_sec = K->Ctime;
  St->st_ctim.tv_nsec = (long)K->CtimeNsec;
  St->st_blksize = K->Blksize;
  St->st_blocks = (blkcnt_t)K->Blocks;
}

int _fstat(int Fd, struct stat *St) {
  struct LinuxStat64 K;
  if (result(sys3(SysFstat64, Fd, (long)&K, 0)) < 0)
    return -1;
  toNewlibStat(&K, St);
  return 0;
}

int _stat(const char *Path, struct stat *St) {
  struct LinuxStat64 K;
  if (result(sys5(SysFstatat64, AtFdCwd, (long)Path, (long)&K, 0, 0)) < 0)
    return -1;
  toNewlibStat(&K, St);
  return 0;
}

int _isatty(int Fd) {
  unsigned char Termios[64];
  long R = sys3(SysIoctl, Fd, Tcgets, (long)Termios);
  if (R < 0) {
    errno = R == -9 ? EBADF : ENOTTY;
    return 0;
  }
  return 1;
}

int _link(const char *Old, const char *New) {
  return (int)result(
      sys5(SysLinkat, AtFdCwd, (long)Old, AtFdCwd, (long)New, 0));
}

int _unlink(const char *Path) {
  return (int)result(sys3(SysUnlinkat, AtFdCwd, (long)Path, 0));
}

int _mkdir(const char *Path, mode_t Mode) {
  return (int)result(sys3(SysMkdirat, AtFdCwd, (long)Path, Mode));
}

int _fcntl(int Fd, int Cmd, ...) {
  va_list Ap;
  va_start(Ap, Cmd);
  int Arg = va_arg(Ap, int);
  va_end(Ap);
  /* F_DUPFD 0, F_GETFD 1, F_SETFD 2 agree; the status flags need the
   * translation (F_GETFL 3, F_SETFL 4). */
  if (Cmd == F_SETFL)
    Arg = (int)linuxOpenFlags(Arg);
  if (Cmd != F_DUPFD && Cmd != F_GETFD && Cmd != F_SETFD && Cmd != F_GETFL &&
      Cmd != F_SETFL) {
    errno = EINVAL;
    return -1;
  }
  long R = result(sys3(SysFcntl64, Fd, Cmd, Arg));
  if (R >= 0 && Cmd == F_GETFL) {
    long F = R & O_ACCMODE;
    if (R & 02000)
      F |= O_APPEND;
    if (R & 04000)
      F |= O_NONBLOCK;
    return (int)F;
  }
  return (int)R;
}

/* The heap of newlib's malloc: the program break (brk). */
void *_sbrk(ptrdiff_t Increment) {
  static uintptr_t Break;
  if (!Break)
    Break = (uintptr_t)sys3(SysBrk, 0, 0, 0);
  uintptr_t Old = Break;
  if (Increment) {
    uintptr_t Want = Old + (uintptr_t)Increment;
    if ((Increment > 0 && Want < Old) || (Increment < 0 && Want > Old) ||
        (uintptr_t)sys3(SysBrk, (long)Want, 0, 0) != Want) {
      errno = ENOMEM;
      return (void *)-1;
    }
    Break = Want;
  }
  return (void *)Old;
}

int _getpid(void) { return (int)sys3(SysGetpid, 0, 0, 0); }

/* newlib's signal number to Linux's; 0 for one Linux lacks. */
static int linuxSignal(int Sig) {
  switch (Sig) {
  case SIGHUP:
    return 1;
  case SIGINT:
    return 2;
  case SIGQUIT:
    return 3;
  case SIGILL:
    return 4;
  case SIGTRAP:
    return 5;
  case SIGABRT:
    return 6;
  case SIGBUS:
    return 7;
  case SIGFPE:
    return 8;
  case SIGKILL:
    return 9;
  case SIGUSR1:
    return 10;
  case SIGSEGV:
    return 11;
  case SIGUSR2:
    return 12;
  case SIGPIPE:
    return 13;
  case SIGALRM:
    return 14;
  case SIGTERM:
    return 15;
  case SIGCHLD:
    return 17;
  case SIGCONT:
    return 18;
  case SIGSTOP:
    return 19;
  case SIGTSTP:
    return 20;
  case SIGTTIN:
    return 21;
  case SIGTTOU:
    return 22;
  case SIGURG:
    return 23;
  case SIGXCPU:
    return 24;
  case SIGXFSZ:
    return 25;
  case SIGVTALRM:
    return 26;
  case SIGPROF:
    return 27;
  case SIGWINCH:
    return 28;
  case SIGIO:
    return 29;
  case SIGSYS:
    return 31;
  default:
    return 0;
  }
}

/* newlib's raise() calls _kill for a signal left at SIG_DFL. A signal whose
 * default action ends the process, sent to the process itself (abort's
 * SIGABRT), runs the LWP_HEX_AT_SIGNAL exit hooks first (the LWP dump: the
 * profile survives abort). */
int _kill(int Pid, int Sig) {
  int L = linuxSignal(Sig);
  if (!L && Sig) {
    errno = EINVAL;
    return -1;
  }
  int Ends = L && L != 17 && L != 18 && L != 19 && L != 20 && L != 21 &&
             L != 22 && L != 23 && L != 28;
  if (Ends && (Pid == 0 || Pid == _getpid()))
    lwp_hex_run_exit_hooks(LWP_HEX_AT_SIGNAL);
  return (int)result(sys3(SysKill, Pid, L, 0));
}

struct LinuxTimespec32 {
  int32_t Sec, Nsec;
};

/* Linux's clock ID (linux/time.h) of newlib's \p Clock (time.h), -1 for an
 * ID newlib does not define: the two number their clocks differently
 * (newlib's CLOCK_REALTIME is 1, Linux's CLOCK_MONOTONIC). */
static long linuxClock(clockid_t Clock) {
  static const signed char Linux[] = {
      5, /* CLOCK_REALTIME_COARSE */
      0, /* CLOCK_REALTIME */
      2, /* CLOCK_PROCESS_CPUTIME_ID */
      3, /* CLOCK_THREAD_CPUTIME_ID */
      1, /* CLOCK_MONOTONIC */
      4, /* CLOCK_MONOTONIC_RAW */
      6, /* CLOCK_MONOTONIC_COARSE */
      7, /* CLOCK_BOOTTIME */
      8, /* CLOCK_REALTIME_ALARM */
      9, /* CLOCK_BOOTTIME_ALARM */
  };
  if ((unsigned long)Clock >= sizeof(Linux))
    return -1;
  return Linux[Clock];
}

/* clock_gettime or clock_getres (\p Sys) of Linux's clock \p LinuxClock. */
static int linuxClockCall(long Sys, long LinuxClock, struct timespec *Tp) {
  struct LinuxTimespec32 K;
  if (result(sys3(Sys, LinuxClock, (long)&K, 0)) < 0)
    return -1;
  if (Tp) {
    Tp->tv_sec = K.Sec;
    Tp->tv_nsec = K.Nsec;
  }
  return 0;
}

/* Fails a function the program calls directly (clock_gettime,
 * clock_getres, nanosleep) with \p Err. The OS subroutines above set the
 * global errno, which newlib's reentrant wrappers (_write_r ...) copy into
 * the program's errno (*__errno()); nothing copies it for these. */
static int fail(int Err) {
  errno = Err;
  *__errno() = Err;
  return -1;
}

/* clock_gettime or clock_getres (\p Sys) of newlib's clock \p Clock. */
static int clockCall(long Sys, clockid_t Clock, struct timespec *Tp) {
  long L = linuxClock(Clock);
  if (L < 0)
    return fail(EINVAL);
  if (linuxClockCall(Sys, L, Tp) < 0)
    return fail(errno);
  return 0;
}

int clock_gettime(clockid_t Clock, struct timespec *Tp) {
  return clockCall(SysClockGettime, Clock, Tp);
}

int clock_getres(clockid_t Clock, struct timespec *Res) {
  return clockCall(SysClockGetres, Clock, Res);
}

int nanosleep(const struct timespec *Req, struct timespec *Rem) {
  if (!Req || Req->tv_nsec < 0 || Req->tv_nsec >= 1000000000 ||
      Req->tv_sec < 0 || Req->tv_sec > INT32_MAX)
    return fail(EINVAL);
  struct LinuxTimespec32 K = {(int32_t)Req->tv_sec, (int32_t)Req->tv_nsec};
  struct LinuxTimespec32 R = {0, 0};
  if (result(sys3(SysNanosleep, (long)&K, (long)&R, 0)) < 0) {
    if (Rem) {
      Rem->tv_sec = R.Sec;
      Rem->tv_nsec = R.Nsec;
    }
    return fail(errno);
  }
  return 0;
}

int _gettimeofday(struct timeval *Tv, void *Tz) {
  (void)Tz;
  struct timespec Ts;
  if (linuxClockCall(SysClockGettime, linuxClock(CLOCK_REALTIME), &Ts))
    return -1;
  if (Tv) {
    Tv->tv_sec = Ts.tv_sec;
    Tv->tv_usec = Ts.tv_nsec / 1000;
  }
  return 0;
}

/* Process CPU time in CLOCKS_PER_SEC units (clock() adds the fields);
 * returns monotonic time in the same unit. */
clock_t _times(struct tms *Buf) {
  struct timespec Cpu, Now;
  if (linuxClockCall(SysClockGettime, linuxClock(CLOCK_PROCESS_CPUTIME_ID),
                     &Cpu) ||
      linuxClockCall(SysClockGettime, linuxClock(CLOCK_MONOTONIC), &Now))
    return (clock_t)-1;
  uint64_t PerSec = CLOCKS_PER_SEC;
  if (Buf) {
    Buf->tms_utime = (clock_t)((uint64_t)Cpu.tv_sec * PerSec +
                               (uint64_t)Cpu.tv_nsec * PerSec / 1000000000u);
    Buf->tms_stime = Buf->tms_cutime = Buf->tms_cstime = 0;
  }
  return (clock_t)((uint64_t)Now.tv_sec * PerSec +
                   (uint64_t)Now.tv_nsec * PerSec / 1000000000u);
}

/* Flushes and closes the stdio streams, as newlib's exit does after the
 * atexit handlers (the LWP_HEX_AT_EXIT hook registered below). */
static void stdioCleanup(void) {
  if (_GLOBAL_REENT->__cleanup)
    (*_GLOBAL_REENT->__cleanup)(_GLOBAL_REENT);
}

static void registerStdioCleanup(void) {
  lwp_hex_exit_hook(stdioCleanup, LWP_HEX_AT_EXIT);
}

/* An entry of .preinit_array. */
typedef void (*PreinitFn)(void);

/* Registered in .preinit_array, before every constructor of the program (an
 * exit from one flushes stdio too) and after the LWP runtime registered its
 * dump (lwp_hex_start sets the runtime up first): exit flushes stdio, then
 * writes the dump. Linked with this file, that is with any system call. */
static PreinitFn RegisterStdioCleanup
    __attribute__((used, section(".preinit_array"))) = registerStdioCleanup;
