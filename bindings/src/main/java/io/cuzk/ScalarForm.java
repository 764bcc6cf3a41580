package io.cuzk;

/** How 32-byte little-endian scalars are held. */
public enum ScalarForm {
    /** The integer itself; any 256-bit value is accepted and the kernels reduce it modulo r. */
    CANONICAL(0),
    /** An Fr element in Montgomery form, x * 2^256 mod r: the form NTT data and snarkjs's Fr sections use. */
    MONTGOMERY(1);

    private final int id;

    ScalarForm(int id) {
        this.id = id;
    }

    /** The native ABI's {@code enum cuzk_scalar_form} value. */
    public int id() {
        return id;
    }
}
