//===- lwp_cxxabi_atexit.cpp - Destructors of static objects --------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// __cxa_atexit and __dso_handle (Itanium C++ ABI 3.3.5): the compiler
// registers the destructor of each static object with __cxa_atexit(dtor,
// object, &__dso_handle) once the object is constructed.
//
// Registered in newlib's list of atexit handlers (__register_exitproc, type
// __et_cxa), which the process layer's exit runs first
// (lwp_hexagon_process.c: newlib's __call_exitprocs, then .fini_array, then
// the exit hooks: stdio clean-up and the LWP dump): the destructors run in
// the reverse order of the constructions, interleaved with atexit handlers
// by registration, as C++ [basic.start.term] says, before C destructors
// (__attribute__((destructor))) and before the dump.
//
// newlib's own __cxa_atexit (cxa_atexit.c) is not used: built with
// _LITE_EXIT, it references __register_exitproc weakly and silently
// registers nothing unless the program also calls atexit. This one
// references it strongly, which links newlib's atexit machinery (__atexit.c,
// and through it __call_exitprocs). Link liblwp_cxx.a before libc.a.
//
//===----------------------------------------------------------------------===//

extern "C" {

// The image's handle; a static program is one image.
__attribute__((visibility("hidden"))) void *__dso_handle = &__dso_handle;

// newlib's (libc/stdlib/__atexit.c); 2 is __et_cxa (libc/stdlib/atexit.h):
// Fn is called with Arg.
int __register_exitproc(int Type, void (*Fn)(void), void *Arg, void *Dso);

int __cxa_atexit(void (*Fn)(void *), void *Arg, void *Dso) {
  return __register_exitproc(2, reinterpret_cast<void (*)(void)>(Fn), Arg,
                             Dso);
}

} // extern "C"
