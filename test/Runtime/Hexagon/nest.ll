; End to end: a 10 x 20 loop nest with LWP probes as the Hexagon lowering
; emits them (llvm.hexagon.instrprof.custom), compiled by llc (static and PIC),
; linked with the runtime and run under qemu-hexagon.
;
; RUN: %hexagon_llc %s -o %t.o
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
; RUN: %hexagon_llc -relocation-model=pic %s -o %t.pic.o
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
; A runtime built with num_ids 3: region 3 (and 5000) out of range, every one
; of their records dropped, the count table never written out of bounds.
; RUN: rm -rf %t.ids && mkdir %t.ids
; RUN: %hexagon_cc -DLWP_MAX_IDS=3 -I%lwp_src_root/runtime/common -c %lwp_src_root/runtime/hexagon/lwp_hexagon_runtime.c -o %t.ids/rt.o
; RUN: %hexagon_cc -DLWP_MAX_IDS=3 -c %lwp_src_root/runtime/hexagon/lwp_handler.S -o %t.ids/h.o
; RUN: %hexagon_cc -I%lwp_src_root/runtime/common -c %lwp_src_root/runtime/common/lwp_dump_writer.c -o %t.ids/w.o
; RUN: %hexagon_cc -c %lwp_src_root/runtime/hexagon/lwp_crt0.S -o %t.ids/crt0.o
; RUN: ld.lld -static %t.ids/crt0.o %t.o %t.ids/rt.o %t.ids/h.o %t.ids/w.o -o %t.ids.elf
; RUN: env LWP_OUTPUT=%t.ids.dump %qemu_hexagon %t.ids.elf | FileCheck %s --check-prefix=OUT
; RUN: %dumpdump %t.ids.dump | FileCheck %s --check-prefix=IDS
; IDS: header num_ids=3 cap=100 dropped=402
; IDS: count 0 1
; IDS-NEXT: count 1 1
; IDS-NEXT: count 2 10
; IDS-NEXT: thread 0 records=24
; IDS-NEXT: summary id=0 starts=1 ends=1
; IDS-NEXT: summary id=1 starts=1 ends=1
; IDS-NEXT: summary id=2 starts=10 ends=10
; IDS-NOT: summary
;
; OUT: checksum 60600
;
; CHECK: header version=1 header_size=64 target=3 counter=4 record_size=16 counter_hz=0
; CAP100: header num_ids=4096 cap=100 dropped=202 num_images=1 num_threads=1 probe_pair_cost=8 probe_nested_cost=16
; CAP5: header num_ids=4096 cap=5 dropped=402 num_images=1 num_threads=1 probe_pair_cost=8 probe_nested_cost=16
; CHECK-NEXT: image bias=0 build_id={{[0-9a-f]+}} name={{.*}}elf
; Counts are exact whatever the cap.
; CHECK-NEXT: count 0 1
; CHECK-NEXT: count 1 1
; CHECK-NEXT: count 2 10
; CHECK-NEXT: count 3 200
; CAP100-NEXT: thread 0 records=224
; CAP5-NEXT: thread 0 records=24
; CHECK-NEXT: summary id=0 starts=1 ends=1
; CHECK-NEXT: summary id=1 starts=1 ends=1
; CAP100-NEXT: summary id=2 starts=10 ends=10
; CAP100-NEXT: summary id=3 starts=100 ends=100
; CAP5-NEXT: summary id=2 starts=5 ends=5
; CAP5-NEXT: summary id=3 starts=5 ends=5
; CHECK-NOT: summary
;
; Packets between the start and the end record of each recorded execution
; (QEMU counts packets exactly), as "<executions> pair id=<id> delta=<n>".
; The inner body (region 3) is scheduled into the two probe call packets, so
; each of its pairs costs the calibrated empty pair (8). The inner loop
; (region 2) costs 349 per execution, also after region 3 reached its cap:
; the capped path costs exactly the packets of the recording path. The outer
; regions differ by one packet between static and PIC code.
; PAIRS: 1 pair id=0 delta={{382[23]}}
; PAIRS-NEXT: 1 pair id=1 delta={{359[01]}}
; PAIRS100-NEXT: 10 pair id=2 delta=349
; PAIRS5-NEXT: 5 pair id=2 delta=349
; PAIRS100-NEXT: 100 pair id=3 delta=8
; PAIRS5-NEXT: 5 pair id=3 delta=8
; PAIRS-NOT: pair
;
; With cap 5: the first 5 executions of each region recorded whole, in
; execution order; every start of region 3 has the same site, every end
; another one.
; REC: record 0 S id=0 site=[[F0:[0-9a-f]+]]
; REC-NEXT: record 1 S id=1 site=[[L1:[0-9a-f]+]]
; REC-NEXT: record 2 S id=2 site=[[L2:[0-9a-f]+]]
; REC-NEXT: record 3 S id=3 site=[[S3:[0-9a-f]+]]
; REC-NEXT: record 4 E id=3 site=[[E3:[0-9a-f]+]]
; REC-NEXT: record 5 S id=3 site=[[S3]]
; REC-NEXT: record 6 E id=3 site=[[E3]]
; REC-NEXT: record 7 S id=3 site=[[S3]]
; REC-NEXT: record 8 E id=3 site=[[E3]]
; REC-NEXT: record 9 S id=3 site=[[S3]]
; REC-NEXT: record 10 E id=3 site=[[E3]]
; REC-NEXT: record 11 S id=3 site=[[S3]]
; REC-NEXT: record 12 E id=3 site=[[E3]]
; REC-NEXT: record 13 E id=2 site=[[E2:[0-9a-f]+]]
; REC-NEXT: record 14 S id=2 site=[[L2]]
; REC-NEXT: record 15 E id=2 site=[[E2]]
; REC-NEXT: record 16 S id=2 site=[[L2]]
; REC-NEXT: record 17 E id=2 site=[[E2]]
; REC-NEXT: record 18 S id=2 site=[[L2]]
; REC-NEXT: record 19 E id=2 site=[[E2]]
; REC-NEXT: record 20 S id=2 site=[[L2]]
; REC-NEXT: record 21 E id=2 site=[[E2]]
; REC-NEXT: record 22 E id=1 site=
; REC-NEXT: record 23 E id=0 site=
; REC-NEXT: summary
;
; The kernel:
;   region 0  function @kernel           1 execution
;   region 1  outer loop (10 trips)      1 execution
;   region 2  inner loop (20 trips)     10 executions
;   region 3  inner loop body          200 executions
;   region 5000 (>= num_ids 4096)        1 execution: both records dropped
; @main prints the kernel's checksum and returns 0.
target triple = "hexagon-unknown-linux-musl"

@start = internal constant [18 x i8] c"__lwp_probe_start\00"
@end = internal constant [16 x i8] c"__lwp_probe_end\00"
@a = global [200 x i32] zeroinitializer, align 8
@msg = private constant [10 x i8] c"checksum \00"

declare void @llvm.hexagon.instrprof.custom(ptr, i32)
declare void @lwp_hex_puts(i32, ptr)
declare void @lwp_hex_put_dec(i32, i64)
declare void @lwp_hex_put_char(i32, i8)

define i32 @kernel() noinline {
entry:
  call void @llvm.hexagon.instrprof.custom(ptr @start, i32 0)
  call void @llvm.hexagon.instrprof.custom(ptr @start, i32 1)
  br label %outer

outer:
  %i = phi i32 [ 0, %entry ], [ %i.next, %outer.latch ]
  call void @llvm.hexagon.instrprof.custom(ptr @start, i32 2)
  br label %inner

inner:
  %j = phi i32 [ 0, %outer ], [ %j.next, %inner ]
  call void @llvm.hexagon.instrprof.custom(ptr @start, i32 3)
  %row = mul i32 %i, 20
  %idx = add i32 %row, %j
  %p = getelementptr inbounds [200 x i32], ptr @a, i32 0, i32 %idx
  %v = mul i32 %idx, 3
  %w = add i32 %v, %i
  store volatile i32 %w, ptr %p, align 4
  call void @llvm.hexagon.instrprof.custom(ptr @end, i32 3)
  %j.next = add nuw nsw i32 %j, 1
  %j.done = icmp eq i32 %j.next, 20
  br i1 %j.done, label %outer.latch, label %inner

outer.latch:
  call void @llvm.hexagon.instrprof.custom(ptr @end, i32 2)
  %i.next = add nuw nsw i32 %i, 1
  %i.done = icmp eq i32 %i.next, 10
  br i1 %i.done, label %sum, label %outer

sum:
  call void @llvm.hexagon.instrprof.custom(ptr @end, i32 1)
  call void @llvm.hexagon.instrprof.custom(ptr @start, i32 5000)
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
  call void @llvm.hexagon.instrprof.custom(ptr @end, i32 5000)
  call void @llvm.hexagon.instrprof.custom(ptr @end, i32 0)
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
