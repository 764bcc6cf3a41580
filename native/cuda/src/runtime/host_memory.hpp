// Host buffers that reuse memory already touched.
//
// A fresh page costs a fault on first touch, and on the virtual machines this project is measured
// on that is dear: about 10 us per 4 KiB page (3 ms per MiB) and 1-4 ms per 2 MiB huge page, while
// rewriting memory already touched costs about 0.05 ms per MiB. So buffers of HOST_POOL_MIN bytes
// or more are anonymous mappings that are kept when freed (up to 64 MiB of touched memory) and
// handed to the next request of any kind that fits: the lanes copy of an MSM's bases, an MSM
// task's buckets, H's scratch vectors and the caller's buffers all take their pages from one
// pool, so a proof touches about as much fresh memory as it holds at its peak, not the sum of
// what its steps ask for. A mapping reserves twice what its first request needs (address space
// only: untouched pages cost nothing), so a larger request later can still take it. Requests of
// HOST_HUGE_MIN bytes or more get mappings aligned to 2 MiB and advised (MADV_HUGEPAGE) to use
// transparent huge pages where the kernel allows them. Smaller buffers come from the C allocator.
// Either way the memory is 64-byte aligned, and zero-filled unless asked for as scratch.
#pragma once
#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace cuzk {

constexpr size_t HOST_POOL_MIN = size_t(64) << 10;
constexpr size_t HOST_HUGE_MIN = size_t(1) << 20;

// nullptr when the memory cannot be had; free with host_free and the same byte count. zero = false
// (scratch the caller overwrites) may return a kept mapping with old contents.
void* host_alloc(size_t bytes, bool zero = true) noexcept;
void host_free(void* p, size_t bytes) noexcept;

// n elements of a trivial T in host_alloc memory (zero-filled, or as scratch: contents unspecified);
// throws std::bad_alloc.
enum class Fill { ZERO, SCRATCH };
template <class T>
class HostArray {
    static_assert(std::is_trivially_default_constructible_v<T> && std::is_trivially_destructible_v<T>,
                  "HostArray holds plain data only");
    T* p_ = nullptr;
    size_t n_ = 0;

public:
    HostArray() = default;
    explicit HostArray(size_t n, Fill fill = Fill::ZERO) : n_(n) {
        if (n == 0) return;
        if (n > SIZE_MAX / sizeof(T)) throw std::bad_alloc();
        p_ = static_cast<T*>(host_alloc(n * sizeof(T), fill == Fill::ZERO));
        if (!p_) throw std::bad_alloc();
    }
    HostArray(HostArray&& o) noexcept : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)) {}
    HostArray& operator=(HostArray&& o) noexcept {
        if (this != &o) {
            host_free(p_, n_ * sizeof(T));
            p_ = std::exchange(o.p_, nullptr);
            n_ = std::exchange(o.n_, 0);
        }
        return *this;
    }
    HostArray(const HostArray&) = delete;
    HostArray& operator=(const HostArray&) = delete;
    ~HostArray() { host_free(p_, n_ * sizeof(T)); }

    T* get() const { return p_; }
    size_t size() const { return n_; }
    T& operator[](size_t i) const { return p_[i]; }
    explicit operator bool() const { return p_ != nullptr; }
};

// A std::vector allocator over host_alloc: large scratch vectors from its pool of kept mappings.
template <class T>
struct HostAllocator {
    using value_type = T;
    HostAllocator() = default;
    template <class U>
    HostAllocator(const HostAllocator<U>&) noexcept {}
    T* allocate(size_t n) {
        if (n > SIZE_MAX / sizeof(T)) throw std::bad_alloc();
        void* p = host_alloc(n * sizeof(T), false);  // the vector constructs its elements itself
        if (!p) throw std::bad_alloc();
        return static_cast<T*>(p);
    }
    void deallocate(T* p, size_t n) noexcept { host_free(p, n * sizeof(T)); }
    template <class U>
    bool operator==(const HostAllocator<U>&) const noexcept {
        return true;
    }
    template <class U>
    bool operator!=(const HostAllocator<U>&) const noexcept {
        return false;
    }
};
template <class T>
using HostVector = std::vector<T, HostAllocator<T>>;

}  // namespace cuzk
