// Groth16 synthesis on the CPU: a = A.w, b = B.w, c = a o b from a snarkjs coefficient section
// (one build per arithmetic path; see runtime/impl.hpp).
#include <algorithm>
#include <atomic>
#include <cstring>
#include <vector>

#include "cuzk/field.hpp"
#include "runtime/api_common.hpp"
#include "runtime/host_memory.hpp"

namespace cuzk {
inline namespace CUZK_ARITH_TAG {

namespace {

constexpr size_t ENTRY_BYTES = 12 + 32;

struct Entry {
    uint32_t matrix, constraint, signal;
    const uint8_t* value;
};

inline Entry entry_at(const uint8_t* base, size_t i) {
    const uint8_t* e = base + i * ENTRY_BYTES;
    Entry out;
    std::memcpy(&out.matrix, e, 4);
    std::memcpy(&out.constraint, e + 4, 4);
    std::memcpy(&out.signal, e + 8, 4);
    out.value = e + 12;
    return out;
}

template <class Fr>
inline void apply(const Entry& e, const uint8_t* witness, Fr* a, Fr* b) {
    Fr coef, w;
    std::memcpy(coef.l, e.value, 32);
    std::memcpy(w.l, witness + (size_t)e.signal * 32, 32);
    // coef holds coefficient * R^2; the Montgomery product with the canonical witness value
    // gives coefficient * w * R, the Montgomery form of their product.
    Fr* out = e.matrix == 0 ? a : b;
    out[e.constraint] += coef * w;
}

template <class Fr>
void synthesize(const cuzk_abc_config& cfg, const uint8_t* coeffs, const uint8_t* witness, Fr* a, Fr* b, Fr* c) {
    const unsigned threads = resolve_threads(cfg.threads);
    const uint64_t n = cfg.n_coeffs, domain = cfg.domain_size;
    const size_t zero_chunk = 1 << 14;
    parallel_for(threads, (domain + zero_chunk - 1) / zero_chunk, [&](size_t k) {
        size_t begin = k * zero_chunk, end = std::min<size_t>(domain, begin + zero_chunk);
        std::memset(static_cast<void*>(a + begin), 0, (end - begin) * sizeof(Fr));
        std::memset(static_cast<void*>(b + begin), 0, (end - begin) * sizeof(Fr));
    });

    // Entries are spread over ranges of constraints so that each range, and so each output
    // element, is written by one thread whatever the order of the section: count the entries of
    // each (chunk, range), turn the counts into offsets, scatter entry indices, then apply.
    const size_t chunks = std::max<size_t>(1, std::min<size_t>((size_t)threads * 4, (n + 4095) / 4096));
    const size_t ranges = std::max<size_t>(1, std::min<size_t>((size_t)threads * 4, domain));
    const size_t per_chunk = (n + chunks - 1) / chunks;
    auto range_of = [&](uint32_t constraint) { return (size_t)((unsigned __int128)constraint * ranges / domain); };

    std::vector<uint64_t> counts(chunks * ranges, 0);
    std::atomic<uint64_t> first_bad{UINT64_MAX};
    parallel_for(threads, chunks, [&](size_t k) {
        size_t begin = k * per_chunk, end = std::min<size_t>(n, begin + per_chunk);
        uint64_t* cnt = &counts[k * ranges];
        for (size_t i = begin; i < end; i++) {
            Entry e = entry_at(coeffs, i);
            if (e.matrix > 1 || e.constraint >= domain || e.signal >= cfg.n_vars) {
                uint64_t cur = first_bad.load();
                while (i < cur && !first_bad.compare_exchange_weak(cur, i)) {
                }
                return;
            }
            cnt[range_of(e.constraint)]++;
        }
    });
    if (first_bad.load() != UINT64_MAX) {
        uint64_t i = first_bad.load();
        Entry e = entry_at(coeffs, i);
        fail(CUZK_ERR_INVALID_ARGUMENT,
             "coefficient " + std::to_string(i) + " is out of range: matrix " + std::to_string(e.matrix) + " (0 or 1), constraint " +
                 std::to_string(e.constraint) + " (domain " + std::to_string(domain) + "), signal " + std::to_string(e.signal) +
                 " (witness length " + std::to_string(cfg.n_vars) + ")");
    }
    // offsets: range-major, so each range's entries are contiguous
    std::vector<uint64_t> offset(chunks * ranges);
    std::vector<uint64_t> range_begin(ranges + 1);
    uint64_t total = 0;
    for (size_t r = 0; r < ranges; r++) {
        range_begin[r] = total;
        for (size_t k = 0; k < chunks; k++) {
            offset[k * ranges + r] = total;
            total += counts[k * ranges + r];
        }
    }
    range_begin[ranges] = total;
    const bool small_index = n <= UINT32_MAX;
    HostArray<uint32_t> order32(small_index ? n : 0, Fill::SCRATCH);  // every entry is written below
    HostArray<uint64_t> order64(small_index ? 0 : n, Fill::SCRATCH);
    parallel_for(threads, chunks, [&](size_t k) {
        size_t begin = k * per_chunk, end = std::min<size_t>(n, begin + per_chunk);
        uint64_t* off = &offset[k * ranges];
        for (size_t i = begin; i < end; i++) {
            size_t r = range_of(entry_at(coeffs, i).constraint);
            if (small_index) order32[off[r]++] = (uint32_t)i;
            else order64[off[r]++] = i;
        }
    });
    parallel_for(threads, ranges, [&](size_t r) {
        for (uint64_t j = range_begin[r]; j < range_begin[r + 1]; j++) {
            size_t i = small_index ? order32[j] : order64[j];
            apply(entry_at(coeffs, i), witness, a, b);
        }
    });
    parallel_for(threads, (domain + zero_chunk - 1) / zero_chunk, [&](size_t k) {
        size_t begin = k * zero_chunk, end = std::min<size_t>(domain, begin + zero_chunk);
        for (size_t i = begin; i < end; i++) c[i] = a[i] * b[i];
    });
}

}  // namespace

cuzk_status_t impl_groth16_abc(const cuzk_abc_config* config, void* a, void* b, void* c) {
    return guarded("cuzk_groth16_abc", [&] {
        require_ptr(config, "config");
        const void* coeffs = config->coeffs;
        const void* witness = config->witness;
        require(config->domain_size > 0, "domain_size must be positive");
        require(config->n_vars > 0, "the witness must not be empty");
        require_ptr(witness, "witness");
        require(config->n_coeffs == 0 || coeffs != nullptr, "coeffs is null");
        require_aligned(a, "a");
        require_aligned(b, "b");
        require_aligned(c, "c");
        with_scalar_field(config->curve, [&](auto tag) {
            using Fr = typename decltype(tag)::type;
            synthesize<Fr>(*config, static_cast<const uint8_t*>(coeffs), static_cast<const uint8_t*>(witness),
                           static_cast<Fr*>(a), static_cast<Fr*>(b), static_cast<Fr*>(c));
        });
    });
}

}  // namespace CUZK_ARITH_TAG
}  // namespace cuzk
