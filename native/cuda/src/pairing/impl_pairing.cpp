// Products of pairings on the CPU (one build per arithmetic path; see runtime/impl.hpp), for
// Groth16 verification: e(A, B) e(-alpha, beta) e(-L, gamma) e(-C, delta) = 1.
#include "cuzk/pairing.hpp"
#include "msm/base_array.hpp"
#include "runtime/api_common.hpp"

namespace cuzk {
inline namespace CUZK_ARITH_TAG {

namespace {
template <class T>
using F12 = typename Pairing<T>::F12;

// The 12 coefficients in cuzk_pairing's order.
template <class T>
void store(const F12<T>& f, void* out) {
    auto* o = static_cast<typename T::Fp*>(out);
    const typename T::F2* cs[6] = {&f.c0.c0, &f.c0.c1, &f.c0.c2, &f.c1.c0, &f.c1.c1, &f.c1.c2};
    for (int i = 0; i < 6; i++) {
        o[2 * i] = cs[i]->c0;
        o[2 * i + 1] = cs[i]->c1;
    }
}

template <class T>
F12<T> load(const void* in) {
    using Fp = typename T::Fp;
    const auto* words = static_cast<const uint64_t*>(in);
    for (int i = 0; i < 12; i++) {
        require(Fp::is_canonical(words + i * Fp::N), "factor: a coefficient is not below p (not a cuzk_miller_loop value)");
    }
    const auto* c = static_cast<const Fp*>(in);
    F12<T> f;
    typename T::F2* cs[6] = {&f.c0.c0, &f.c0.c1, &f.c0.c2, &f.c1.c0, &f.c1.c1, &f.c1.c2};
    for (int i = 0; i < 6; i++) {
        *cs[i] = {c[2 * i], c[2 * i + 1]};
    }
    return f;
}

// The Miller loop of the n pairs (points copied where they are not aligned).
template <class T>
F12<T> loop(const void* g1, const void* g2, uint64_t n) {
    using P = Pairing<T>;
    HostArray<typename P::G1A> c1;
    HostArray<typename P::G2A> c2;
    const auto* p = n ? aligned_points<typename T::G1>(g1, n, c1) : nullptr;
    const auto* q = n ? aligned_points<typename T::G2>(g2, n, c2) : nullptr;
    return P::miller_loop(p, q, n);
}

template <class T>
void pairing_product(const void* g1, const void* g2, uint64_t n, void* out, uint32_t* is_one) {
    F12<T> f = Pairing<T>::final_exponentiation(loop<T>(g1, g2, n));
    if (out != nullptr) store<T>(f, out);
    if (is_one != nullptr) *is_one = f.is_one() ? 1 : 0;
}

template <class T>
void check(const void* g1, const void* g2, uint64_t n, const void* factor, uint32_t* is_one) {
    F12<T> f = loop<T>(g1, g2, n);
    if (factor != nullptr) f = f * load<T>(factor);
    *is_one = Pairing<T>::final_exponentiation(f).is_one() ? 1 : 0;
}

void require_pairs(const void* g1, const void* g2, uint64_t n) {
    if (n > 0) {
        require_ptr(g1, "g1");
        require_ptr(g2, "g2");
    }
    require(n <= (uint64_t(1) << 32), "more than 2^32 pairs");
}
}  // namespace

cuzk_status_t impl_pairing(uint32_t curve, const void* g1, const void* g2, uint64_t n, void* out, uint32_t* is_one) {
    return guarded("cuzk_pairing", [&] {
        require_curve(curve);
        require(out != nullptr || is_one != nullptr, "out and is_one are both null: nothing to return");
        require_pairs(g1, g2, n);
        if (out != nullptr) require_aligned(out, "out");
        if (curve == CUZK_CURVE_BN254) pairing_product<bn254_tower>(g1, g2, n, out, is_one);
        else pairing_product<bls12_381_tower>(g1, g2, n, out, is_one);
    });
}

cuzk_status_t impl_miller_loop(uint32_t curve, const void* g1, const void* g2, uint64_t n, void* out) {
    return guarded("cuzk_miller_loop", [&] {
        require_curve(curve);
        require_ptr(out, "out");
        require_aligned(out, "out");
        require_pairs(g1, g2, n);
        if (curve == CUZK_CURVE_BN254) store<bn254_tower>(loop<bn254_tower>(g1, g2, n), out);
        else store<bls12_381_tower>(loop<bls12_381_tower>(g1, g2, n), out);
    });
}

cuzk_status_t impl_pairing_check(uint32_t curve, const void* g1, const void* g2, uint64_t n, const void* factor, uint32_t* is_one) {
    return guarded("cuzk_pairing_check", [&] {
        require_curve(curve);
        require_ptr(is_one, "is_one");
        require_pairs(g1, g2, n);
        if (factor != nullptr) require_aligned(factor, "factor");
        if (curve == CUZK_CURVE_BN254) check<bn254_tower>(g1, g2, n, factor, is_one);
        else check<bls12_381_tower>(g1, g2, n, factor, is_one);
    });
}

}  // namespace CUZK_ARITH_TAG
}  // namespace cuzk
