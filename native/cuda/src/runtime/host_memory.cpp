#include "runtime/host_memory.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace cuzk {

namespace {

constexpr size_t HUGE_PAGE = size_t(2) << 20;
constexpr size_t ALIGN = 64;
constexpr size_t SMALL_GRAIN = size_t(64) << 10;  // small mappings are whole multiples of this
// Touched bytes of the freed mappings kept for later requests; the rest are unmapped.
constexpr size_t KEEP_MAX = size_t(64) << 20;

size_t round_up(size_t v, size_t to) { return (v + to - 1) / to * to; }

#if defined(__linux__)
// A mapping of `reserve` bytes of which the first `used` may have been touched (the most any
// request it served asked for); the rest has never been handed out, so it is still the kernel's
// zero-filled and untouched memory.
struct Mapping {
    void* p;
    size_t reserve;
    size_t used;
    bool huge;  // advised to use huge pages
};

std::mutex pool_mutex;
// Never destroyed: frees may follow static destructors.
std::vector<Mapping>* free_maps = new std::vector<Mapping>();
std::unordered_map<void*, Mapping>* live_maps = new std::unordered_map<void*, Mapping>();
size_t kept_used = 0;

// A fresh mapping for a first request of `bytes`: twice that reserved where the system allows it
// (address space: pages never touched cost nothing), so that larger requests later can take it
// too. From HOST_HUGE_MIN on it is aligned to 2 MiB and advised to use huge pages; smaller ones
// stay in 4 KiB pages (a huge page would touch 2 MiB for them).
bool map_new(size_t bytes, Mapping& m) {
    const bool huge = bytes >= HOST_HUGE_MIN;
    const size_t grain = huge ? HUGE_PAGE : SMALL_GRAIN;
    if (bytes > (SIZE_MAX >> 2)) return false;
    const size_t slack = huge ? HUGE_PAGE : 0;  // mapped and trimmed, for the alignment
    size_t reserve = round_up(2 * bytes, grain);
    void* raw = mmap(nullptr, reserve + slack, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) {  // no room for the spare half: the request alone
        reserve = round_up(bytes, grain);
        raw = mmap(nullptr, reserve + slack, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (raw == MAP_FAILED) return false;
    }
    uintptr_t start = reinterpret_cast<uintptr_t>(raw);
    if (huge) {
        const uintptr_t aligned = round_up(start, HUGE_PAGE);
        if (aligned > start) munmap(raw, aligned - start);
        const uintptr_t end = start + reserve + slack;
        if (end > aligned + reserve) munmap(reinterpret_cast<void*>(aligned + reserve), end - (aligned + reserve));
        start = aligned;
        madvise(reinterpret_cast<void*>(start), reserve, MADV_HUGEPAGE);  // advice only
    }
    m = Mapping{reinterpret_cast<void*>(start), reserve, 0, huge};
    return true;
}

// The kept mapping that serves `bytes` with the most memory already touched (of smaller reserve
// when equal), taken out of the pool; false when none is large enough. Requests from
// HOST_HUGE_MIN on take only the 2 MiB-aligned mappings made for such requests.
bool take_kept(size_t bytes, Mapping& m) {
    size_t best = SIZE_MAX;
    for (size_t i = 0; i < free_maps->size(); i++) {
        const Mapping& c = (*free_maps)[i];
        if (c.reserve < bytes || (bytes >= HOST_HUGE_MIN && !c.huge)) continue;
        if (best == SIZE_MAX) {
            best = i;
            continue;
        }
        const Mapping& b = (*free_maps)[best];
        const size_t cu = std::min(c.used, bytes), bu = std::min(b.used, bytes);
        if (cu > bu || (cu == bu && c.reserve < b.reserve)) best = i;
    }
    if (best == SIZE_MAX) return false;
    m = (*free_maps)[best];
    (*free_maps)[best] = free_maps->back();
    free_maps->pop_back();
    kept_used -= m.used;
    return true;
}

void* pooled_alloc(size_t bytes, bool zero) noexcept {
    Mapping m;
    bool reused;
    {
        std::lock_guard<std::mutex> lock(pool_mutex);
        reused = take_kept(bytes, m);
    }
    if (!reused && !map_new(bytes, m)) return nullptr;
    // Beyond `used` the mapping was never handed out: still zero.
    if (zero && reused) std::memset(m.p, 0, std::min(bytes, m.used));
    m.used = std::max(m.used, bytes);
    try {
        std::lock_guard<std::mutex> lock(pool_mutex);
        live_maps->emplace(m.p, m);
    } catch (...) {
        munmap(m.p, m.reserve);
        return nullptr;
    }
    return m.p;
}

// Returns p's mapping to the pool (or unmaps it); false when p is not a pooled mapping.
bool pooled_free(void* p) noexcept {
    Mapping m;
    {
        std::lock_guard<std::mutex> lock(pool_mutex);
        auto it = live_maps->find(p);
        if (it == live_maps->end()) return false;
        m = it->second;
        live_maps->erase(it);
        if (kept_used + m.used <= KEEP_MAX) {
            try {
                free_maps->push_back(m);
                kept_used += m.used;
                return true;
            } catch (...) {  // no room to keep it: unmapped below
            }
        }
    }
    munmap(m.p, m.reserve);
    return true;
}
#endif

}  // namespace

void* host_alloc(size_t bytes, bool zero) noexcept {
    if (bytes == 0) bytes = 1;
#if defined(__linux__)
    if (bytes >= HOST_POOL_MIN) return pooled_alloc(bytes, zero);
#endif
    if (bytes > SIZE_MAX - ALIGN) return nullptr;
    const size_t size = round_up(bytes, ALIGN);
    void* p = std::aligned_alloc(ALIGN, size);
    if (p && zero) std::memset(p, 0, size);
    return p;
}

void host_free(void* p, size_t bytes) noexcept {
    (void)bytes;  // where the memory came from is known by its address: a wrong size cannot misroute it
    if (!p) return;
#if defined(__linux__)
    if (pooled_free(p)) return;
#endif
    std::free(p);
}

}  // namespace cuzk
