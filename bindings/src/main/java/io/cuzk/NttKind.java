package io.cuzk;

/** The four transforms over an Fr domain of size n = 2^k with primitive root w. */
public enum NttKind {
    /** out[i] = sum_j in[j] w^(ij): coefficients to values on the subgroup. */
    FORWARD(0, false),
    /** The inverse of {@link #FORWARD}: values to coefficients. */
    INVERSE(1, false),
    /** out[i] = sum_j in[j] (g w^i)^j: coefficients to values on the coset g·H. */
    COSET_FORWARD(0, true),
    /** The inverse of {@link #COSET_FORWARD}. */
    COSET_INVERSE(1, true);

    private final int direction;
    private final boolean coset;

    NttKind(int direction, boolean coset) {
        this.direction = direction;
        this.coset = coset;
    }

    /** The native {@code enum cuzk_ntt_direction}. */
    public int direction() {
        return direction;
    }

    public boolean coset() {
        return coset;
    }
}
