#include "host_memory.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>
#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace cuzk {

namespace {
constexpr size_t HUGE_PAGE = size_t(2) << 20;
constexpr size_t ALIGN = 64;
// Freed mappings kept for the next scratch request of the same size (a prover repeating the same
// proof makes the same requests), at most this many bytes; the rest are unmapped.
constexpr size_t KEEP_MAX = size_t(64) << 20;

size_t round_up(size_t v, size_t to) { return (v + to - 1) / to * to; }

struct Kept {
    void* p;
    size_t size;
};
std::mutex kept_mutex;
std::vector<Kept>* kept = new std::vector<Kept>();  // never destroyed: frees may follow static destructors
size_t kept_bytes = 0;

#if defined(__linux__)
void* take_kept(size_t size) {
    std::lock_guard<std::mutex> lock(kept_mutex);
    for (size_t i = kept->size(); i-- > 0;) {
        if ((*kept)[i].size == size) {
            void* p = (*kept)[i].p;
            (*kept)[i] = kept->back();
            kept->pop_back();
            kept_bytes -= size;
            return p;
        }
    }
    return nullptr;
}

bool keep(void* p, size_t size) {
    std::lock_guard<std::mutex> lock(kept_mutex);
    if (kept_bytes + size > KEEP_MAX) return false;
    try {
        kept->push_back({p, size});
    } catch (...) {
        return false;
    }
    kept_bytes += size;
    return true;
}

void* map_huge(size_t size) {
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
}  // namespace

void* host_alloc(size_t bytes, bool zero) noexcept {
    if (bytes == 0) bytes = 1;
#if defined(__linux__)
    if (bytes >= HOST_HUGE_MIN) {
        if (bytes > SIZE_MAX - 2 * HUGE_PAGE) return nullptr;
        const size_t size = round_up(bytes, HUGE_PAGE);
        // A kept mapping serves scratch only: zeroing it would cost what a fresh one costs.
        if (!zero) {
            if (void* p = take_kept(size)) return p;
        }
        return map_huge(size);
    }
#endif
    const size_t size = round_up(bytes, ALIGN);
    void* p = std::aligned_alloc(ALIGN, size);
    if (p && zero) std::memset(p, 0, size);
    return p;
}

void host_free(void* p, size_t bytes) noexcept {
    if (!p) return;
    if (bytes == 0) bytes = 1;
#if defined(__linux__)
    if (bytes >= HOST_HUGE_MIN) {
        const size_t size = round_up(bytes, HUGE_PAGE);
        if (!keep(p, size)) munmap(p, size);
        return;
    }
#endif
    std::free(p);
}

}  // namespace cuzk
