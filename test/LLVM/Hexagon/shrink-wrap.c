// A function whose only call is conditional (issue 20): Hexagon's frame
// shrink-wrapping puts allocframe around that call alone, and a probe that
// the backend does not see as a call runs before r31 is saved. The probe
// packet keeps r31 (r28 = r31 in the packet, the handler restores it), so
// its call overwrites nothing the function needs: at every optimization
// level, without a frame pointer, in HVX code and with LTO, every probe
// packet copies r31, at -O2 the start probe runs before any frame exists
// (issue 30: the probes give a function no frame of its own), and the
// program runs to its end with the right result and counts each region
// exactly.
// RUN: rm -rf %t && mkdir -p %t
// DEFINE: %{flags} =
// DEFINE: %{check} = %hexagon_cc %{flags} -fpass-plugin=%lwp_llvm_plugin -mllvm -stats-level=100 \
// DEFINE:     -Wno-backend-plugin -S %s -o - | FileCheck %s --check-prefix=ASM && \
// DEFINE:   %hexagon_cc %{flags} -fpass-plugin=%lwp_llvm_plugin -mllvm -stats-level=100 \
// DEFINE:     -Wno-backend-plugin -c %s -o %t/p.o && \
// DEFINE:   %hexagon_link %t/p.o -o %t/p.elf && \
// DEFINE:   env LWP_OUTPUT=%t/p.dump %qemu_hexagon %t/p.elf && \
// DEFINE:   lwp-report %t/p.elf %t/p.dump --format=csv | FileCheck %s --check-prefix=COUNTS
// REDEFINE: %{flags} = -O0
// RUN: %{check}
// REDEFINE: %{flags} = -O1
// RUN: %{check}
// REDEFINE: %{flags} = -O2
// RUN: %{check}
// REDEFINE: %{flags} = -O3
// RUN: %{check}
// REDEFINE: %{flags} = -Os
// RUN: %{check}
// REDEFINE: %{flags} = -Oz
// RUN: %{check}
// REDEFINE: %{flags} = -O2 -fomit-frame-pointer
// RUN: %{check}
// REDEFINE: %{flags} = -O2 -mhvx -mhvx-length=128B
// RUN: %{check}
// With LTO the code is generated at the link, from the lowered probes.
// RUN: %hexagon_cc -flto -fpass-plugin=%lwp_llvm_plugin -mllvm -stats-level=100 \
// RUN:   -Wno-backend-plugin -c %s -o %t/lto.o
// RUN: %hexagon_link --plugin-opt=mcpu=hexagonv67 %t/lto.o -o %t/lto.elf
// RUN: llvm-objdump -d --disassemble-symbols=maybe_call %t/lto.elf | FileCheck %s --check-prefix=LTO
// RUN: %hexagon_cc -O2 -fpass-plugin=%lwp_llvm_plugin -mllvm -stats-level=100 \
// RUN:   -Wno-backend-plugin -S %s -o - | FileCheck %s --check-prefix=O2
// RUN: env LWP_OUTPUT=%t/lto.dump %qemu_hexagon %t/lto.elf
// RUN: lwp-report %t/lto.elf %t/lto.dump --format=csv | FileCheck %s --check-prefix=COUNTS
// LTO-LABEL: <maybe_call>:
// LTO-NOT:   allocframe
// LTO:       call {{.*}} <__lwp_probe_start>
// LTO-NEXT:  r28 = r31

// Every probe packet keeps r31 in r28.
// ASM-LABEL: maybe_call:
// ASM:       call __lwp_probe_start
// ASM-NEXT:  r28 = r31
// ASM:       call __lwp_probe_end
// ASM-NEXT:  r28 = r31
// ASM:       .size maybe_call

// At -O2 the start probe runs without a frame, which only the hook's call
// gets; each path has its own end probe (probes are nomerge: none is hoisted
// above the test of hook), the one without the call runs without a frame.
// O2-LABEL: maybe_call:
// O2-NOT:   allocframe
// O2:       call __lwp_probe_start
// O2-NOT:   allocframe
// O2:       memw(##hook)
// O2-NEXT:  jump:nt [[NOCALL:\.LBB[0-9_]+]]
// O2:       allocframe
// O2:       call __lwp_probe_end
// O2:       callr
// O2:       dealloc_return
// O2:       [[NOCALL]]:
// O2-NEXT:  InlineAsm Start
// O2-NEXT:  {
// O2-NEXT:  call __lwp_probe_end
// O2-NOT:   allocframe
// O2:       jumpr r31
// O2:       .size maybe_call

// maybe_call runs 3 times (hook null once), record twice, main once.
// COUNTS: id,kind,function,depth,height,parent,count,
// COUNTS-DAG: ,function,"maybe_call",,,,3,
// COUNTS-DAG: ,function,"record",,,,2,
// COUNTS-DAG: ,function,"main",,,,1,

typedef void (*fn)(int);
fn hook;
int seen;

__attribute__((noinline)) void maybe_call(int x) {
  fn f = hook;
  if (f)
    f(x);
}

__attribute__((noinline)) void record(int x) { seen += x; }

int main(void) {
  maybe_call(1);
  hook = record;
  maybe_call(2);
  maybe_call(3);
  return seen == 5 ? 0 : 1;
}
