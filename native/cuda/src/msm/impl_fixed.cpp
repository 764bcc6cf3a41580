// Fixed-base sums: sum k_i P_i over a few points that stay the same from call to call (a Groth16
// verification key's IC, summed with every proof's public signals), from a table of their
// multiples made once: for each point P and each j = 0..64, the affine 1..8 times 16^j P. A
// scalar in signed radix-16 digits (d_j in [-8, 8]) then costs one mixed addition per nonzero
// digit and no doubling, where Straus's method (msm_cpu.hpp) doubles 255 times per call.
// One build per arithmetic path (see runtime/impl.hpp).
#include <cstring>
#include <vector>

#include "cuzk/ops.hpp"
#include "runtime/api_common.hpp"

namespace cuzk {
inline namespace CUZK_ARITH_TAG {

namespace {

constexpr int FIXED_WINDOWS = 65;  // a 256-bit scalar in signed radix-16 digits: 64 and a carry
constexpr int FIXED_MULTIPLES = 8;
constexpr uint64_t FIXED_MAGIC = 0x31786966'6b7a7563ull;  // "cuzkfix1"

// The table: a header of four words (magic, curve, group, n), then the points' multiples.
struct FixedHeader {
    uint64_t magic, curve, group, n;
};

template <class G>
uint64_t fixed_bytes(uint64_t n) {
    return sizeof(FixedHeader) + n * FIXED_WINDOWS * FIXED_MULTIPLES * sizeof(Affine<G>);
}

template <class G>
void prepare(uint32_t curve, uint32_t group, const Affine<G>* points, uint64_t n, uint8_t* out) {
    FixedHeader h{FIXED_MAGIC, curve, group, n};
    std::memcpy(out, &h, sizeof h);
    Affine<G>* table = reinterpret_cast<Affine<G>*>(out + sizeof h);
    std::vector<XYZZ<G>> multiples(FIXED_WINDOWS * FIXED_MULTIPLES);
    std::vector<typename G::F> scratch(multiples.size());
    for (uint64_t i = 0; i < n; i++) {
        XYZZ<G> base = XYZZ<G>::from_affine(points[i]);  // 16^j P
        for (int j = 0; j < FIXED_WINDOWS; j++) {
            XYZZ<G>* m = &multiples[(size_t)j * FIXED_MULTIPLES];
            m[0] = base;
            m[1] = base.dbl();
            for (int k = 2; k < FIXED_MULTIPLES; k++) {
                m[k] = m[k - 1];
                m[k].add(base);
            }
            base = m[FIXED_MULTIPLES - 1].dbl();
        }
        batch_to_affine<G>(multiples.data(), table + i * FIXED_WINDOWS * FIXED_MULTIPLES, scratch.data(), multiples.size());
    }
}

// The scalar (any 256-bit value) reduced mod r, in signed radix-16 digits: k = sum d_j 16^j.
template <class G>
void fixed_digits(const uint64_t* scalar, int8_t* d) {
    using Fr = typename G::Fr;
    uint64_t v[4] = {scalar[0], scalar[1], scalar[2], scalar[3]};
    const Limbs<4> r = Fr::Params::modulus();
    while (!Fr::is_canonical(v)) {
        uint64_t borrow = 0;
        for (int w = 0; w < 4; w++) borrow = sub_borrow(v[w], r.v[w], borrow, v[w]);
    }
    int carry = 0;
    for (int j = 0; j < 64; j++) {
        int x = (int)((v[j >> 4] >> (4 * (j & 15))) & 15) + carry;
        carry = x > 8;
        d[j] = (int8_t)(carry ? x - 16 : x);
    }
    d[64] = (int8_t)carry;
}

template <class G>
void sum(const uint8_t* table_bytes, uint64_t n, const uint64_t* scalars, Affine<G>* result) {
    const Affine<G>* table = reinterpret_cast<const Affine<G>*>(table_bytes + sizeof(FixedHeader));
    XYZZ<G> acc = XYZZ<G>::infinity();
    int8_t d[FIXED_WINDOWS];
    for (uint64_t i = 0; i < n; i++) {
        fixed_digits<G>(scalars + 4 * i, d);
        const Affine<G>* t = table + i * FIXED_WINDOWS * FIXED_MULTIPLES;
        for (int j = 0; j < FIXED_WINDOWS; j++) {
            if (d[j] > 0) acc.add_affine(t[j * FIXED_MULTIPLES + d[j] - 1]);
            else if (d[j] < 0) acc.sub_affine(t[j * FIXED_MULTIPLES - d[j] - 1]);
        }
    }
    *result = acc.to_affine();
}

}  // namespace

cuzk_status_t impl_fixed_prepare(uint32_t curve, uint32_t group, const void* points, uint64_t n, void* out, uint64_t* bytes) {
    return guarded("cuzk_fixed_prepare", [&] {
        require_ptr(bytes, "bytes");
        require(n <= (1u << 20), "at most 2^20 points, not " + std::to_string(n));
        with_group(curve, group, [&](auto tag) {
            using G = typename decltype(tag)::type;
            const uint64_t need = fixed_bytes<G>(n);
            if (out == nullptr) {
                *bytes = need;
                return;
            }
            require_aligned(out, "out");
            require(*bytes >= need, "out holds " + std::to_string(*bytes) + " bytes, the table needs " + std::to_string(need));
            if (n > 0) require_aligned(points, "points");
            prepare<G>(curve, group, static_cast<const Affine<G>*>(points), n, static_cast<uint8_t*>(out));
            *bytes = need;
        });
    });
}

cuzk_status_t impl_fixed_sum(uint32_t curve, uint32_t group, const void* table, uint64_t n, const void* scalars, void* result) {
    return guarded("cuzk_fixed_sum", [&] {
        require_aligned(table, "table");
        require_aligned(result, "result");
        if (n > 0) require_aligned(scalars, "scalars");
        with_group(curve, group, [&](auto tag) {
            using G = typename decltype(tag)::type;
            FixedHeader h;
            std::memcpy(&h, table, sizeof h);
            require(h.magic == FIXED_MAGIC, "the table was not made by cuzk_fixed_prepare");
            require(h.curve == curve && h.group == group, "the table is for " + curve_name((uint32_t)h.curve) + " G" +
                                                              std::to_string(h.group) + ", not " + curve_name(curve) + " G" +
                                                              std::to_string(group));
            require(h.n == n, "the table holds " + std::to_string(h.n) + " points, not " + std::to_string(n));
            sum<G>(static_cast<const uint8_t*>(table), n, static_cast<const uint64_t*>(scalars), static_cast<Affine<G>*>(result));
        });
    });
}

}  // namespace CUZK_ARITH_TAG
}  // namespace cuzk
