package io.cuzk;

import io.cuzk.internal.NativeLibrary;
import java.math.BigInteger;
import org.apache.commons.lang3.Validate;

/**
 * Where kernels run: {@link #cpu()}, the multi-threaded native CPU backend, available everywhere and
 * the reference the others are tested against, or {@link #cuda(int)}, a GPU. Every caller (a
 * prover, the engine) reaches every backend's kernels through this one class: MSM, NTT, Groth16's
 * H, and the two-phase proof kernels ({@link #openLane()}); the arguments are checked here, once,
 * whatever the backend.
 *
 * <p>Backends are safe to use from many threads at once.
 */
public abstract sealed class Backend permits CpuBackend, CudaBackend {
    Backend() {}

    /** The CPU backend on all hardware threads. */
    public static Backend cpu() {
        return CpuBackend.ALL_THREADS;
    }

    /** The CPU backend on the given number of threads (0 = all hardware threads). */
    public static Backend cpu(int threads) {
        return threads == 0 ? CpuBackend.ALL_THREADS : new CpuBackend(threads, 0);
    }

    /** The CUDA backend on a device; see {@link CudaBackend#open} for its failures. */
    public static Backend cuda(int ordinal) {
        return CudaBackend.open(ordinal);
    }

    /**
     * The CUDA backend on device 0 where one is usable, else the CPU backend; when it falls back it
     * logs one line saying why (a missing runtime, a build without CUDA, no device, or a missing or
     * too old driver: cudaErrorInsufficientDriver).
     */
    public static Backend auto() {
        return BackendChoice.auto().backend();
    }

    /** A short description, such as {@code cpu(16 threads)}. */
    public abstract String name();

    /** Threads for the host-side work around the kernels (0 = all hardware threads). */
    public abstract int hostThreads();

    /**
     * Whether the host buffers this backend reads should be page-locked (a GPU copies them at full
     * speed only then), so that a pool of buffers for it allocates pinned memory.
     */
    public abstract boolean prefersPinnedHostMemory();

    // ---- kernels on host vectors --------------------------------------------------------------

    /**
     * sum scalars[i] * bases[i] over all i. Both vectors must be of the same curve and size;
     * canonical scalars may hold any 256-bit value (they are reduced modulo r).
     */
    public final Point msm(PointVector bases, ScalarVector scalars) {
        NativeLibrary.require();
        Validate.notNull(bases, "bases");
        Validate.notNull(scalars, "scalars");
        Validate.isTrue(bases.curve() == scalars.curve(), "bases are %s but scalars are %s", bases.curve().cliName(),
                scalars.curve().cliName());
        Validate.isTrue(bases.size() == scalars.size(), "%d bases but %d scalars", bases.size(), scalars.size());
        if (bases.size() == 0) {
            return Point.infinity(bases.curve(), bases.group());
        }
        return msmChecked(bases, scalars);
    }

    /**
     * Transforms {@code data} in place: 2^k Montgomery-form Fr elements, natural order in and out.
     * The cosets use the field's generator (5 for both curves).
     */
    public final void ntt(ScalarVector data, NttKind kind) {
        ntt(data, kind, null);
    }

    /**
     * As {@link #ntt(ScalarVector, NttKind)}, with the coset g·H for the given g, non-zero modulo r
     * (null: the field's generator; ignored for the plain kinds).
     */
    public final void ntt(ScalarVector data, NttKind kind, BigInteger cosetShift) {
        NativeLibrary.require();
        Validate.notNull(data, "data");
        Validate.notNull(kind, "kind");
        Validate.isTrue(data.form() == ScalarForm.MONTGOMERY, "NTT data must be Fr elements in Montgomery form");
        long n = data.size();
        Validate.isTrue(n > 0 && Long.bitCount(n) == 1, "the NTT size must be a power of two, not %d", n);
        int logN = Long.numberOfTrailingZeros(n);
        Validate.isTrue(logN <= data.curve().twoAdicity(), "no NTT of 2^%d elements in %s's Fr", logN, data.curve().cliName());
        BigInteger shift = null;
        if (kind.coset() && cosetShift != null) {
            shift = cosetShift.mod(data.curve().r());
            Validate.isTrue(shift.signum() != 0, "the coset shift must not be zero modulo r");
        }
        nttChecked(data, kind, logN, shift);
    }

    /**
     * Groth16's H as snarkjs computes it: a, b and c (Montgomery form, evaluations on the domain of
     * their size, a power of two) each get the inverse NTT, then the NTT on the coset by the root
     * of unity of twice that order; then h = a·b − c. h is left in a, in the given form, and
     * returned as a view of a's memory in that form; b and c are overwritten. Canonical h is what
     * an MSM takes without first converting a copy (Groth16's H·h).
     */
    public final ScalarVector groth16H(ScalarVector a, ScalarVector b, ScalarVector c, ScalarForm hForm) {
        NativeLibrary.require();
        Validate.notNull(hForm, "hForm");
        checkH(a, b, c);
        groth16HChecked(a, b, c, hForm);
        return hForm == a.form() ? a : ScalarVector.wrap(a.curve(), hForm, a.segment());
    }

    /**
     * Makes and keeps what Groth16's H and the MSMs of a proof of this curve and domain need before
     * its inputs are read (the CPU backend's tables of roots, twiddles and coset powers, about
     * 12 ms at 2^14 the first time, and the linking of its native calls), so that a one-shot
     * prover can pay for it on a second thread while it reads its key.
     */
    public final void prepareGroth16(Curve curve, int logN) {
        NativeLibrary.require();
        Validate.notNull(curve, "curve");
        Validate.isTrue(logN >= 0 && logN < curve.twoAdicity(), "no domain of 2^%d elements in %s's Fr", logN, curve.cliName());
        prepareGroth16Checked(curve, logN);
    }

    /**
     * Loads the native library and links the native calls this backend's proofs make (the FFM
     * linker makes a stub per call shape on first use: 10-40 ms in a one-shot command), so that a
     * command that proves once can pay for it on a second thread while it parses its arguments.
     * Failures are left for the proof to report.
     */
    public final void link() {
        try {
            linkChecked();
        } catch (RuntimeException | LinkageError e) {
            // the proof's own calls report what is wrong
        }
    }

    // ---- a proof's kernels ---------------------------------------------------------------------

    /**
     * Makes a key's points ready for this backend's proofs: on a GPU, uploads the G1 point sets
     * (once per key and device, for as long as the returned object is open); on the CPU, they are
     * read where they are. The caller owns the result and closes it when no proof uses it any more.
     */
    public final Resident resident(Groth16Bases bases) {
        NativeLibrary.require();
        Validate.notNull(bases, "bases");
        return residentChecked(bases);
    }

    /**
     * A lane: an ordered queue of proof kernels on this backend, for one caller at a time (a CUDA
     * stream on a GPU; on the CPU every lane feeds the backend's one queue, so that the partitions
     * of several lanes run back to back). Close it when done.
     */
    public abstract Lane openLane();

    /**
     * The five MSMs of a proof, after its H, on the calling thread: what a one-shot prover needs
     * (a lane's {@link Lane#start} and {@link Pending#finish} split the same work in two). a, b and
     * c are overwritten.
     */
    public final Groth16Msms groth16(Resident bases, Groth16Inputs in) {
        NativeLibrary.require();
        checkProof(bases, in);
        return groth16Checked(bases, in);
    }

    /** Events of one proof on a lane, called from the backend's threads; the default does nothing. */
    public interface Events {
        /** The proof's kernels start on the device (System.nanoTime()). */
        default void started(long nanos) {}

        /**
         * H is computed (System.nanoTime()): the MSMs come next. A backend that runs H
         * asynchronously on its device may not report it; a trace then shows one device slice.
         */
        default void hComputed(long nanos) {}

        /** The device holds what it needs of a, b and c: their memory may be reused from now on. */
        default void abcTaken() {}

        /** The proof's kernels are done, or failed (System.nanoTime()); always called once started was. */
        default void ended(long nanos) {}

        Events NONE = new Events() {};
    }

    /** An ordered queue of proofs on a backend. */
    public sealed interface Lane extends AutoCloseable permits CpuBackend.CpuLane, CudaBackend.CudaLane {
        /**
         * Queues a proof's kernels (H from a, b, c, then the five MSMs) and returns at once. a, b and
         * c must stay untouched until {@link Events#abcTaken} has run, the witness and the scratch
         * arena until {@link Pending#finish} returns.
         */
        Pending start(Resident bases, Groth16Inputs in, Events events);

        @Override
        void close();
    }

    /** A proof's kernels in flight. */
    public interface Pending {
        /**
         * Waits for the kernels and returns the MSMs' results. Everything the proof holds on the
         * device is given back, also when it fails.
         */
        Groth16Msms finish();
    }

    /**
     * A key's points made ready for one backend ({@link #resident}): closing it frees the device
     * copies; on the CPU it holds the points only.
     */
    public static final class Resident implements AutoCloseable {
        private final Backend backend;
        private final Groth16Bases bases;
        private final AutoCloseable device;

        Resident(Backend backend, Groth16Bases bases, AutoCloseable device) {
            this.backend = backend;
            this.bases = bases;
            this.device = device;
        }

        public Groth16Bases bases() {
            return bases;
        }

        Backend backend() {
            return backend;
        }

        Object device() {
            return device;
        }

        @Override
        public void close() {
            if (device != null) {
                try {
                    device.close();
                } catch (RuntimeException e) {
                    throw e;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
        }
    }

    /** A lane's start checks its arguments here, the same way on every backend. */
    final void checkProof(Resident bases, Groth16Inputs in) {
        Validate.notNull(bases, "bases");
        Validate.notNull(in, "inputs");
        Validate.isTrue(bases.backend() == this, "the key's points were made resident for %s, not %s", bases.backend().name(), name());
        Groth16Bases g = bases.bases();
        Validate.isTrue(in.a().curve() == g.curve() && in.witness().curve() == g.curve(), "the inputs are not of the key's curve %s",
                g.curve().cliName());
        Validate.isTrue(in.a().size() == g.domainSize(), "a, b and c hold %d elements but the key's domain has %d", in.a().size(),
                g.domainSize());
        Validate.isTrue(in.witness().size() == g.nVars(), "the witness holds %d values but the key needs %d", in.witness().size(),
                g.nVars());
        Validate.isTrue(in.witness().form() == ScalarForm.CANONICAL, "the witness must be canonical");
        checkH(in.a(), in.b(), in.c());
    }

    private static void checkH(ScalarVector a, ScalarVector b, ScalarVector c) {
        Validate.notNull(a, "a");
        Validate.notNull(b, "b");
        Validate.notNull(c, "c");
        long n = a.size();
        Validate.isTrue(n > 0 && Long.bitCount(n) == 1, "the domain size %d is not a power of two", n);
        Validate.isTrue(Long.numberOfTrailingZeros(n) < a.curve().twoAdicity(), "no H over 2^%d elements in %s's Fr",
                Long.numberOfTrailingZeros(n), a.curve().cliName());
        for (ScalarVector v : new ScalarVector[] {a, b, c}) {
            Validate.isTrue(v.form() == ScalarForm.MONTGOMERY, "a, b and c must be in Montgomery form");
            Validate.isTrue(v.size() == n, "a, b and c must have the same size");
            Validate.isTrue(v.curve() == a.curve(), "a, b and c belong to different curves");
        }
        Validate.isTrue(a.segment().address() != b.segment().address() && b.segment().address() != c.segment().address()
                && a.segment().address() != c.segment().address(), "a, b and c must be distinct vectors");
    }

    /** The five MSMs of a proof from the witness and h, on this backend, one after the other. */
    final Groth16Msms msms(Groth16Bases g, ScalarVector witness, ScalarVector h) {
        return new Groth16Msms(msm(g.a(), witness), msm(g.b1(), witness), msm(g.b2(), witness),
                msm(g.c(), witness.slice(g.nPublic() + 1L, g.c().size())), msm(g.h(), h));
    }

    // ---- what each backend implements, after the checks above -----------------------------------

    abstract Point msmChecked(PointVector bases, ScalarVector scalars);

    abstract void nttChecked(ScalarVector data, NttKind kind, int logN, BigInteger shiftOrNull);

    abstract void groth16HChecked(ScalarVector a, ScalarVector b, ScalarVector c, ScalarForm hForm);

    abstract void prepareGroth16Checked(Curve curve, int logN);

    abstract void linkChecked();

    abstract Resident residentChecked(Groth16Bases bases);

    abstract Groth16Msms groth16Checked(Resident bases, Groth16Inputs in);

    @Override
    public String toString() {
        return name();
    }
}
