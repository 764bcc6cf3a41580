// Portability layer shared by the host compiler and nvcc: every arithmetic routine in
// cuzk/*.hpp is written once against these helpers and compiles for both the CPU backend
// and the CUDA kernels.
#pragma once
#include <stdint.h>
// The host's add-with-carry and subtract-with-borrow intrinsics: GCC compiles the portable forms
// below into compare-and-set sequences, not into one ADC/SBB chain (limb additions 2-3x longer).
// Not under nvcc, whose host pass need not accept the x86 intrinsic headers.
#if defined(__x86_64__) && !defined(__CUDACC__)
#define CUZK_X86_CARRY 1
#include <x86intrin.h>
#endif

// CUZK_HD: small routines, always inlined (limb helpers, field add/sub/mul).
// CUZK_HDI: larger routines (exponentiation, point formulas) left to the compiler's judgement.
// CUZK_COLD: rarely run, long routines (exponentiation, scalar multiplication) kept out of line on
// the device, where inlining them into every caller multiplies ptxas time and code size.
#if defined(__CUDACC__)
#define CUZK_HD __host__ __device__ __forceinline__
#define CUZK_HDI __host__ __device__ inline
#define CUZK_COLD __host__ __device__ __noinline__
// The Montgomery product: inlined everywhere; on the device it is the 32-bit carry-chain form of
// mont32.hpp, whose words stay in registers. A source whose kernels are not hot (the self-test's
// operations) may define CUZK_DEVICE_MUL_OUT_OF_LINE to keep it out of line there: the same code,
// compiled in a fraction of the time.
#if defined(__CUDA_ARCH__) && defined(CUZK_DEVICE_MUL_OUT_OF_LINE)
#define CUZK_MUL __host__ __device__ __noinline__
#else
#define CUZK_MUL __host__ __device__ __forceinline__
#endif
#else
#define CUZK_HD inline __attribute__((always_inline))
#define CUZK_HDI inline
#define CUZK_COLD inline
#define CUZK_MUL inline __attribute__((always_inline))
#endif

#if defined(__CUDACC__)
#define CUZK_UNROLL _Pragma("unroll")
#else
#define CUZK_UNROLL _Pragma("GCC unroll 16")
#endif

// The arithmetic lives in an inline namespace named by CUZK_ARITH_TAG, so that one library can
// hold several builds of the same templates (the portable one and one using x86-64 BMI2/ADX
// instructions) without their inline definitions colliding; callers just write cuzk::.
#ifndef CUZK_ARITH_TAG
#define CUZK_ARITH_TAG portable
#endif
#define CUZK_NS_BEGIN \
    namespace cuzk {  \
    inline namespace CUZK_ARITH_TAG {
#define CUZK_NS_END \
    }               \
    }

CUZK_NS_BEGIN

template <int N>
struct Limbs {
    uint64_t v[N];
};

// lo + hi*2^64 = a * b + c + d; never overflows: (2^64-1)^2 + 2(2^64-1) = 2^128 - 1.
CUZK_HD void mul_add2(uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t& lo, uint64_t& hi) {
#if defined(__CUDA_ARCH__)
    uint64_t l = a * b;
    uint64_t h = __umul64hi(a, b);
    l += c;
    h += (l < c);
    l += d;
    h += (l < d);
    lo = l;
    hi = h;
#else
    unsigned __int128 t = (unsigned __int128)a * b + c + d;
    lo = (uint64_t)t;
    hi = (uint64_t)(t >> 64);
#endif
}

// sum = a + b + carry_in (carry_in in {0,1}); returns carry out.
CUZK_HD uint64_t add_carry(uint64_t a, uint64_t b, uint64_t carry_in, uint64_t& sum) {
#if defined(__CUDA_ARCH__)
    uint64_t s = a + b;
    uint64_t c = (s < a);
    uint64_t s2 = s + carry_in;
    c += (s2 < s);
    sum = s2;
    return c;
#elif defined(CUZK_X86_CARRY)
    unsigned long long s;
    const uint64_t c = _addcarry_u64((unsigned char)carry_in, a, b, &s);
    sum = s;
    return c;
#else
    unsigned __int128 t = (unsigned __int128)a + b + carry_in;
    sum = (uint64_t)t;
    return (uint64_t)(t >> 64);
#endif
}

// diff = a - b - borrow_in (borrow_in in {0,1}); returns borrow out.
CUZK_HD uint64_t sub_borrow(uint64_t a, uint64_t b, uint64_t borrow_in, uint64_t& diff) {
#if defined(CUZK_X86_CARRY)
    unsigned long long d;
    const uint64_t br = _subborrow_u64((unsigned char)borrow_in, a, b, &d);
    diff = d;
    return br;
#else
    uint64_t d = a - b;
    uint64_t br = (a < b);
    uint64_t d2 = d - borrow_in;
    br += (d < borrow_in);
    diff = d2;
    return br;
#endif
}

// The width-4 signed form of the little-endian W-word integer v, which it consumes: digits 0 or
// odd in -7..7, at most one nonzero in any four, least significant first, into out; returns their
// number (at most 64 W + 1). The top bit of v's top word must be clear (a negative digit carries
// upward). An exponentiation or scalar multiplication by it needs only x, 3x, 5x, 7x and about
// one product in five bits. Host code, also at compile time.
template <int W>
constexpr int signed_digits_w4(uint64_t (&v)[W], int8_t* out) {
    int len = 0;
    for (;;) {
        uint64_t any = 0;
        for (int w = 0; w < W; w++) any |= v[w];
        if (any == 0) return len;
        int d = 0;
        if (v[0] & 1) {
            d = (int)(v[0] & 15);
            if (d >= 8) d -= 16;
            if (d > 0) {
                v[0] -= (uint64_t)d;  // the low four bits are d: no borrow
            } else {
                v[0] += (uint64_t)(-d);
                uint64_t carry = v[0] < (uint64_t)(-d) ? 1 : 0;
                for (int w = 1; w < W && carry; w++) carry = ++v[w] == 0 ? 1 : 0;
            }
        }
        out[len++] = (int8_t)d;
        for (int w = 0; w + 1 < W; w++) v[w] = (v[w] >> 1) | (v[w + 1] << 63);
        v[W - 1] >>= 1;
    }
}

CUZK_NS_END
