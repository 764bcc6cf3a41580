// G1 scalar multiplication by the curve's endomorphism (Gallant, Lambert and Vanstone, 2001), for
// the CPU. Both curves have j = 0, so phi(x, y) = (beta x, y), beta a cube root of one in Fp, is an
// endomorphism, and on the prime-order subgroup it is multiplication by lambda, a cube root of one
// in Fr. A scalar k is split as k = k1 + k2 lambda (mod r) with |k1|, |k2| below 2^128, and
// [k]P = [k1]P + [k2]phi(P) is computed with one chain of doublings for both halves (interleaved
// width-4 NAFs): half the doublings of [k]P, and about a third of its additions.
//
// The split is Babai's rounding in the lattice {(a, b) : a + b lambda = 0 mod r}, whose reduced
// basis (a1, b1), (a2, b2) has vectors of about 2^127: (c1, c2) = round((k, 0) B^-1), (k1, k2) =
// (k, 0) - (c1, c2) B, the rounding by precomputed 2^320 B^-1 entries, everything mod 2^256 with
// the halves read as signed. A scalar made as a + b lambda with a, b below 2^64 splits back into
// exactly (a, b) (the basis vectors are far longer), which is what makes a verifier's 128-bit
// random coefficients chosen that way cost a 64-bit double multiplication.
//
// Valid where phi is lambda: on BN254's whole G1 (cofactor one, so cuzk_point_op's MUL takes this
// path there), and on BLS12-381's G1 only for points in its subgroup (CUZK_POINT_MUL_SUBGROUP, whose
// caller vouches for that; off the subgroup the result differs from [k]P by a point of the
// cofactor's order, which pairs to one with G2). The constants (beta matched to lambda on the generator, the basis from
// the extended Euclidean algorithm on (r, lambda)) were computed with exact integer arithmetic and
// are checked at first use: phi(G) = [lambda]G.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <type_traits>

#include "codec/subgroup.hpp"

CUZK_NS_BEGIN

namespace glv_detail {

struct Split {
    Limbs<4> g1, g2;          // round(2^320 b2 / D), round(-2^320 b1 / D) (both positive here)
    Limbs<4> a1, a2, nb1, nb2;  // a1, a2, -b1, -b2 mod 2^256
};

template <class G>
struct Params;

template <>
struct Params<bn254_g1> {
    // beta (canonical) whose phi is [lambda], lambda = 4407920970296243842393367215006156084916469457145843978461
    static constexpr Limbs<4> beta() {
        return {{0x5763473177fffffeull, 0xd4f263f1acdb5c4full, 0x59e26bcea0d48bacull, 0x0000000000000000ull}};
    }
    static constexpr Limbs<4> lambda() {
        return {{0x8b17ea66b99c90ddull, 0x5bfc41088d8daaa7ull, 0xb3c4d79d41a91758ull, 0x0000000000000000ull}};
    }
    static constexpr Split split() {
        return {{{0x6eb9c714773a6ef3ull, 0xd91d232ec7e0b3d7ull, 0x0000000000000002ull, 0x0000000000000000ull}},
                {{0xa5e38cfb5eaa26daull, 0x7a7bd9d4391eb18dull, 0x4ccef014a773d2cfull, 0x0000000000000002ull}},
                {{0x89d3256894d213e3ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull}},
                {{0x0be4e1541221250bull, 0x6f4d8248eeb859fdull, 0x0000000000000000ull, 0x0000000000000000ull}},
                {{0x8211bbeb7d4f1128ull, 0x6f4d8248eeb859fcull, 0x0000000000000000ull, 0x0000000000000000ull}},
                {{0x762cda976b2dec1dull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull}}};
    }
};

template <>
struct Params<bls12_381_g1> {
    // lambda = x^2 - 1 = 228988810152649578064853576960394133503
    static constexpr Limbs<6> beta() {
        return {{0x8bfd00000000aaacull, 0x409427eb4f49fffdull, 0x897d29650fb85f9bull, 0xaa0d857d89759ad4ull,
                 0xec02408663d4de85ull, 0x1a0111ea397fe699ull}};
    }
    static constexpr Limbs<4> lambda() {
        return {{0x00000000ffffffffull, 0xac45a4010001a402ull, 0x0000000000000000ull, 0x0000000000000000ull}};
    }
    static constexpr Split split() {
        return {{{0x355094edfede377cull, 0x0000000000000002ull, 0x0000000000000000ull, 0x0000000000000000ull}},
                {{0x389f49a7268bf7a4ull, 0x63f6e522f6cfee30ull, 0x7c6becf1e01faaddull, 0x0000000000000001ull}},
                {{0x0000000000000001ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull}},
                {{0x00000000ffffffffull, 0xac45a4010001a402ull, 0x0000000000000000ull, 0x0000000000000000ull}},
                {{0xffffffff00000000ull, 0x53ba5bfefffe5bfdull, 0xffffffffffffffffull, 0xffffffffffffffffull}},
                {{0x0000000000000001ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull}}};
    }
};

template <class G>
inline constexpr bool has_glv = std::is_same_v<G, bn254_g1> || std::is_same_v<G, bls12_381_g1>;

using u128 = unsigned __int128;

// out = a * b mod 2^256
inline Limbs<4> mul_lo(const Limbs<4>& a, const Limbs<4>& b) {
    Limbs<4> out{};
    for (int i = 0; i < 4; i++) {
        uint64_t carry = 0;
        for (int j = 0; i + j < 4; j++) {
            u128 t = (u128)a.v[i] * b.v[j] + out.v[i + j] + carry;
            out.v[i + j] = (uint64_t)t;
            carry = (uint64_t)(t >> 64);
        }
    }
    return out;
}

// (a * b + 2^319) >> 320, a and b below 2^256
inline Limbs<4> mul_round_320(const Limbs<4>& a, const Limbs<4>& b) {
    uint64_t w[8] = {};
    for (int i = 0; i < 4; i++) {
        uint64_t carry = 0;
        for (int j = 0; j < 4; j++) {
            u128 t = (u128)a.v[i] * b.v[j] + w[i + j] + carry;
            w[i + j] = (uint64_t)t;
            carry = (uint64_t)(t >> 64);
        }
        w[i + 4] = carry;
    }
    // + 2^319, carried up
    u128 t = (u128)w[4] + (1ull << 63);
    w[4] = (uint64_t)t;
    for (int i = 5; i < 8 && (t >> 64); i++) {
        t = (u128)w[i] + 1;
        w[i] = (uint64_t)t;
    }
    return {{w[5], w[6], w[7], 0}};
}

inline Limbs<4> add(const Limbs<4>& a, const Limbs<4>& b) {
    Limbs<4> out;
    uint64_t carry = 0;
    for (int i = 0; i < 4; i++) {
        u128 t = (u128)a.v[i] + b.v[i] + carry;
        out.v[i] = (uint64_t)t;
        carry = (uint64_t)(t >> 64);
    }
    return out;
}

inline Limbs<4> neg(const Limbs<4>& a) {
    Limbs<4> out;
    uint64_t borrow = 0;
    for (int i = 0; i < 4; i++) {
        u128 t = (u128)0 - a.v[i] - borrow;
        out.v[i] = (uint64_t)t;
        borrow = (uint64_t)(t >> 64) & 1;
    }
    return out;
}

inline bool geq(const Limbs<4>& a, const Limbs<4>& b) {
    for (int i = 3; i >= 0; i--)
        if (a.v[i] != b.v[i]) return a.v[i] > b.v[i];
    return true;
}

// A half as magnitude and sign (the split's signed values mod 2^256)
struct Half {
    Limbs<4> mag;
    bool negative;
};
inline Half half(const Limbs<4>& v) {
    const bool negative = v.v[3] >> 63;
    return {negative ? neg(v) : v, negative};
}

// k (any 256-bit value) as k1 + k2 lambda mod r
template <class G>
void split(const uint64_t* k_in, const Limbs<4>& r, Half& k1, Half& k2) {
    Limbs<4> k{{k_in[0], k_in[1], k_in[2], k_in[3]}};
    while (geq(k, r)) k = add(k, neg(r));
    constexpr Split s = Params<G>::split();
    const Limbs<4> c1 = mul_round_320(k, s.g1), c2 = mul_round_320(k, s.g2);
    k1 = half(add(k, neg(add(mul_lo(c1, s.a1), mul_lo(c2, s.a2)))));
    k2 = half(add(mul_lo(c1, s.nb1), mul_lo(c2, s.nb2)));
}

// Width-4 NAF of a magnitude below 2^192: digits in {0, +-1, +-3, +-5, +-7}, least significant first;
// returns the number of digits.
inline int wnaf4(const Limbs<4>& m, int8_t* d, int cap) {
    uint64_t w[4] = {m.v[0], m.v[1], m.v[2], m.v[3]};
    auto nonzero = [&] { return (w[0] | w[1] | w[2] | w[3]) != 0; };
    auto shr1 = [&] {
        for (int i = 0; i < 3; i++) w[i] = (w[i] >> 1) | (w[i + 1] << 63);
        w[3] >>= 1;
    };
    int n = 0;
    while (nonzero() && n < cap) {
        int digit = 0;
        if (w[0] & 1) {
            digit = (int)(w[0] & 15);
            if (digit >= 8) digit -= 16;
            // w -= digit
            if (digit > 0) {
                u128 t = (u128)w[0] - (uint64_t)digit;
                w[0] = (uint64_t)t;
                for (int i = 1; i < 4 && ((t >> 64) & 1); i++) {
                    t = (u128)w[i] - 1;
                    w[i] = (uint64_t)t;
                }
            } else {
                u128 t = (u128)w[0] + (uint64_t)(-digit);
                w[0] = (uint64_t)t;
                for (int i = 1; i < 4 && (t >> 64); i++) {
                    t = (u128)w[i] + 1;
                    w[i] = (uint64_t)t;
                }
            }
        }
        d[n++] = (int8_t)digit;
        shr1();
    }
    return n;
}

}  // namespace glv_detail

// [k]P by the endomorphism, k 4 little-endian words (any value), P in the prime-order subgroup
// (not checked: see the header's note). Jacobian doublings, full additions of the precomputed odd
// multiples; the result in XYZZ for the callers' batched conversion to affine.
template <class G>
XYZZ<G> glv_mul(const Affine<G>& p, const uint64_t* k) {
    static_assert(glv_detail::has_glv<G>);
    using F = typename G::F;
    using Jac = subgroup_detail::Jac<G>;
    using namespace glv_detail;
    static const F beta = [] {
        const F b = F::to_mont(F::from_limbs(Params<G>::beta()));
        // phi(G) = [lambda]G on the generator, once
        const Affine<G> g = G::generator();
        const Limbs<4> l = Params<G>::lambda();
        if (!(XYZZ<G>::from_affine(Affine<G>{g.x * b, g.y}) == scalar_mul(g, l.v, 4)))
            throw std::logic_error("the GLV constants do not match this curve");
        return b;
    }();
    if (p.is_inf()) return XYZZ<G>::infinity();
    Half k1, k2;
    split<G>(k, G::order(), k1, k2);
    int8_t d1[200], d2[200];
    const int n1 = wnaf4(k1.mag, d1, 200), n2 = wnaf4(k2.mag, d2, 200);
    // odd multiples P, 3P, 5P, 7P with k1's sign; phi of them with k2's
    Jac t1[4], t2[4];
    t1[0] = Jac::from_affine(k1.negative ? Affine<G>{p.x, -p.y} : p);
    const Jac twice = t1[0].dbl();
    for (int i = 1; i < 4; i++) {
        t1[i] = t1[i - 1];
        t1[i].add(twice);
    }
    const bool flip = k1.negative != k2.negative;
    for (int i = 0; i < 4; i++) t2[i] = Jac{t1[i].x * beta, flip ? -t1[i].y : t1[i].y, t1[i].z};
    Jac acc = Jac::infinity();
    for (int i = (n1 > n2 ? n1 : n2) - 1; i >= 0; i--) {
        acc = acc.dbl();
        if (i < n1 && d1[i]) acc.add(d1[i] > 0 ? t1[d1[i] >> 1] : t1[(-d1[i]) >> 1].neg());
        if (i < n2 && d2[i]) acc.add(d2[i] > 0 ? t2[d2[i] >> 1] : t2[(-d2[i]) >> 1].neg());
    }
    return acc.to_xyzz();
}

CUZK_NS_END
