package io.cuzk.groth16;

import io.cuzk.Point;
import java.math.BigInteger;

/**
 * Points as snarkjs writes them in its JSON files. Apart from {@link SnarkjsJson} (the reading, with
 * Jackson) so that writing a proof loads no JSON library: a command's start pays for every class
 * it loads.
 */
final class SnarkjsText {
    private SnarkjsText() {}

    /** A G1 point as snarkjs writes it: x, y, z (infinity: 0, 1, 0). */
    static String[] g1Coordinates(Point p) {
        if (p.isInfinity()) {
            return new String[] {"0", "1", "0"};
        }
        BigInteger[] xy = p.coordinates();
        return new String[] {xy[0].toString(), xy[1].toString(), "1"};
    }

    /** A G2 point as snarkjs writes it: x0, x1, y0, y1, z0, z1 (infinity: 0, 0, 1, 0, 0, 0). */
    static String[] g2Coordinates(Point p) {
        if (p.isInfinity()) {
            return new String[] {"0", "0", "1", "0", "0", "0"};
        }
        BigInteger[] xy = p.coordinates();
        return new String[] {xy[0].toString(), xy[1].toString(), xy[2].toString(), xy[3].toString(), "1", "0"};
    }

    /** A G1 point as a JSON array, indented for a file. */
    static String g1(Point p, String indent) {
        String[] c = g1Coordinates(p);
        String in = indent.substring(1);
        return "[\n" + indent + "\"" + c[0] + "\",\n" + indent + "\"" + c[1] + "\",\n" + indent + "\"" + c[2] + "\"\n" + in + "]";
    }

    /** A G2 point as a JSON array of pairs, indented for a file. */
    static String g2(Point p, String indent) {
        String[] c = g2Coordinates(p);
        String in = indent.substring(1);
        StringBuilder s = new StringBuilder("[\n");
        for (int i = 0; i < 3; i++) {
            s.append(indent).append("[\n").append(indent).append(" \"").append(c[2 * i]).append("\",\n").append(indent).append(" \"")
                    .append(c[2 * i + 1]).append("\"\n").append(indent).append(']').append(i < 2 ? ",\n" : "\n");
        }
        return s.append(in).append(']').toString();
    }
}
