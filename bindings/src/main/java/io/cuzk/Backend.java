package io.cuzk;

import java.math.BigInteger;

/**
 * Where kernels run. {@link #cpu()} is the multi-threaded native CPU backend, available
 * everywhere; it is also the reference the other backends are tested against.
 *
 * <p>Implementations are safe to use from many threads at once.
 */
public interface Backend {
    /** The CPU backend on all hardware threads. */
    static Backend cpu() {
        return CpuBackend.ALL_THREADS;
    }

    /** The CPU backend on the given number of threads (0 = all hardware threads). */
    static Backend cpu(int threads) {
        return threads == 0 ? CpuBackend.ALL_THREADS : new CpuBackend(threads, 0);
    }

    /** The CUDA backend on a device; see {@link CudaBackend#open} for its failures. */
    static Backend cuda(int ordinal) {
        return CudaBackend.open(ordinal);
    }

    /**
     * The CUDA backend on device 0 where one is usable, else the CPU backend; when it falls back it
     * logs one line saying why (a missing runtime, a build without CUDA, no device, or a missing or
     * too old driver: cudaErrorInsufficientDriver).
     */
    static Backend auto() {
        return BackendChoice.auto().backend();
    }

    /** A short description, such as {@code cpu(16 threads)}. */
    String name();

    /** Threads for the host-side work around the kernels (0 = all hardware threads). */
    default int hostThreads() {
        return 0;
    }

    /**
     * sum scalars[i] * bases[i] over all i. Both vectors must be of the same curve and size;
     * canonical scalars may hold any 256-bit value (they are reduced modulo r).
     */
    Point msm(PointVector bases, ScalarVector scalars);

    /**
     * Transforms {@code data} in place: 2^k Montgomery-form Fr elements, natural order in and out.
     * The cosets use the field's generator (5 for both curves).
     */
    void ntt(ScalarVector data, NttKind kind);

    /** As {@link #ntt(ScalarVector, NttKind)}, with the coset g·H for the given non-zero g (ignored for the plain kinds). */
    void ntt(ScalarVector data, NttKind kind, BigInteger cosetShift);
}
