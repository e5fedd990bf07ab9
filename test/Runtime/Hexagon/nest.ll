; End to end: a 10 x 20 loop nest with LWP probes in the probe form of
; lwp-instrument, lowered for Hexagon by lwp-lower (one packet
; { r0 = ##slot; call handler } a probe, the map and its slots, the
; registering constructor), compiled by llc (static and PIC), linked with the
; runtime and run under qemu-hexagon.
;
; RUN: opt -load-pass-plugin=%lwp_llvm_plugin -passes=lwp-lower %s -S -o %t.ll
; RUN: %hexagon_llc %t.ll -o %t.o
; RUN: %hexagon_link %t.o -o %t.elf
; RUN: env LWP_OUTPUT=%t.dump %qemu_hexagon %t.elf | FileCheck %s --check-prefix=OUT
; RUN: %dumpdump %t.dump --nonzero-counts | FileCheck %s --check-prefixes=CHECK,CAP100
; RUN: %dumpdump %t.dump --pairs | grep '^pair' | sort | uniq -c | FileCheck %s --check-prefixes=PAIRS,PAIRS100
; RUN: env LWP_OUTPUT=%t.cap.dump LWP_CAP=5 %qemu_hexagon %t.elf | FileCheck %s --check-prefix=OUT
; RUN: %dumpdump %t.cap.dump --nonzero-counts | FileCheck %s --check-prefixes=CHECK,CAP5
; RUN: %dumpdump %t.cap.dump --pairs | grep '^pair' | sort | uniq -c | FileCheck %s --check-prefixes=PAIRS,PAIRS5
; RUN: %dumpdump %t.cap.dump --nonzero-counts --records | FileCheck %s --check-prefix=REC
;
; PIC code: same counts, same packet figures.
; RUN: %hexagon_llc -relocation-model=pic %t.ll -o %t.pic.o
; RUN: %hexagon_link %t.pic.o -o %t.pic.elf
; RUN: env LWP_OUTPUT=%t.pic.dump %qemu_hexagon %t.pic.elf | FileCheck %s --check-prefix=OUT
; RUN: %dumpdump %t.pic.dump --nonzero-counts | FileCheck %s --check-prefixes=CHECK,CAP100
; RUN: %dumpdump %t.pic.dump --pairs | grep '^pair' | sort | uniq -c | FileCheck %s --check-prefixes=PAIRS,PAIRS100
;
; Default dump path: lwp.dump in the current directory; an empty LWP_OUTPUT
; writes none.
; RUN: rm -rf %t.dir && mkdir %t.dir && cd %t.dir && %qemu_hexagon %t.elf
; RUN: %dumpdump %t.dir/lwp.dump --nonzero-counts | FileCheck %s --check-prefixes=CHECK,CAP100
; RUN: rm -rf %t.dir2 && mkdir %t.dir2 && cd %t.dir2 && env LWP_OUTPUT= %qemu_hexagon %t.elf
; RUN: not ls %t.dir2/lwp.dump
;
; OUT: checksum 60600
;
; CHECK: header version=2 header_size=80 target=3 counter=4 record_size=16 counter_hz=0
; CAP100: header num_ids=5 cap=100 dropped=200 num_images=1 num_threads=1 probe_pair_cost=7 probe_nested_cost=14
; CAP5: header num_ids=5 cap=5 dropped=400 num_images=1 num_threads=1 probe_pair_cost=7 probe_nested_cost=14
; CHECK-NEXT: header num_modules=1 flags=0 pid=set
; CHECK-NEXT: image bias=0 build_id={{[0-9a-f]+}} name={{.*}}elf
; The module registered its four regions as IDs 1-4 (ID 0 is never a region).
; CHECK-NEXT: module 0 image=0 blob={{[0-9a-f]+}} first_id=1 num_regions=4
; Counts are exact whatever the cap.
; CHECK-NEXT: count 1 1
; CHECK-NEXT: count 2 1
; CHECK-NEXT: count 3 10
; CHECK-NEXT: count 4 200
; CAP100-NEXT: thread 0 records=224
; CAP5-NEXT: thread 0 records=24
; CHECK-NEXT: summary id=1 starts=1 ends=1
; CHECK-NEXT: summary id=2 starts=1 ends=1
; CAP100-NEXT: summary id=3 starts=10 ends=10
; CAP100-NEXT: summary id=4 starts=100 ends=100
; CAP5-NEXT: summary id=3 starts=5 ends=5
; CAP5-NEXT: summary id=4 starts=5 ends=5
; CHECK-NOT: summary
;
; Packets between the start and the end record of each recorded execution
; (QEMU counts packets exactly), as "<executions> pair id=<id> delta=<n>".
; Each pair of the inner body (region 4) costs the calibrated empty pair (7)
; plus the one packet of the body (a probe is an inline-asm packet, which
; nothing is scheduled into). The inner loop (region 3) costs 329 per
; execution, also after region 4 reached its cap: the capped path costs
; exactly the packets of the recording path. The outer regions take two
; packets more in PIC code (3598 and 3381) than in static code.
; PAIRS: 1 pair id=1 delta={{359[68]}}
; PAIRS-NEXT: 1 pair id=2 delta={{33(79|81)}}
; PAIRS100-NEXT: 10 pair id=3 delta=329
; PAIRS5-NEXT: 5 pair id=3 delta=329
; PAIRS100-NEXT: 100 pair id=4 delta=8
; PAIRS5-NEXT: 5 pair id=4 delta=8
; PAIRS-NOT: pair
;
; With cap 5: the first 5 executions of each region recorded whole, in
; execution order; every start of region 3 has the same site, every end
; another one.
; REC: record 0 S id=1 site=[[F0:[0-9a-f]+]]
; REC-NEXT: record 1 S id=2 site=[[L1:[0-9a-f]+]]
; REC-NEXT: record 2 S id=3 site=[[L2:[0-9a-f]+]]
; REC-NEXT: record 3 S id=4 site=[[S3:[0-9a-f]+]]
; REC-NEXT: record 4 E id=4 site=[[E3:[0-9a-f]+]]
; REC-NEXT: record 5 S id=4 site=[[S3]]
; REC-NEXT: record 6 E id=4 site=[[E3]]
; REC-NEXT: record 7 S id=4 site=[[S3]]
; REC-NEXT: record 8 E id=4 site=[[E3]]
; REC-NEXT: record 9 S id=4 site=[[S3]]
; REC-NEXT: record 10 E id=4 site=[[E3]]
; REC-NEXT: record 11 S id=4 site=[[S3]]
; REC-NEXT: record 12 E id=4 site=[[E3]]
; REC-NEXT: record 13 E id=3 site=[[E2:[0-9a-f]+]]
; REC-NEXT: record 14 S id=3 site=[[L2]]
; REC-NEXT: record 15 E id=3 site=[[E2]]
; REC-NEXT: record 16 S id=3 site=[[L2]]
; REC-NEXT: record 17 E id=3 site=[[E2]]
; REC-NEXT: record 18 S id=3 site=[[L2]]
; REC-NEXT: record 19 E id=3 site=[[E2]]
; REC-NEXT: record 20 S id=3 site=[[L2]]
; REC-NEXT: record 21 E id=3 site=[[E2]]
; REC-NEXT: record 22 E id=2 site=
; REC-NEXT: record 23 E id=1 site=
; REC-NEXT: summary
;
; The kernel:
;   region 0  function @kernel           1 execution   (ID 1 at run time)
;   region 1  outer loop (10 trips)      1 execution   (ID 2)
;   region 2  inner loop (20 trips)     10 executions  (ID 3)
;   region 3  inner loop body          200 executions  (ID 4)
; @main prints the kernel's checksum and returns 0.
target triple = "hexagon-unknown-linux-musl"

@a = global [200 x i32] zeroinitializer, align 8
@msg = private constant [10 x i8] c"checksum \00"

declare void @__lwp_probe_start(i32)
declare void @__lwp_probe_end(i32)
declare void @lwp_hex_puts(i32, ptr)
declare void @lwp_hex_put_dec(i32, i64)
declare void @lwp_hex_put_char(i32, i8)

define i32 @kernel() noinline {
entry:
  call void @__lwp_probe_start(i32 0)
  call void @__lwp_probe_start(i32 1)
  br label %outer

outer:
  %i = phi i32 [ 0, %entry ], [ %i.next, %outer.latch ]
  call void @__lwp_probe_start(i32 2)
  br label %inner

inner:
  %j = phi i32 [ 0, %outer ], [ %j.next, %inner ]
  call void @__lwp_probe_start(i32 3)
  %row = mul i32 %i, 20
  %idx = add i32 %row, %j
  %p = getelementptr inbounds [200 x i32], ptr @a, i32 0, i32 %idx
  %v = mul i32 %idx, 3
  %w = add i32 %v, %i
  store volatile i32 %w, ptr %p, align 4
  call void @__lwp_probe_end(i32 3)
  %j.next = add nuw nsw i32 %j, 1
  %j.done = icmp eq i32 %j.next, 20
  br i1 %j.done, label %outer.latch, label %inner

outer.latch:
  call void @__lwp_probe_end(i32 2)
  %i.next = add nuw nsw i32 %i, 1
  %i.done = icmp eq i32 %i.next, 10
  br i1 %i.done, label %sum, label %outer

sum:
  call void @__lwp_probe_end(i32 1)
  br label %sum.loop

sum.loop:
  %k = phi i32 [ 0, %sum ], [ %k.next, %sum.loop ]
  %s = phi i32 [ 0, %sum ], [ %s.next, %sum.loop ]
  %q = getelementptr inbounds [200 x i32], ptr @a, i32 0, i32 %k
  %x = load volatile i32, ptr %q, align 4
  %s.next = add i32 %s, %x
  %k.next = add nuw nsw i32 %k, 1
  %k.done = icmp eq i32 %k.next, 200
  br i1 %k.done, label %exit, label %sum.loop

exit:
  call void @__lwp_probe_end(i32 0)
  ret i32 %s.next
}

define i32 @main(i32 %argc, ptr %argv) {
  %r = call i32 @kernel()
  call void @lwp_hex_puts(i32 1, ptr @msg)
  %r64 = sext i32 %r to i64
  call void @lwp_hex_put_dec(i32 1, i64 %r64)
  call void @lwp_hex_put_char(i32 1, i8 10)
  ret i32 0
}

!lwp.instrumentation_map = !{!0}
!0 = !{i32 1, !"{\22version\22: 1, \22regions\22: [{\22id\22: 0, \22kind\22: \22function\22, \22function\22: \22kernel\22, \22depth\22: null, \22height\22: null, \22parent\22: null, \22file\22: \22nest.c\22, \22line\22: 1, \22column\22: 1}, {\22id\22: 1, \22kind\22: \22loop\22, \22function\22: \22kernel\22, \22depth\22: 0, \22height\22: 2, \22parent\22: 0, \22file\22: \22nest.c\22, \22line\22: 2, \22column\22: 3}, {\22id\22: 2, \22kind\22: \22loop\22, \22function\22: \22kernel\22, \22depth\22: 1, \22height\22: 1, \22parent\22: 1, \22file\22: \22nest.c\22, \22line\22: 3, \22column\22: 5}, {\22id\22: 3, \22kind\22: \22loop\22, \22function\22: \22kernel\22, \22depth\22: 2, \22height\22: 0, \22parent\22: 2, \22file\22: \22nest.c\22, \22line\22: 4, \22column\22: 7}]}"}
