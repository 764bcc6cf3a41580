// From the ABI's (curve, group, field) numbers to the C++ types, in one place.
#pragma once
#include <string>

#include "cuzk/curve.hpp"
#include "cuzk/cuzk.h"
#include "runtime/errors.hpp"

CUZK_NS_BEGIN

template <class T>
struct Tag {
    using type = T;
};

inline std::string curve_name(uint32_t curve) {
    switch (curve) {
        case CUZK_CURVE_BN254: return "bn254";
        case CUZK_CURVE_BLS12_381: return "bls12-381";
        default: return "curve " + std::to_string(curve);
    }
}

inline void require_curve(uint32_t curve) {
    require(curve == CUZK_CURVE_BN254 || curve == CUZK_CURVE_BLS12_381,
            "unknown curve " + std::to_string(curve) + " (0 = bn254, 1 = bls12-381)");
}

// fn(Tag<G>) for the group type G of (curve, group).
template <class Fn>
void with_group(uint32_t curve, uint32_t group, Fn&& fn) {
    require_curve(curve);
    require(group == CUZK_G1 || group == CUZK_G2, "unknown group " + std::to_string(group) + " (1 = G1, 2 = G2)");
    if (curve == CUZK_CURVE_BN254) {
        if (group == CUZK_G1) fn(Tag<bn254_g1>{});
        else fn(Tag<bn254_g2>{});
    } else {
        if (group == CUZK_G1) fn(Tag<bls12_381_g1>{});
        else fn(Tag<bls12_381_g2>{});
    }
}

// fn(Tag<G1>) for the curve's G1 type, which also names its Fp and Fr.
template <class Fn>
void with_curve(uint32_t curve, Fn&& fn) {
    require_curve(curve);
    if (curve == CUZK_CURVE_BN254) fn(Tag<bn254_g1>{});
    else fn(Tag<bls12_381_g1>{});
}

// fn(Tag<Fr>) for the scalar field of curve.
template <class Fn>
void with_scalar_field(uint32_t curve, Fn&& fn) {
    require_curve(curve);
    if (curve == CUZK_CURVE_BN254) fn(Tag<bn254_fr>{});
    else fn(Tag<bls12_381_fr>{});
}

// fn(Tag<F>) for Fp, Fr or Fp2 of curve.
template <class Fn>
void with_field(uint32_t curve, uint32_t field, Fn&& fn) {
    require_curve(curve);
    require(field <= CUZK_FIELD_FP2, "unknown field " + std::to_string(field) + " (0 = Fp, 1 = Fr, 2 = Fp2)");
    if (curve == CUZK_CURVE_BN254) {
        if (field == CUZK_FIELD_FP) fn(Tag<bn254_fp>{});
        else if (field == CUZK_FIELD_FR) fn(Tag<bn254_fr>{});
        else fn(Tag<bn254_fp2>{});
    } else {
        if (field == CUZK_FIELD_FP) fn(Tag<bls12_381_fp>{});
        else if (field == CUZK_FIELD_FR) fn(Tag<bls12_381_fr>{});
        else fn(Tag<bls12_381_fp2>{});
    }
}

template <class F>
struct is_ext_field : std::false_type {};
template <class F>
struct is_ext_field<Field2<F>> : std::true_type {};

static_assert(sizeof(bn254_fp) == 32 && sizeof(bls12_381_fp) == 48, "field layout");
static_assert(sizeof(Affine<bn254_g2>) == 128 && sizeof(Affine<bls12_381_g2>) == 192, "point layout");

CUZK_NS_END
