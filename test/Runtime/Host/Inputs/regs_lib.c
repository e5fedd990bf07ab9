// A kernel that keeps many values live in registers across the probes of its
// inner loops (instrumented at every depth): if a probe broke the handlers'
// register contract (e.g. a lazily bound PLT entry whose resolver clobbers a
// register preserve_all keeps), the checksums would change.
#include <stdint.h>

uint64_t regs_kernel(uint64_t n) {
  uint64_t a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8, k = 9,
           l = 10, m = 11, o = 12, p = 13, q = 14;
  for (uint64_t i = 0; i < n; ++i) {
    for (uint64_t j = 0; j < (i & 3) + 1; ++j) {
      a = a * 31 + j;
      b ^= a >> 3;
      c += b * 7;
    }
    d += c ^ i;
    e = e * 17 + d;
    f ^= e + a;
    g += f * 3;
    h ^= g >> 5;
    k += h + b;
    l = l * 13 ^ k;
    m += l >> 7;
    o ^= m * 5;
    p += o + c;
    q ^= p + d;
    for (uint64_t j = 0; j < (i & 1) + 1; ++j)
      q = q * 3 + j;
  }
  return a ^ b ^ c ^ d ^ e ^ f ^ g ^ h ^ k ^ l ^ m ^ o ^ p ^ q;
}

/// Loaded with dlopen: its loops run \p n times.
uint64_t plugin_entry(uint64_t n) {
  uint64_t s = 0;
  for (uint64_t i = 0; i < n; ++i)
    s += i * i;
  return s;
}
