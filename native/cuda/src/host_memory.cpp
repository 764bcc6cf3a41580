#include "host_memory.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace cuzk {

namespace {
constexpr size_t HUGE_PAGE = size_t(2) << 20;
constexpr size_t ALIGN = 64;

size_t round_up(size_t v, size_t to) { return (v + to - 1) / to * to; }
}  // namespace

void* host_alloc(size_t bytes) noexcept {
    if (bytes == 0) bytes = 1;
#if defined(__linux__)
    if (bytes >= HOST_HUGE_MIN) {
        if (bytes > SIZE_MAX - 2 * HUGE_PAGE) return nullptr;
        const size_t size = round_up(bytes, HUGE_PAGE);
        // Map one huge page more than needed, then unmap the unaligned head and the tail.
        void* raw = mmap(nullptr, size + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (raw == MAP_FAILED) return nullptr;
        const uintptr_t start = reinterpret_cast<uintptr_t>(raw);
        const uintptr_t aligned = round_up(start, HUGE_PAGE);
        if (aligned > start) munmap(raw, aligned - start);
        const uintptr_t end = start + size + HUGE_PAGE;
        if (end > aligned + size) munmap(reinterpret_cast<void*>(aligned + size), end - (aligned + size));
        void* p = reinterpret_cast<void*>(aligned);
        madvise(p, size, MADV_HUGEPAGE);  // advice only: without huge pages it is still memory
        return p;
    }
#endif
    const size_t size = round_up(bytes, ALIGN);
    void* p = std::aligned_alloc(ALIGN, size);
    if (p) std::memset(p, 0, size);
    return p;
}

void host_free(void* p, size_t bytes) noexcept {
    if (!p) return;
    if (bytes == 0) bytes = 1;
#if defined(__linux__)
    if (bytes >= HOST_HUGE_MIN) {
        munmap(p, round_up(bytes, HUGE_PAGE));
        return;
    }
#endif
    std::free(p);
}

}  // namespace cuzk
