//===- lwp_cxxabi_rtti.cpp - type_info classes and dynamic_cast ------------===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
//===----------------------------------------------------------------------===//
//
// RTTI for Hexagon C++ programs (docs/hexagon-runtime.md, "C++"), which
// have no libc++abi: the classes of the Itanium C++ ABI (section 2.9.5)
// whose vtables the compiler's type_info objects point to (every polymorphic
// class compiled with -frtti has one, so a program with a virtual function
// links only if they are defined), std::type_info's destructor, the
// type_info objects of the fundamental types (typeid(int)), __dynamic_cast
// (dynamic_cast between classes), and __cxa_bad_cast / __cxa_bad_typeid
// (a failed dynamic_cast of a reference, typeid of a null pointer: one line
// on stderr and abort, as there are no exceptions).
//
// The data members are the ABI's, which the compiler emits; the one
// virtual function besides the destructor, walkBases, is this file's own
// (the vtables are defined here), used by __dynamic_cast to go through a
// class's bases.
//
//===----------------------------------------------------------------------===//
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <typeinfo>

namespace {
struct CastSearch;
} // namespace

namespace __cxxabiv1 {

class __class_type_info;

// Fundamental types (int, char *, const double * ...): no data. The
// translation unit that defines its vtable also gets, from the compiler,
// the type_info objects of every fundamental type and of the pointers to
// them (Itanium ABI 2.9.4): this one.
class __fundamental_type_info : public std::type_info {
public:
  ~__fundamental_type_info() override;
};

class __array_type_info : public std::type_info {
public:
  ~__array_type_info() override;
};

class __function_type_info : public std::type_info {
public:
  ~__function_type_info() override;
};

class __enum_type_info : public std::type_info {
public:
  ~__enum_type_info() override;
};

// A class without bases.
class __class_type_info : public std::type_info {
public:
  ~__class_type_info() override;
  // Visits the bases of this class's subobject at Obj (below).
  virtual void walkBases(CastSearch &Search, const char *Obj, bool Public,
                         const char *Dst, bool DstPublic) const;
};

// A class with one public, non-virtual base at offset 0.
class __si_class_type_info : public __class_type_info {
public:
  ~__si_class_type_info() override;
  void walkBases(CastSearch &Search, const char *Obj, bool Public,
                 const char *Dst, bool DstPublic) const override;

  const __class_type_info *__base_type;
};

// One base of a __vmi_class_type_info.
struct __base_class_type_info {
  const __class_type_info *__base_type;
  // Above __offset_shift: the base's offset (non-virtual base), or where
  // the vtable holds its offset (virtual base); below: the flags.
  long __offset_flags;

  enum __offset_flags_masks {
    __virtual_mask = 0x1,
    __public_mask = 0x2,
    __offset_shift = 8
  };
};

// A class with any other bases (several, virtual, non-public, not at 0).
class __vmi_class_type_info : public __class_type_info {
public:
  ~__vmi_class_type_info() override;
  void walkBases(CastSearch &Search, const char *Obj, bool Public,
                 const char *Dst, bool DstPublic) const override;

  unsigned int __flags;
  unsigned int __base_count;
  __base_class_type_info __base_info[1];
};

// Pointers and pointers to members.
class __pbase_type_info : public std::type_info {
public:
  ~__pbase_type_info() override;

  unsigned int __flags;
  const std::type_info *__pointee;
};

class __pointer_type_info : public __pbase_type_info {
public:
  ~__pointer_type_info() override;
};

class __pointer_to_member_type_info : public __pbase_type_info {
public:
  ~__pointer_to_member_type_info() override;

  const __class_type_info *__context;
};

// The key functions: their vtables (and the fundamental types' type_info
// objects) are emitted here.
__fundamental_type_info::~__fundamental_type_info() {}
__array_type_info::~__array_type_info() {}
__function_type_info::~__function_type_info() {}
__enum_type_info::~__enum_type_info() {}
__class_type_info::~__class_type_info() {}
__si_class_type_info::~__si_class_type_info() {}
__vmi_class_type_info::~__vmi_class_type_info() {}
__pbase_type_info::~__pbase_type_info() {}
__pointer_type_info::~__pointer_type_info() {}
__pointer_to_member_type_info::~__pointer_to_member_type_info() {}

} // namespace __cxxabiv1

// libc++'s <typeinfo> declares it; its compiled library would define it.
std::type_info::~type_info() {}

using namespace __cxxabiv1;

namespace {

// What __dynamic_cast looks for in the most derived object's class tree:
// the subobject it was given (Src, of type SrcType) and the subobjects of
// the destination type.
struct CastSearch {
  const char *Src;
  const __class_type_info *SrcType;
  const __class_type_info *DstType;
  // The Src subobject is reached by a public path from the most derived
  // object (it is a public base of it).
  bool SrcPublic = false;
  // The first DstType subobject met; whether some path to it is public;
  // whether there is another one (at another address).
  const char *Dst = nullptr;
  bool DstPublic = false;
  bool DstAmbiguous = false;
  // The first DstType subobject that has Src as a public base; whether
  // there is another one.
  const char *Down = nullptr;
  bool DownAmbiguous = false;
};

// Visits the subobject of type T at Obj: Public when every step from the
// most derived object to it goes to a public base; Dst the innermost
// DstType subobject on the way (or null) and DstPublic whether every step
// from there is public. A virtual base shared by several paths is visited
// once a path; its address tells that it is one subobject.
void visit(CastSearch &S, const __class_type_info *T, const char *Obj,
           bool Public, const char *Dst, bool DstPublic) {
  if (*T == *S.DstType) {
    if (!S.Dst)
      S.Dst = Obj;
    else if (S.Dst != Obj)
      S.DstAmbiguous = true;
    if (S.Dst == Obj && Public)
      S.DstPublic = true;
    Dst = Obj;
    DstPublic = true;
  }
  if (Obj == S.Src && *T == *S.SrcType) {
    if (Public)
      S.SrcPublic = true;
    if (Dst && DstPublic) {
      if (!S.Down)
        S.Down = Dst;
      else if (S.Down != Dst)
        S.DownAmbiguous = true;
    }
  }
  T->walkBases(S, Obj, Public, Dst, DstPublic);
}

} // namespace

void __class_type_info::walkBases(CastSearch &, const char *, bool,
                                  const char *, bool) const {}

void __si_class_type_info::walkBases(CastSearch &S, const char *Obj,
                                     bool Public, const char *Dst,
                                     bool DstPublic) const {
  visit(S, __base_type, Obj, Public, Dst, DstPublic);
}

void __vmi_class_type_info::walkBases(CastSearch &S, const char *Obj,
                                      bool Public, const char *Dst,
                                      bool DstPublic) const {
  for (unsigned I = 0; I != __base_count; ++I) {
    const __base_class_type_info &B = __base_info[I];
    std::ptrdiff_t Offset =
        B.__offset_flags >> __base_class_type_info::__offset_shift;
    if (B.__offset_flags & __base_class_type_info::__virtual_mask) {
      // The vtable of this subobject holds the virtual base's offset at
      // Offset (a negative byte offset from its address point).
      const char *VTable = *reinterpret_cast<const char *const *>(Obj);
      Offset = *reinterpret_cast<const std::ptrdiff_t *>(VTable + Offset);
    }
    bool BasePublic = B.__offset_flags & __base_class_type_info::__public_mask;
    visit(S, B.__base_type, Obj + Offset, Public && BasePublic, Dst,
          DstPublic && BasePublic);
  }
}

// dynamic_cast<Dst *>(Src) for classes (the compiler handles upcasts and
// dynamic_cast<void *> itself), as C++ [expr.dynamic.cast] says: if Src is a
// public base of exactly one Dst subobject, that one (a downcast);
// otherwise, if Src is a public base of the most derived object and that
// object has exactly one Dst subobject and it is public, that one (a cross
// cast); otherwise null. The hint (Src's offset in Dst when the compiler
// knows it) is not used: the whole tree is searched.
extern "C" void *__dynamic_cast(const void *Src,
                                const __class_type_info *SrcType,
                                const __class_type_info *DstType,
                                std::ptrdiff_t) {
  // The vtable's offset-to-top and type_info entries give the most derived
  // object and its type.
  const char *VTable = *static_cast<const char *const *>(Src);
  std::ptrdiff_t OffsetToTop =
      reinterpret_cast<const std::ptrdiff_t *>(VTable)[-2];
  const __class_type_info *Type =
      reinterpret_cast<const __class_type_info *const *>(VTable)[-1];
  const char *Top = static_cast<const char *>(Src) + OffsetToTop;

  CastSearch S;
  S.Src = static_cast<const char *>(Src);
  S.SrcType = SrcType;
  S.DstType = DstType;
  visit(S, Type, Top, true, nullptr, false);
  if (S.Down && !S.DownAmbiguous)
    return const_cast<char *>(S.Down);
  if (S.SrcPublic && S.Dst && !S.DstAmbiguous && S.DstPublic)
    return const_cast<char *>(S.Dst);
  return nullptr;
}

// No exceptions: std::bad_cast and std::bad_typeid end the program.
extern "C" [[noreturn]] void __cxa_bad_cast() {
  std::fputs("lwp: std::bad_cast: a dynamic_cast of a reference failed "
             "(no C++ exceptions on Hexagon)\n",
             stderr);
  std::abort();
}

extern "C" [[noreturn]] void __cxa_bad_typeid() {
  std::fputs("lwp: std::bad_typeid: typeid of a null pointer "
             "(no C++ exceptions on Hexagon)\n",
             stderr);
  std::abort();
}
