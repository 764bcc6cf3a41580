// Products of pairings on the CPU (one build per arithmetic path; see runtime/impl.hpp), for
// Groth16 verification: e(A, B) e(-alpha, beta) e(-L, gamma) e(-C, delta) = 1.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "codec/subgroup.hpp"
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

// From this many unprepared pairs on (a batch verification's), their Miller loops are split over
// the native pool's threads, each part at least SPLIT_PART pairs: the parts' loops run side by side
// (each with its own squarings of f and its own inversion a step: about 3 % more work for two parts
// of 32 pairs, within the noise of a measurement), and their product goes to the one final
// exponentiation. The product is the same whatever the split, so is_one and the G2 answers do not
// depend on the number of threads.
constexpr uint64_t SPLIT_MIN = 32, SPLIT_PART = 16;

// Pairing<T>::miller_loop of the n pairs and the nf prepared ones (with the first part), split as above.
template <class T>
F12<T> miller_loop_split(const typename Pairing<T>::G1A* p, const typename Pairing<T>::G2A* q, uint64_t n,
                         const typename Pairing<T>::G1A* pf = nullptr, const typename Pairing<T>::NLine* const* lines = nullptr,
                         uint64_t nf = 0, typename Pairing<T>::Proj* ends = nullptr) {
    using P = Pairing<T>;
    const uint64_t parts = n < SPLIT_MIN ? 1 : std::min<uint64_t>(resolve_threads(0), n / SPLIT_PART);
    if (parts <= 1) return P::miller_loop(p, q, n, pf, lines, nf, ends);
    std::vector<F12<T>> f(parts);
    parallel_for(0, parts, [&](size_t c) {
        const uint64_t begin = n * c / parts, end = n * (c + 1) / parts;
        f[c] = P::miller_loop(p + begin, q + begin, end - begin, c == 0 ? pf : nullptr, c == 0 ? lines : nullptr, c == 0 ? nf : 0,
                              ends != nullptr ? ends + begin : nullptr);
    });
    for (uint64_t c = 1; c < parts; c++) f[0] = f[0] * f[c];  // BLS12-381's conjugation commutes with the product
    return f[0];
}

// The Miller loop of the n pairs (points copied where they are not aligned).
template <class T>
F12<T> loop(const void* g1, const void* g2, uint64_t n) {
    using P = Pairing<T>;
    HostArray<typename P::G1A> c1;
    HostArray<typename P::G2A> c2;
    const auto* p = n ? aligned_points<typename T::G1>(g1, n, c1) : nullptr;
    const auto* q = n ? aligned_points<typename T::G2>(g2, n, c2) : nullptr;
    return miller_loop_split<T>(p, q, n);
}

template <class T>
void pairing_product(const void* g1, const void* g2, uint64_t n, void* out, uint32_t* is_one) {
    F12<T> f = Pairing<T>::final_exponentiation(loop<T>(g1, g2, n));
    if (out != nullptr) store<T>(f, out);
    if (is_one != nullptr) *is_one = f.is_one() ? 1 : 0;
}

// One G2 point's prepared lines: this header, then Pairing<T>::LINES normalized lines (two Fp2
// each: Pairing<T>::NLine).
struct PreparedHeader {
    uint64_t magic;  // PREPARED_MAGIC
    uint64_t curve;
    uint64_t lines;  // Pairing<T>::LINES
    uint64_t live;   // 0 for a point at infinity (no lines follow, the space is zero)
};
constexpr uint64_t PREPARED_MAGIC = 0x324e4c4e4b5a5543ull;  // "CUZKNLN2": normalized lines

template <class T>
constexpr uint64_t prepared_bytes() {
    return sizeof(PreparedHeader) + (uint64_t)Pairing<T>::LINES * sizeof(typename Pairing<T>::NLine);
}

template <class T>
void prepare(uint32_t curve, const void* g2, uint64_t n, void* out, uint64_t* bytes) {
    using P = Pairing<T>;
    constexpr uint64_t each = prepared_bytes<T>();
    if (out == nullptr) {
        *bytes = each;
        return;
    }
    require(n <= *bytes / each, "out holds " + std::to_string(*bytes) + " bytes; " + std::to_string(n) + " points' lines take " +
                                    std::to_string(n) + " x " + std::to_string(each));
    HostArray<typename P::G2A> copy;
    const auto* q = n ? aligned_points<typename T::G2>(g2, n, copy) : nullptr;
    for (uint64_t k = 0; k < n; k++) {
        auto* at = static_cast<unsigned char*>(out) + k * each;
        auto* h = reinterpret_cast<PreparedHeader*>(at);
        std::memset(at, 0, each);
        *h = {PREPARED_MAGIC, curve, (uint64_t)P::LINES, q[k].is_inf() ? 0u : 1u};
        if (h->live) {
            require(P::prepare(q[k], reinterpret_cast<typename P::NLine*>(h + 1)),
                    "point " + std::to_string(k) + " is not a G2 point of order r (a line of its loop is degenerate)");
        }
    }
}

// The k-th point's lines in prepared (null for a point at infinity), after checking that they
// are what prepare() wrote for this curve: its header, and every coefficient below p.
template <class T>
const typename Pairing<T>::NLine* prepared_lines(uint32_t curve, const void* prepared, uint64_t k) {
    using P = Pairing<T>;
    using Fp = typename T::Fp;
    const auto* at = static_cast<const unsigned char*>(prepared) + k * prepared_bytes<T>();
    const auto* h = reinterpret_cast<const PreparedHeader*>(at);
    const std::string which = "prepared lines " + std::to_string(k);
    require(h->magic == PREPARED_MAGIC && h->lines == (uint64_t)P::LINES && h->live <= 1,
            which + ": not lines from cuzk_g2_prepare");
    require(h->curve == curve, which + ": prepared for another curve");
    if (!h->live) return nullptr;
    const auto* words = reinterpret_cast<const uint64_t*>(h + 1);
    constexpr int per_line = (int)(sizeof(typename P::NLine) / sizeof(uint64_t));
    for (int i = 0; i < P::LINES * per_line; i += Fp::N) {
        require(Fp::is_canonical(words + i), which + ": a coefficient is not below p (not lines from cuzk_g2_prepare)");
    }
    return reinterpret_cast<const typename P::NLine*>(h + 1);
}

template <class T>
void check(uint32_t curve, const void* g1, const void* g2, uint64_t n, const void* g1_fixed, const void* prepared,
                    uint64_t n_fixed, const void* factor, uint32_t* is_one, uint64_t* outside = nullptr) {
    using P = Pairing<T>;
    std::vector<const typename P::NLine*> lines(n_fixed);
    for (uint64_t k = 0; k < n_fixed; k++) lines[k] = prepared_lines<T>(curve, prepared, k);
    HostArray<typename P::G1A> c1, cf;
    HostArray<typename P::G2A> c2;
    const auto* p = n ? aligned_points<typename T::G1>(g1, n, c1) : nullptr;
    const auto* q = n ? aligned_points<typename T::G2>(g2, n, c2) : nullptr;
    const auto* pf = n_fixed ? aligned_points<typename T::G1>(g1_fixed, n_fixed, cf) : nullptr;
    std::vector<typename P::Proj> ends(outside != nullptr ? n : 0);
    F12<T> f = miller_loop_split<T>(p, q, n, pf, lines.data(), n_fixed, outside != nullptr ? ends.data() : nullptr);
    if (outside != nullptr) {
        *outside = n;
        for (uint64_t i = 0; i < n; i++) {
            // a pair left out of the loop (its G1 point at infinity) has its G2 point checked on its own
            const bool in = q[i].is_inf() || (p[i].is_inf() ? in_subgroup<typename T::G2>(q[i]) : in_g2_from_loop_end<T>(q[i], ends[i]));
            if (!in) {
                *outside = i;
                break;
            }
        }
    }
    if (factor != nullptr) f = f * load<T>(factor);
    *is_one = P::final_exponentiation(f).is_one() ? 1 : 0;
}

void require_pairs(const void* g1, const void* g2, uint64_t n) {
    if (n > 0) {
        require_ptr(g1, "g1");
        require_ptr(g2, "g2");
    }
    require(n <= (uint64_t(1) << 32), "more than 2^32 pairs");
}

// cuzk_pairing_check's and cuzk_pairing_check_g2's arguments checked, then check() (outside null: no G2 membership asked).
void checked_pairs(uint32_t curve, const void* g1, const void* g2, uint64_t n, const void* g1_fixed, const void* prepared,
                   uint64_t n_fixed, const void* factor, uint32_t* is_one, uint64_t* outside) {
    require_curve(curve);
    require_ptr(is_one, "is_one");
    require_pairs(g1, g2, n);
    if (n_fixed > 0) {
        require_ptr(g1_fixed, "g1_fixed");
        require_aligned(prepared, "prepared");
    }
    require(n_fixed <= 64, "more than 64 prepared pairs");
    if (factor != nullptr) require_aligned(factor, "factor");
    if (curve == CUZK_CURVE_BN254) check<bn254_tower>(curve, g1, g2, n, g1_fixed, prepared, n_fixed, factor, is_one, outside);
    else check<bls12_381_tower>(curve, g1, g2, n, g1_fixed, prepared, n_fixed, factor, is_one, outside);
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

cuzk_status_t impl_g2_prepare(uint32_t curve, const void* g2, uint64_t n, void* out, uint64_t* bytes) {
    return guarded("cuzk_g2_prepare", [&] {
        require_curve(curve);
        require_ptr(bytes, "bytes");
        if (out != nullptr) {
            require_aligned(out, "out");
            if (n > 0) require_ptr(g2, "g2");
        }
        if (curve == CUZK_CURVE_BN254) prepare<bn254_tower>(curve, g2, n, out, bytes);
        else prepare<bls12_381_tower>(curve, g2, n, out, bytes);
    });
}

cuzk_status_t impl_pairing_check(uint32_t curve, const void* g1, const void* g2, uint64_t n, const void* g1_fixed, const void* prepared,
                                 uint64_t n_fixed, const void* factor, uint32_t* is_one) {
    return guarded("cuzk_pairing_check", [&] { checked_pairs(curve, g1, g2, n, g1_fixed, prepared, n_fixed, factor, is_one, nullptr); });
}

cuzk_status_t impl_pairing_check_g2(uint32_t curve, const void* g1, const void* g2, uint64_t n, const void* g1_fixed, const void* prepared,
                                    uint64_t n_fixed, const void* factor, uint32_t* is_one, uint64_t* outside) {
    return guarded("cuzk_pairing_check_g2", [&] {
        require_ptr(outside, "outside");
        checked_pairs(curve, g1, g2, n, g1_fixed, prepared, n_fixed, factor, is_one, outside);
    });
}

}  // namespace CUZK_ARITH_TAG
}  // namespace cuzk
