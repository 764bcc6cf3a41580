// The Montgomery product in the form the GPU runs: 32-bit words and the PTX carry chain
// (mad.lo.cc / madc.hi.cc), every word in a register. nvcc turns 64-bit limb products into four
// 32-bit multiplies with compare-based carries (about 1,600 instructions for a 381-bit product);
// here each 32x32 partial product is one multiply-add whose carry goes straight to the next.
//
// The algorithm is written once against an instruction set `I`: `Ptx` (device only) issues each
// step as one PTX instruction, with the carry flag held by the hardware between consecutive
// statements; `Model` (host) is the same instructions in C++ with the flag in a variable, so that
// the host build of the GPU emulation (cuzk_emulate_msm, cuzk_emulate_ntt) runs this very
// algorithm, word for word, and CI checks it against the CPU backend. The PTX itself is checked on
// a device by the CUDA self-test.
//
// Coarsely integrated operand scanning over W = 2N words of a, b and p < R/4 (two spare top bits),
// for inputs below 2p (the lazily added factors of field.hpp): for each word b_i,
//   t += a * b_i      (low halves of the products into t_j, high halves into t_{j+1}: two chains)
//   m  = t_0 * (-p^-1 mod 2^32)
//   t += m * p        (two chains again; t_0 becomes 0)
//   t >>= 32
// t stays below 2p + 2^33 p + ... < 2^(32W + 64): W + 2 words, and the result below 2p takes one
// conditional subtraction of p.
#pragma once
#include "cuzk/arch.hpp"

CUZK_NS_BEGIN
namespace mont32 {

#if defined(__CUDA_ARCH__)
// One PTX instruction each. `asm volatile` keeps them in program order, so the carry flag one sets
// is the one the next reads (nothing the compiler emits in between uses the flag).
struct Ptx {
    __device__ __forceinline__ uint32_t mul_lo(uint32_t a, uint32_t b) { return a * b; }
    __device__ __forceinline__ uint32_t mad_lo_cc(uint32_t a, uint32_t b, uint32_t c) {
        uint32_t d;
        asm volatile("mad.lo.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
        return d;
    }
    __device__ __forceinline__ uint32_t madc_lo_cc(uint32_t a, uint32_t b, uint32_t c) {
        uint32_t d;
        asm volatile("madc.lo.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
        return d;
    }
    __device__ __forceinline__ uint32_t mad_hi_cc(uint32_t a, uint32_t b, uint32_t c) {
        uint32_t d;
        asm volatile("mad.hi.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
        return d;
    }
    __device__ __forceinline__ uint32_t madc_hi_cc(uint32_t a, uint32_t b, uint32_t c) {
        uint32_t d;
        asm volatile("madc.hi.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
        return d;
    }
    __device__ __forceinline__ uint32_t addc_cc(uint32_t a, uint32_t b) {
        uint32_t d;
        asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
        return d;
    }
    __device__ __forceinline__ uint32_t addc(uint32_t a, uint32_t b) {
        uint32_t d;
        asm volatile("addc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
        return d;
    }
    __device__ __forceinline__ uint32_t sub_cc(uint32_t a, uint32_t b) {
        uint32_t d;
        asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
        return d;
    }
    __device__ __forceinline__ uint32_t subc_cc(uint32_t a, uint32_t b) {
        uint32_t d;
        asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
        return d;
    }
    __device__ __forceinline__ uint32_t subc(uint32_t a, uint32_t b) {
        uint32_t d;
        asm volatile("subc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
        return d;
    }
};
#endif

// The same instructions on the host, PTX's semantics: `.cc` writes the carry (for subtraction,
// the borrow) flag, `c` reads it.
struct Model {
    uint32_t cf = 0;
    CUZK_HD uint32_t mul_lo(uint32_t a, uint32_t b) { return a * b; }
    CUZK_HD uint32_t put(uint64_t s) {
        cf = (uint32_t)(s >> 32);
        return (uint32_t)s;
    }
    CUZK_HD uint32_t mad_lo_cc(uint32_t a, uint32_t b, uint32_t c) { return put((uint64_t)(uint32_t)(a * b) + c); }
    CUZK_HD uint32_t madc_lo_cc(uint32_t a, uint32_t b, uint32_t c) { return put((uint64_t)(uint32_t)(a * b) + c + cf); }
    CUZK_HD uint32_t mad_hi_cc(uint32_t a, uint32_t b, uint32_t c) {
        return put((((uint64_t)a * b) >> 32) + c);
    }
    CUZK_HD uint32_t madc_hi_cc(uint32_t a, uint32_t b, uint32_t c) {
        return put((((uint64_t)a * b) >> 32) + c + cf);
    }
    CUZK_HD uint32_t addc_cc(uint32_t a, uint32_t b) { return put((uint64_t)a + b + cf); }
    CUZK_HD uint32_t addc(uint32_t a, uint32_t b) { return (uint32_t)((uint64_t)a + b + cf); }
    CUZK_HD uint32_t sub_cc(uint32_t a, uint32_t b) {
        uint64_t d = (uint64_t)a - b;
        cf = (uint32_t)(d >> 63);
        return (uint32_t)d;
    }
    CUZK_HD uint32_t subc_cc(uint32_t a, uint32_t b) {
        uint64_t d = (uint64_t)a - b - cf;
        cf = (uint32_t)(d >> 63);
        return (uint32_t)d;
    }
    CUZK_HD uint32_t subc(uint32_t a, uint32_t b) { return (uint32_t)((uint64_t)a - b - cf); }
};

// t[0..W+1] += x * y[0..W-1]: the low halves into t_j, then the high halves into t_{j+1}.
template <int W, class I>
CUZK_HD void mul_add_row(I& ins, uint32_t* t, uint32_t x, const uint32_t* y) {
    t[0] = ins.mad_lo_cc(y[0], x, t[0]);
    CUZK_UNROLL for (int j = 1; j < W; j++) t[j] = ins.madc_lo_cc(y[j], x, t[j]);
    t[W] = ins.addc_cc(t[W], 0);
    t[W + 1] = ins.addc(t[W + 1], 0);
    t[1] = ins.mad_hi_cc(y[0], x, t[1]);
    CUZK_UNROLL for (int j = 1; j < W; j++) t[j + 1] = ins.madc_hi_cc(y[j], x, t[j + 1]);
    t[W + 1] = ins.addc(t[W + 1], 0);
}

// r = a * b / 2^(32W) mod p, r < p, for a, b < 2p; words little-endian; inv = -p^-1 mod 2^32.
template <int W, class I>
CUZK_HD void mont_mul(I& ins, uint32_t* r, const uint32_t* a, const uint32_t* b, const uint32_t* p, uint32_t inv) {
    uint32_t t[W + 2];
    CUZK_UNROLL for (int j = 0; j < W + 2; j++) t[j] = 0;
    CUZK_UNROLL for (int i = 0; i < W; i++) {
        mul_add_row<W>(ins, t, b[i], a);
        const uint32_t m = ins.mul_lo(t[0], inv);
        mul_add_row<W>(ins, t, m, p);  // t_0 becomes 0
        CUZK_UNROLL for (int j = 0; j < W + 1; j++) t[j] = t[j + 1];
        t[W + 1] = 0;
    }
    // t < 2p: subtract p, keep the difference unless it borrowed
    uint32_t d[W];
    d[0] = ins.sub_cc(t[0], p[0]);
    CUZK_UNROLL for (int j = 1; j < W; j++) d[j] = ins.subc_cc(t[j], p[j]);
    const uint32_t borrow = ins.subc(t[W], 0);  // all ones when t < p
    CUZK_UNROLL for (int j = 0; j < W; j++) r[j] = borrow ? t[j] : d[j];
}

// The same on N 64-bit limbs (the fields' storage): each limb is two words, low first.
template <int N, class I>
CUZK_HD void mont_mul_limbs(uint64_t* r, const uint64_t* a, const uint64_t* b, const uint64_t* p, uint64_t inv64) {
    uint32_t a32[2 * N], b32[2 * N], p32[2 * N], r32[2 * N];
    CUZK_UNROLL for (int i = 0; i < N; i++) {
        a32[2 * i] = (uint32_t)a[i];
        a32[2 * i + 1] = (uint32_t)(a[i] >> 32);
        b32[2 * i] = (uint32_t)b[i];
        b32[2 * i + 1] = (uint32_t)(b[i] >> 32);
        p32[2 * i] = (uint32_t)p[i];
        p32[2 * i + 1] = (uint32_t)(p[i] >> 32);
    }
    I ins;
    mont_mul<2 * N>(ins, r32, a32, b32, p32, (uint32_t)inv64);
    CUZK_UNROLL for (int i = 0; i < N; i++) r[i] = (uint64_t)r32[2 * i] | ((uint64_t)r32[2 * i + 1] << 32);
}

}  // namespace mont32
CUZK_NS_END
