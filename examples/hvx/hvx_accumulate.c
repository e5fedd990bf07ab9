// HVX example (issue 32): 128-byte vectors through hexagon_protos.h
// intrinsics, profiled by LWP. Build and profile it with
//
//   utils/lwp-run --target=hexagon --hvx examples/hvx/hvx_accumulate.c
//
// (--hvx passes -mhvx -mhvx-length=128b; docs/user-guide.md, "Hexagon").
//
// The vector values stay in HVX registers across the probes: the
// accumulators and the row in main's outer loop across its inner loops'
// probes, the predicate Q across the second inner loop's, mix's vector
// arguments across its entry probe and its result across its exit probe.
// A probe handler that changed a V or Q register would change the output
// (test/E2E/hvx-hexagon.test compares it with the uninstrumented build).
// Calls of mix are ordinary calls: the ABI makes every HVX register
// caller-saved, so the compiler keeps main's vectors in memory across them.
#include <hexagon_protos.h>
#include <hexagon_types.h>
#include <stdint.h>
#include <stdio.h>

#if __HVX_ARCH__ < 65
// clang's hexagon_types.h names the vector types from HVX v65 on; v60 and
// v62 (--hexagon-cpu) get them here.
typedef long HVX_Vector __attribute__((__vector_size__(128)))
__attribute__((aligned(128)));
typedef long HVX_VectorPred __attribute__((__vector_size__(128)))
__attribute__((aligned(128)));
#endif

#define LANES 32 // 32-bit lanes in a 128-byte vector
#define ROWS 24

static int32_t data[ROWS][LANES] __attribute__((aligned(128)));
static int32_t out[3][LANES] __attribute__((aligned(128)));

// Rotates A + B by SHIFT lanes and adds shifted copies of the sum in a
// loop: A, B and the sum are live across the entry probe and the loop's
// probes.
__attribute__((noinline)) HVX_Vector mix(HVX_Vector a, HVX_Vector b,
                                         int shift) {
  HVX_Vector s = Q6_Vw_vadd_VwVw(a, b);
  HVX_Vector r = Q6_V_vror_VR(s, 4 * shift);
  for (int i = 0; i < (shift & 7); ++i)
    r = Q6_Vw_vadd_VwVw(r, Q6_Vw_vasl_VwR(s, i & 3));
  return Q6_V_vxor_VV(r, a);
}

int main(void) {
  for (int r = 0; r < ROWS; ++r)
    for (int l = 0; l < LANES; ++l)
      data[r][l] = (r * 37 + l * 11) % 101 - 50;

  HVX_Vector acc = Q6_V_vsplat_R(1);
  HVX_Vector acc2 = Q6_V_vsplat_R(0x01010101);
  HVX_Vector sel = Q6_V_vsplat_R(0);
  HVX_Vector limit = Q6_V_vsplat_R(400);
  for (int r = 0; r < ROWS; ++r) {
    HVX_Vector row = *(const HVX_Vector *)data[r]; // a vmem load
    // acc, acc2, sel, limit and row are live across this loop's probes.
    for (int k = 0; k < 3 + (r & 3); ++k) {
      acc = Q6_Vw_vadd_VwVw(acc, row);
      acc2 = Q6_Vw_vsub_VwVw(acc2, Q6_Vw_vasl_VwR(row, k & 7));
    }
    // The predicate is live across the second inner loop's probes.
    HVX_VectorPred q = Q6_Q_vcmp_gt_VwVw(acc, limit);
    for (int k = 0; k < 2 + (r % 3); ++k)
      sel = Q6_Vw_vadd_VwVw(sel, Q6_V_vmux_QVV(q, row, acc2));
    acc = Q6_V_vmux_QVV(q, Q6_Vw_vsub_VwVw(acc, limit), acc);
    if ((r & 7) == 7)
      acc2 = mix(acc2, row, r);
  }
  *(HVX_Vector *)out[0] = acc; // vmem stores
  *(HVX_Vector *)out[1] = acc2;
  *(HVX_Vector *)out[2] = sel;

  const char *names[3] = {"acc", "acc2", "sel"};
  for (int v = 0; v < 3; ++v) {
    uint32_t sum = 0;
    for (int l = 0; l < LANES; ++l)
      sum = sum * 31u + (uint32_t)out[v][l];
    printf("%-4s %d %d %d %d ... %d  checksum %08x\n", names[v], (int)out[v][0],
           (int)out[v][1], (int)out[v][2], (int)out[v][3],
           (int)out[v][LANES - 1], (unsigned)sum);
  }
  return 0;
}
