// An MSM's bases as the caller passed them.
//
// The bases may sit at any address: a snarkjs zkey's point sections usually start 4 bytes past an
// 8-byte boundary (after 12-byte section headers), and a prover that maps the file uses them in
// place instead of copying megabytes into fresh memory first. So a base is read by copying its
// bytes out (plain unaligned loads on x86), never through a misaligned Affine pointer.
#pragma once
#include <cstdint>
#include <cstring>

#include "cuzk/curve.hpp"
#include "runtime/host_memory.hpp"

CUZK_NS_BEGIN

template <class G>
class BaseArray {
    const unsigned char* p_;

public:
    explicit BaseArray(const void* p) : p_(static_cast<const unsigned char*>(p)) {}

    Affine<G> operator[](size_t i) const {
        Affine<G> a;
        std::memcpy(static_cast<void*>(&a), p_ + i * sizeof(Affine<G>), sizeof a);
        return a;
    }
    // Whether base i is infinity (all zeros), reading x and then, only when x is zero, y.
    bool is_inf(size_t i) const {
        static_assert(sizeof(Affine<G>) % 16 == 0, "x and y are whole 64-bit words");
        constexpr size_t half = sizeof(Affine<G>) / 16;  // words per coordinate
        const unsigned char* q = p_ + i * sizeof(Affine<G>);
        for (size_t c = 0; c < 2; c++) {
            uint64_t acc = 0;
            for (size_t w = 0; w < half; w++) {
                uint64_t v;
                std::memcpy(&v, q + 8 * (c * half + w), 8);
                acc |= v;
            }
            if (acc) return false;
        }
        return true;
    }
    bool aligned() const { return reinterpret_cast<uintptr_t>(p_) % alignof(Affine<G>) == 0; }
    // The bases as an array; only when aligned().
    const Affine<G>* aligned_data() const { return reinterpret_cast<const Affine<G>*>(p_); }
};

// n points at p as an aligned array, for code that keeps pointers to them: p itself when it is
// aligned, else a copy made in `copy`.
template <class G>
const Affine<G>* aligned_points(const void* p, uint64_t n, HostArray<Affine<G>>& copy) {
    const BaseArray<G> points(p);
    if (points.aligned() || n == 0) return points.aligned_data();
    copy = HostArray<Affine<G>>(n, Fill::SCRATCH);
    std::memcpy(static_cast<void*>(copy.get()), p, n * sizeof(Affine<G>));
    return copy.get();
}

CUZK_NS_END
