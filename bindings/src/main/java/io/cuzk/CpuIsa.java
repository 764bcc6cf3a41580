package io.cuzk;

/** The CPU code paths of the kernels ({@code enum cuzk_cpu_isa}). */
public enum CpuIsa {
    /** The best path this CPU and build support (the default). */
    AUTO(0),
    /** Plain C++, any CPU. */
    PORTABLE(1),
    /** x86-64 with BMI2 and ADX: Montgomery products with MULX/ADCX/ADOX. */
    X86_ADX(2);

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
