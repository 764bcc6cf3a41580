package io.cuzk;

import java.util.Locale;
import org.apache.commons.lang3.Validate;

/** The two source groups of a pairing: G1 over Fp and G2 over Fp2. */
public enum Group {
    G1(1, 1),
    G2(2, 2);

    private final int id;
    private final int degree;

    Group(int id, int degree) {
        this.id = id;
        this.degree = degree;
    }

    /** The native ABI's {@code enum cuzk_group} value. */
    public int id() {
        return id;
    }

    /** Degree of the coordinate field over Fp: 1 for G1, 2 for G2. */
    public int degree() {
        return degree;
    }

    /** Parses {@code g1} or {@code g2}, any case. */
    public static Group parse(String name) {
        Validate.notBlank(name, "group name");
        return switch (name.trim().toLowerCase(Locale.ROOT)) {
            case "g1" -> G1;
            case "g2" -> G2;
            default -> throw new IllegalArgumentException("unknown group '" + name + "': expected g1 or g2");
        };
    }
}
