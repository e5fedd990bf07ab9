//===- lwp_libcxx_chrono.cpp - std::chrono's clocks -----------------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// std::chrono::system_clock (CLOCK_REALTIME) and steady_clock
// (CLOCK_MONOTONIC; high_resolution_clock is the same class) over the C
// library's clock_gettime (newlib's, through LWP's system calls:
// docs/hexagon-runtime.md, "The C library"), as libc++'s src/chrono.cpp.
//
//===----------------------------------------------------------------------===//
#include <chrono>
#include <ctime>

_LIBCPP_BEGIN_NAMESPACE_STD
namespace chrono {

namespace {
nanoseconds readClock(clockid_t Clock) {
  struct timespec T = {0, 0};
  clock_gettime(Clock, &T);
  return seconds(T.tv_sec) + nanoseconds(T.tv_nsec);
}
} // namespace

system_clock::time_point system_clock::now() noexcept {
  return time_point(duration_cast<duration>(readClock(CLOCK_REALTIME)));
}

time_t system_clock::to_time_t(const time_point &T) noexcept {
  return time_t(duration_cast<seconds>(T.time_since_epoch()).count());
}

system_clock::time_point system_clock::from_time_t(time_t T) noexcept {
  return system_clock::time_point(seconds(T));
}

steady_clock::time_point steady_clock::now() noexcept {
  return time_point(readClock(CLOCK_MONOTONIC));
}

} // namespace chrono
_LIBCPP_END_NAMESPACE_STD
