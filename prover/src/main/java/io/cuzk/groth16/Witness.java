package io.cuzk.groth16;

import io.cuzk.Curve;
import io.cuzk.HostMemory;
import io.cuzk.ScalarForm;
import io.cuzk.ScalarVector;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.commons.lang3.Validate;

/**
 * A witness read from a snarkjs .wtns (version 2): section 1 holds the field (n8 = 32 and r) and
 * the count, section 2 the values, little-endian and canonical. w[0] = 1, then the public signals,
 * then the private ones. Every value is checked to be below r, and w[0] to be 1. {@link #read}
 * copies the file into memory the witness owns.
 */
public final class Witness implements AutoCloseable {
    static final Map<Integer, String> SECTION_NAMES = Map.of(1, "header", 2, "values");

    private final String name;
    private final Arena arena;
    private final CloseGate gate;
    private final Curve curve;
    private final ScalarVector values;
    private final List<String> warnings;

    private Witness(String name, Arena arena, BinFile f) {
        this.name = name;
        this.arena = arena;
        this.gate = new CloseGate(name);
        MemorySegment h = f.section(1);
        String hl = f.label(1);
        if (h.byteSize() < 4) {
            throw new FormatException(name, hl, "truncated: no field size");
        }
        int n8 = BinFile.u32(h, 0);
        if (n8 != 32) {
            throw new FormatException(name, hl, "field elements of " + Integer.toUnsignedString(n8)
                    + " bytes: only the 32-byte scalar fields of BN254 and BLS12-381 are supported");
        }
        if (h.byteSize() != 4 + 32 + 4) {
            throw new FormatException(name, hl, "expected 40 bytes, found " + h.byteSize());
        }
        BigInteger r = new BigInteger(1, reverse(h.asSlice(4, 32).toArray(ValueLayout.JAVA_BYTE)));
        Curve found = null;
        for (Curve c : Curve.values()) {
            if (c.r().equals(r)) {
                found = c;
            }
        }
        if (found == null) {
            throw new FormatException(name, hl, "unsupported field: r = " + r + " is the scalar field of neither BN254 nor BLS12-381");
        }
        this.curve = found;
        long count = Integer.toUnsignedLong(BinFile.u32(h, 36));
        if (count == 0) {
            throw new FormatException(name, hl, "the witness is empty");
        }
        MemorySegment v = f.section(2, count * 32);
        if (v.address() % 8 != 0) {
            v = HostMemory.copyOf(arena, v);
        }
        this.values = ScalarVector.wrap(curve, ScalarForm.CANONICAL, v);
        long bad = values.firstNotBelowR();
        if (bad >= 0) {
            throw new FormatException(name, f.label(2), "value " + bad + " is not below r (not a canonical field element)");
        }
        BigInteger one = values.get(0);
        if (!one.equals(BigInteger.ONE)) {
            throw new FormatException(name, f.label(2), "value 0 is " + abbreviated(one) + ", not 1: a witness starts with the "
                    + "constant 1, and a proof from this one would not verify");
        }
        this.warnings = f.warnings();
    }

    private static String abbreviated(BigInteger v) {
        String d = v.toString();
        return d.length() <= 24 ? d : d.substring(0, 10) + "..." + d.substring(d.length() - 10) + " (" + d.length() + " digits)";
    }

    /** Reads a .wtns file into memory the witness owns. */
    public static Witness read(Path wtns) throws IOException {
        Validate.notNull(wtns, "wtns");
        Arena arena = Arena.ofShared();
        try {
            MemorySegment data = InputFile.read(wtns, arena);
            return new Witness(wtns.toString(), arena, BinFile.parse(wtns.toString(), data, "wtns", new int[] {2}, SECTION_NAMES));
        } catch (IOException | RuntimeException | Error e) {
            arena.close();
            throw e;
        }
    }

    /** Parses a witness held in memory; the segment must stay alive as long as the witness. */
    public static Witness parse(String name, MemorySegment wtns) {
        Arena arena = Arena.ofShared();
        try {
            return new Witness(name, arena, BinFile.parse(name, wtns, "wtns", new int[] {2}, SECTION_NAMES));
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    private static byte[] reverse(byte[] b) {
        for (int i = 0, j = b.length - 1; i < j; i++, j--) {
            byte t = b[i];
            b[i] = b[j];
            b[j] = t;
        }
        return b;
    }

    public String name() {
        return name;
    }

    public Curve curve() {
        return curve;
    }

    public long size() {
        return values.size();
    }

    /** The values, canonical. */
    public ScalarVector values() {
        return values;
    }

    /**
     * What was accepted but unusual in the file (bytes after its last section, sections of unknown
     * ids), one line each naming the file; snarkjs ignores both silently.
     */
    public List<String> warnings() {
        return warnings;
    }

    /** w[1..nPublic]: what public.json holds. */
    public List<BigInteger> publicSignals(int nPublic) {
        Validate.isTrue(nPublic >= 0 && nPublic < size(), "%d public signals do not fit a witness of %d values", nPublic, size());
        List<BigInteger> out = new ArrayList<>(nPublic);
        for (int i = 1; i <= nPublic; i++) {
            out.add(values.get(i));
        }
        return out;
    }

    /** Checks that this witness belongs to the key's circuit: same field and length. */
    public void requireFits(ProvingKey key) {
        if (curve != key.curve()) {
            throw new FormatException(name, "section 1 (header)", "the witness is over " + curve.cliName() + "'s field but the key "
                    + key.name() + " is for " + key.curve().cliName());
        }
        if (size() != key.nVars()) {
            throw new FormatException(name, "section 2 (values)", "the witness has " + size() + " values but the key " + key.name()
                    + " needs " + key.nVars());
        }
    }

    /**
     * A use of the witness's memory by native code that reads it through addresses the JDK does
     * not track (a proof's synthesis): {@link #close} waits for it. An IllegalStateException on a
     * witness closed or closing.
     */
    CloseGate.Use use() {
        return gate.enter();
    }

    /**
     * Waits for the proofs using the witness on other threads (from then on, a proof that starts
     * with it fails with {@link IllegalStateException}), then frees its memory; a second close does
     * nothing.
     */
    @Override
    public void close() {
        if (gate.close()) {
            SharedArenas.closeWhenFree(arena);
        }
    }
}
