// Element-wise field and group operations, written once for the host loop of the CPU backend and
// the per-thread body of the CUDA kernels.
#pragma once
#include "cuzk/cuzk.h"
#include "cuzk/curve.hpp"

CUZK_NS_BEGIN

template <class F>
CUZK_HDI F field_apply(uint32_t op, const F& a, const F& b) {
    switch (op) {
        case CUZK_OP_ADD: return a + b;
        case CUZK_OP_SUB: return a - b;
        case CUZK_OP_MUL: return a * b;
        case CUZK_OP_SQR: return a.sqr();
        case CUZK_OP_NEG: return -a;
        case CUZK_OP_INV: return a.inv();  // not inv_vartime: callers may invert secrets
        default: return a;
    }
}

// Fp and Fr have a canonical form; TO_MONT and FROM_MONT convert, the others are field_apply.
template <class F>
CUZK_HDI F prime_field_apply(uint32_t op, const F& a, const F& b) {
    if (op == CUZK_OP_TO_MONT) return F::to_mont(a);
    if (op == CUZK_OP_FROM_MONT) return a.from_mont();
    return field_apply(op, a, b);
}

template <class F>
CUZK_HDI Field2<F> ext_field_apply(uint32_t op, const Field2<F>& a, const Field2<F>& b) {
    if (op == CUZK_OP_TO_MONT) return {F::to_mont(a.c0), F::to_mont(a.c1)};
    if (op == CUZK_OP_FROM_MONT) return {a.c0.from_mont(), a.c1.from_mont()};
    return field_apply(op, a, b);
}

inline bool field_op_known(uint32_t op) { return op <= CUZK_OP_FROM_MONT; }
inline bool point_op_known(uint32_t op) { return op <= CUZK_POINT_MUL_SUBGROUP; }

// The result in XYZZ form, before the inversion that makes it affine (which batches can share).
// b is a point for ADD, a 4-word canonical scalar for MUL and MUL_SUBGROUP, unused otherwise.
template <class G>
CUZK_HDI XYZZ<G> point_apply_xyzz(uint32_t op, const Affine<G>& a, const void* b) {
    switch (op) {
        case CUZK_POINT_ADD: {
            XYZZ<G> p = XYZZ<G>::from_affine(a);
            p.add_affine(*static_cast<const Affine<G>*>(b));
            return p;
        }
        case CUZK_POINT_DOUBLE: return XYZZ<G>::from_affine(a).dbl();
        case CUZK_POINT_NEG: return XYZZ<G>::from_affine(a.neg());
        case CUZK_POINT_MUL:
        case CUZK_POINT_MUL_SUBGROUP: return scalar_mul(a, static_cast<const uint64_t*>(b), 4);
        case CUZK_POINT_GENERATOR: return XYZZ<G>::from_affine(G::generator());
        default: return XYZZ<G>::from_affine(a);
    }
}

template <class G>
CUZK_HDI Affine<G> point_apply(uint32_t op, const Affine<G>& a, const void* b) {
    return point_apply_xyzz<G>(op, a, b).to_affine();
}

// out[i] = affine(p[i]) for n points with one field inversion (Montgomery's trick); scratch
// holds n field elements.
template <class G>
CUZK_HDI void batch_to_affine(const XYZZ<G>* p, Affine<G>* out, typename G::F* scratch, size_t n) {
    using F = typename G::F;
    F acc = F::one();
    for (size_t i = 0; i < n; i++) {
        scratch[i] = acc;
        if (!p[i].is_inf()) acc = acc * p[i].zzz;
    }
    F inv = acc.inv();
    for (size_t i = n; i-- > 0;) {
        if (p[i].is_inf()) {
            out[i] = Affine<G>::infinity();
            continue;
        }
        F zzz_inv = inv * scratch[i];
        inv = inv * p[i].zzz;
        out[i] = p[i].to_affine_with(zzz_inv);
    }
}

CUZK_NS_END
