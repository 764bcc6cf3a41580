package io.cuzk;

import java.util.EnumSet;
import java.util.Set;

/** The checks a point can be put through when it is decoded or checked. */
public enum Check {
    /** Every coordinate below p (and, for padded encodings, zero padding). */
    CANONICAL(1),
    /** The curve equation holds. */
    ON_CURVE(2),
    /** The point lies in the prime-order subgroup (a no-op for BN254 G1, whose cofactor is 1). */
    SUBGROUP(4);

    private final int bit;

    Check(int bit) {
        this.bit = bit;
    }

    /** All three checks: what untrusted input should get. */
    public static Set<Check> all() {
        return EnumSet.allOf(Check.class);
    }

    /** No check. */
    public static Set<Check> none() {
        return EnumSet.noneOf(Check.class);
    }

    /** The native bit mask of a set of checks. */
    public static int mask(Set<Check> checks) {
        int m = 0;
        for (Check c : checks) {
            m |= c.bit;
        }
        return m;
    }
}
