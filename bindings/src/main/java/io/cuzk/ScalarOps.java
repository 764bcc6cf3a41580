package io.cuzk;

import io.cuzk.internal.Checked;
import io.cuzk.internal.NativeLibrary;
import io.cuzk.internal.ffi.cuzk_h;
import org.apache.commons.lang3.Validate;

/**
 * Element-wise Fr arithmetic over scalar vectors, on all hardware threads. The operands of the
 * arithmetic operations are Fr elements in Montgomery form; the output may be one of the inputs.
 */
public final class ScalarOps {
    private ScalarOps() {}

    private static final int FR = 1;
    private static final int ADD = 0;
    private static final int SUB = 1;
    private static final int MUL = 2;
    private static final int TO_MONT = 6;
    private static final int FROM_MONT = 7;

    /** out[i] = a[i] * b[i]. */
    public static void multiply(ScalarVector a, ScalarVector b, ScalarVector out) {
        NativeLibrary.require();
        binary(MUL, a, b, out);
    }

    /** out[i] = a[i] - b[i]. */
    public static void subtract(ScalarVector a, ScalarVector b, ScalarVector out) {
        NativeLibrary.require();
        binary(SUB, a, b, out);
    }

    /** out[i] = a[i] + b[i]. */
    public static void add(ScalarVector a, ScalarVector b, ScalarVector out) {
        NativeLibrary.require();
        binary(ADD, a, b, out);
    }

    /** Canonical values (each below r) into Montgomery form. */
    public static void toMontgomery(ScalarVector canonical, ScalarVector out) {
        NativeLibrary.require();
        Validate.isTrue(canonical.form() == ScalarForm.CANONICAL && out.form() == ScalarForm.MONTGOMERY,
                "toMontgomery reads canonical scalars and writes Montgomery ones");
        unary(TO_MONT, canonical, out);
    }

    /** Montgomery form into canonical values. */
    public static void fromMontgomery(ScalarVector montgomery, ScalarVector out) {
        NativeLibrary.require();
        Validate.isTrue(montgomery.form() == ScalarForm.MONTGOMERY && out.form() == ScalarForm.CANONICAL,
                "fromMontgomery reads Montgomery scalars and writes canonical ones");
        unary(FROM_MONT, montgomery, out);
    }

    private static void binary(int op, ScalarVector a, ScalarVector b, ScalarVector out) {
        Validate.isTrue(a.form() == ScalarForm.MONTGOMERY && b.form() == ScalarForm.MONTGOMERY && out.form() == ScalarForm.MONTGOMERY,
                "the operands and the result must be in Montgomery form");
        Validate.isTrue(a.curve() == b.curve() && a.curve() == out.curve(), "the vectors belong to different curves");
        Validate.isTrue(a.size() == b.size() && a.size() == out.size(), "the vectors differ in size: %d, %d, %d", a.size(), b.size(),
                out.size());
        if (a.size() > 0) {
            Checked.check(cuzk_h.cuzk_field_op(a.curve().id(), FR, op, a.segment(), b.segment(), out.segment(), a.size()),
                    "cuzk_field_op");
        }
    }

    private static void unary(int op, ScalarVector in, ScalarVector out) {
        Validate.isTrue(in.curve() == out.curve() && in.size() == out.size(), "the vectors differ in curve or size");
        if (in.size() > 0) {
            Checked.check(cuzk_h.cuzk_field_op(in.curve().id(), FR, op, in.segment(), in.segment(), out.segment(), in.size()),
                    "cuzk_field_op");
        }
    }
}
