package io.cuzk;

/** The CPU code paths of the kernels ({@code enum cuzk_cpu_isa}). */
public enum CpuIsa {
    /** The best path this CPU and build support (the default). */
    AUTO(0),
    /** Plain C++, any CPU. */
    PORTABLE(1),
    /** x86-64 with BMI2 and ADX: Montgomery products with MULX/ADCX/ADOX. */
    X86_ADX(2),
    /**
     * {@link #X86_ADX} plus AVX-512 IFMA: the batched additions and bucket sums of MSMs (G1 and G2),
     * Groth16's H ({@link Backend#groth16H}), the canonical and on-curve checks of many points,
     * BLS12-381's G1 membership checks of many points and the Miller loops of products of 8 pairings
     * or more (a batch verification's) run eight at a time in 52-bit limbs. Everything else is the
     * same as {@link #X86_ADX}.
     */
    X86_IFMA(3);

    private final int id;

    CpuIsa(int id) {
        this.id = id;
    }

    public int id() {
        return id;
    }

    static CpuIsa of(int id) {
        for (CpuIsa i : values()) {
            if (i.id == id) {
                return i;
            }
        }
        throw new IllegalArgumentException("unknown CPU code path " + id);
    }
}
