// Products of pairings on the CPU (one build per arithmetic path; see runtime/impl.hpp), for
// Groth16 verification: e(A, B) e(-alpha, beta) e(-L, gamma) e(-C, delta) = 1.
#include "cuzk/pairing.hpp"
#include "msm/base_array.hpp"
#include "runtime/api_common.hpp"

namespace cuzk {
inline namespace CUZK_ARITH_TAG {

namespace {
template <class T>
void pairing_product(const void* g1, const void* g2, uint64_t n, void* out, uint32_t* is_one) {
    using P = Pairing<T>;
    HostArray<typename P::G1A> c1;
    HostArray<typename P::G2A> c2;
    const auto* p = n ? aligned_points<typename T::G1>(g1, n, c1) : nullptr;
    const auto* q = n ? aligned_points<typename T::G2>(g2, n, c2) : nullptr;
    typename P::F12 f = P::pairing(p, q, n);
    if (out != nullptr) {
        auto* o = static_cast<typename T::Fp*>(out);
        const typename T::F2* cs[6] = {&f.c0.c0, &f.c0.c1, &f.c0.c2, &f.c1.c0, &f.c1.c1, &f.c1.c2};
        for (int i = 0; i < 6; i++) {
            o[2 * i] = cs[i]->c0;
            o[2 * i + 1] = cs[i]->c1;
        }
    }
    if (is_one != nullptr) *is_one = f.is_one() ? 1 : 0;
}
}  // namespace

cuzk_status_t impl_pairing(uint32_t curve, const void* g1, const void* g2, uint64_t n, void* out, uint32_t* is_one) {
    return guarded("cuzk_pairing", [&] {
        require_curve(curve);
        require(out != nullptr || is_one != nullptr, "out and is_one are both null: nothing to return");
        if (n > 0) {
            require_ptr(g1, "g1");
            require_ptr(g2, "g2");
        }
        require(n <= (uint64_t(1) << 32), "more than 2^32 pairs");
        if (out != nullptr) require_aligned(out, "out");
        if (curve == CUZK_CURVE_BN254) pairing_product<bn254_tower>(g1, g2, n, out, is_one);
        else pairing_product<bls12_381_tower>(g1, g2, n, out, is_one);
    });
}

}  // namespace CUZK_ARITH_TAG
}  // namespace cuzk
