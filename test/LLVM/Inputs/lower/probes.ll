; Instrumented IR as lwp-instrument writes it (docs/probe-form.md): region 0
; is the function, region 1 its loop; the start of 1 sits in the preheader,
; its end in the exit block; the function ends before the ret (a probe right
; before a ret, which must not become a tail call).
target triple = "x86_64-unknown-linux-gnu"

define i32 @sum(ptr %a, i32 %n) !dbg !5 {
entry:
  notail call void @__lwp_probe_start(i32 0) #1, !dbg !8
  %c = icmp sgt i32 %n, 0
  br i1 %c, label %ph, label %done

ph:
  notail call void @__lwp_probe_start(i32 1) #1, !dbg !9
  br label %loop

loop:
  %i = phi i32 [ 0, %ph ], [ %i.next, %loop ]
  %s = phi i32 [ 0, %ph ], [ %s.next, %loop ]
  %p = getelementptr inbounds i32, ptr %a, i32 %i
  %v = load i32, ptr %p
  %s.next = add i32 %s, %v
  %i.next = add nuw nsw i32 %i, 1
  %e = icmp eq i32 %i.next, %n
  br i1 %e, label %exit, label %loop

exit:
  notail call void @__lwp_probe_end(i32 1) #1, !dbg !9
  br label %done

done:
  %r = phi i32 [ 0, %entry ], [ %s.next, %exit ]
  notail call void @__lwp_probe_end(i32 0) #1, !dbg !10
  ret i32 %r
}

declare void @__lwp_probe_start(i32) #0
declare void @__lwp_probe_end(i32) #0

attributes #0 = { nocallback nomerge nounwind willreturn memory(inaccessiblemem: readwrite) }
attributes #1 = { nounwind }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!lwp.instrumentation_map = !{!11}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "hand", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "s.c", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "sum", scope: !1, file: !1, line: 3, type: !6, scopeLine: 3, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DILocation(line: 3, scope: !5)
!9 = !DILocation(line: 5, column: 3, scope: !5)
!10 = !DILocation(line: 7, column: 3, scope: !5)
!11 = !{i32 1, !"{\22version\22:1,\22regions\22:[{\22id\22:0,\22kind\22:\22function\22,\22function\22:\22sum\22,\22depth\22:null,\22height\22:null,\22parent\22:null,\22file\22:\22s.c\22,\22line\22:3,\22column\22:0},{\22id\22:1,\22kind\22:\22loop\22,\22function\22:\22sum\22,\22depth\22:0,\22height\22:0,\22parent\22:0,\22file\22:\22s.c\22,\22line\22:5,\22column\22:3}]}"}
