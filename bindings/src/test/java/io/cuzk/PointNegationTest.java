package io.cuzk;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Point.negated (in Java, on the Montgomery bytes) equals the native negation, and P + (-P) = O. */
class PointNegationTest {
    @ParameterizedTest
    @EnumSource(Curve.class)
    void equalsTheNativeNegation(Curve c) {
        Random rnd = new Random(3);
        for (Group g : Group.values()) {
            Point gen = Points.generator(c, g);
            for (int i = 0; i < 10; i++) {
                Point p = Points.multiply(gen, new BigInteger(200, rnd));
                assertEquals(Points.negate(p), p.negated(), c + " " + g);
                assertEquals(Point.infinity(c, g), Points.add(p, p.negated()));
            }
            assertEquals(Point.infinity(c, g), Point.infinity(c, g).negated());
        }
    }
}
