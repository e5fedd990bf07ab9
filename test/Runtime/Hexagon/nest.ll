; End to end: a 10 x 20 loop nest with LWP probes in the probe form of
; lwp-instrument, lowered for Hexagon by lwp-lower (one packet
; { r28 = r31; r14 = ##slot; call handler } a probe, the map and its slots, the
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
; Exact figures whatever the cap, the buffer and the journal: with cap 1
; (every region past its cap after one execution), with a runtime rebuilt
; with an 8-record buffer (full at once), and with a journal replayed after
; every probe or every 3 (LWP_HEXAGON_JOURNAL: the replays' time is taken
; out of the figures), the region table and the top-level figures equal, to
; the packet, those of a run that recorded everything; and those equal the
; figures computed from its records. (The handlers only journal the probe:
; the same packets whatever the cap and the buffer.)
; RUN: env LWP_OUTPUT=%t.all.dump LWP_CAP=100000 %qemu_hexagon %t.elf | FileCheck %s --check-prefix=OUT
; RUN: env LWP_OUTPUT=%t.c1.dump LWP_CAP=1 %qemu_hexagon %t.elf | FileCheck %s --check-prefix=OUT
; RUN: %dumpdump %t.all.dump --figures-only --nonzero-counts > %t.all.figures
; RUN: %dumpdump %t.all.dump --figures-only --nonzero-counts --from-records > %t.records.figures
; RUN: %dumpdump %t.c1.dump --figures-only --nonzero-counts > %t.c1.figures
; RUN: diff %t.all.figures %t.records.figures
; RUN: diff %t.all.figures %t.c1.figures
; RUN: env LWP_OUTPUT=%t.j1.dump LWP_CAP=100000 LWP_HEXAGON_JOURNAL=1 %qemu_hexagon %t.elf | FileCheck %s --check-prefix=OUT
; RUN: %dumpdump %t.j1.dump --figures-only --nonzero-counts > %t.j1.figures
; RUN: diff %t.all.figures %t.j1.figures
; RUN: env LWP_OUTPUT=%t.j3.dump LWP_CAP=1 LWP_HEXAGON_JOURNAL=3 %qemu_hexagon %t.elf | FileCheck %s --check-prefix=OUT
; RUN: %dumpdump %t.j3.dump --figures-only --nonzero-counts > %t.j3.figures
; RUN: diff %t.all.figures %t.j3.figures
; RUN: rm -rf %t.small && mkdir %t.small
; RUN: %hexagon_cc -DLWP_BUFFER_RECORDS=8 -I%lwp_src_root/runtime/common -c %lwp_src_root/runtime/hexagon/lwp_hexagon_runtime.c -o %t.small/rt.o
; RUN: %hexagon_cc -c %lwp_src_root/runtime/hexagon/lwp_handler.S -o %t.small/h.o
; RUN: %hexagon_cc -I%lwp_src_root/runtime/common -c %lwp_src_root/runtime/common/lwp_dump_writer.c -o %t.small/w.o
; RUN: %hexagon_cc -c %lwp_src_root/runtime/hexagon/lwp_crt0.S -o %t.small/crt0.o
; RUN: ld.lld -static %t.small/crt0.o %t.o %t.small/rt.o %t.small/h.o %t.small/w.o %lwp_hexagon_lib -o %t.small.elf
; RUN: env LWP_OUTPUT=%t.small.dump LWP_CAP=100000 %qemu_hexagon %t.small.elf | FileCheck %s --check-prefix=OUT
; RUN: %dumpdump %t.small.dump --figures-only --nonzero-counts > %t.small.figures
; RUN: diff %t.all.figures %t.small.figures
; RUN: FileCheck %s --check-prefix=FIG < %t.all.figures
; FIG:      count 1 1
; FIG-NEXT: count 2 1
; FIG-NEXT: count 3 10
; FIG-NEXT: count 4 200
; FIG-NEXT: region 1 total=635 self=203 nested=422 children=1 outer=1 unwound=0
; FIG-NEXT: region 2 total=432 self=12 nested=420 children=10 outer=1 unwound=0
; FIG-NEXT: region 3 total=420 self=220 nested=400 children=200 outer=10 unwound=0
; FIG-NEXT: region 4 total=200 self=200 nested=0 children=0 outer=200 unwound=0
; FIG-NEXT: thread 0 top_cycles=635 top_instances=1 top_nested=422
;
; Without compensation (LWP_COMPENSATE=0) the same run as read: every
; instance longer by 6 packets (a probe) for each probe inside it and one
; for its own two; the header then holds the calibrated costs.
; RUN: env LWP_OUTPUT=%t.raw.dump LWP_CAP=100000 LWP_COMPENSATE=0 %qemu_hexagon %t.elf | FileCheck %s --check-prefix=OUT
; RUN: %dumpdump %t.raw.dump --nonzero-counts | FileCheck %s --check-prefix=RAW
; RAW: probe_pair_cost=6 probe_nested_cost=12
; RAW: flags=1
; RAW: region 1 total=3173 self=215 nested=422 children=1 outer=1 unwound=0
; RAW-NEXT: region 2 total=2958 self=78 nested=420 children=10 outer=1 unwound=0
; RAW-NEXT: region 3 total=2880 self=1480 nested=400 children=200 outer=10 unwound=0
; RAW-NEXT: region 4 total=1400 self=1400 nested=0 children=0 outer=200 unwound=0
; RAW-NEXT: thread 0 records=424 top_cycles=3173 top_instances=1 top_nested=422
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
; CHECK: header version=4 header_size=80 target=3 counter=4 record_size=24 counter_hz=0
; Compensated figures (flags 5): nothing left for a reader to subtract.
; CAP100: header num_ids=5 cap=100 dropped=200 num_images=1 num_threads=1 probe_pair_cost=0 probe_nested_cost=0
; CAP5: header num_ids=5 cap=5 dropped=400 num_images=1 num_threads=1 probe_pair_cost=0 probe_nested_cost=0
; CHECK-NEXT: header num_modules=1 flags=5 pid=set
; CHECK-NEXT: image bias=0 build_id={{[0-9a-f]+}} name={{.*}}elf
; The module registered its four regions as IDs 1-4 (ID 0 is never a region).
; CHECK-NEXT: module 0 image=0 blob={{[0-9a-f]+}} first_id=1 num_regions=4
; Counts and figures are exact whatever the cap, in compensated time (each
; probe's 6 packets taken out of every instance it ran in). Region 4 (the
; body) takes 1 packet an execution (the body's; 7 as read: its own two
; probes, 6), region 3 (the inner loop) 42 (288 as read: 20 pairs inside and
; its own two probes, 41 x 6); the outer regions (function and outer loop)
; two packets more in PIC code than in static code.
; CHECK-NEXT: count 1 1
; CHECK-NEXT: count 2 1
; CHECK-NEXT: count 3 10
; CHECK-NEXT: count 4 200
; CHECK-NEXT: region 1 total=[[#T1:]]
; CHECK-SAME: self=203 nested=422 children=1 outer=1 unwound=0
; CHECK-NEXT: region 2 total=[[#T1-203]] self=[[#T1-623]] nested=420 children=10 outer=1 unwound=0
; CHECK-NEXT: region 3 total=420 self=220 nested=400 children=200 outer=10 unwound=0
; CHECK-NEXT: region 4 total=200 self=200 nested=0 children=0 outer=200 unwound=0
; CAP100-NEXT: thread 0 records=224 top_cycles=[[#T1]] top_instances=1 top_nested=422
; CAP5-NEXT: thread 0 records=24 top_cycles=[[#T1]] top_instances=1 top_nested=422
; CHECK-NEXT: summary id=1 starts=1 ends=1
; CHECK-NEXT: summary id=2 starts=1 ends=1
; CAP100-NEXT: summary id=3 starts=10 ends=10
; CAP100-NEXT: summary id=4 starts=100 ends=100
; CAP5-NEXT: summary id=3 starts=5 ends=5
; CAP5-NEXT: summary id=4 starts=5 ends=5
; CHECK-NOT: summary
;
; Packets between the start and the end record of each recorded execution
; (QEMU counts packets exactly; records are in compensated time too), as
; "<executions> pair id=<id> delta=<n>": the same as the exact figures
; above, the recorded instances' figures corrected for every probe inside
; them, recorded or not. Each pair of the inner body (region 4) costs the
; one packet of the body (a probe is an inline-asm packet, which nothing is
; scheduled into). The inner loop (region 3) costs 42 per execution, also
; after region 4 reached its cap: the handlers take the same packets past
; the cap.
; PAIRS: 1 pair id=1 delta={{63(5|7)}}
; PAIRS-NEXT: 1 pair id=2 delta={{43(2|4)}}
; PAIRS100-NEXT: 10 pair id=3 delta=42
; PAIRS5-NEXT: 5 pair id=3 delta=42
; PAIRS100-NEXT: 100 pair id=4 delta=1
; PAIRS5-NEXT: 5 pair id=4 delta=1
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
