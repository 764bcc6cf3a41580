// The GPU NTT for the other CUDA sources (Groth16's H, groth16/cuda/h.cu).
#pragma once
#include <cuda_runtime.h>

#include "cuzk/curve.hpp"

namespace cuzk_ntt_kernels {

// Queues the transform of a (2^log_n elements of Fr in device memory) on the stream and returns
// without waiting: forward or inverse, on the coset by *shift when shift is not null, as cuzk_ntt
// computes it. Defined in ntt.cu for the curves' scalar fields.
template <class Fr>
void ntt_on_stream(int device, cudaStream_t stream, Fr* a, int log_n, bool inverse, const Fr* shift);

// Groth16's transform of one polynomial, queued on the stream: evaluations on the domain in,
// evaluations on the coset by the 2^(log_n+1)-th root of unity out, as DIF inverse, one pass of
// 1/n and the coset's powers at bit-reversed indices, and DIT forward: no bit-reversal passes.
template <class Fr>
void h_transform_on_stream(int device, cudaStream_t stream, Fr* a, int log_n);

}  // namespace cuzk_ntt_kernels
