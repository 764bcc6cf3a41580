// The shared native thread pool behind every CPU kernel. Each call brings its own job; up to
// `threads - 1` pool threads join the calling thread on it, pulling indices from one atomic counter.
#pragma once
#include <cstddef>
#include <functional>

namespace cuzk {

// Hardware threads available to this process (its CPU affinity mask), at least 1.
unsigned hardware_threads();

// 0 means all hardware threads; anything else is capped at them.
unsigned resolve_threads(unsigned requested);

// Runs fn(i) for every i in [0, count) on up to `threads` threads (the caller included) and
// returns when all are done. The first exception thrown by fn is rethrown here, after the
// remaining indices are abandoned.
void parallel_for(unsigned threads, size_t count, const std::function<void(size_t)>& fn);

}  // namespace cuzk
