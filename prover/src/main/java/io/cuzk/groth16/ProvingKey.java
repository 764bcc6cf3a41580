package io.cuzk.groth16;

import io.cuzk.Check;
import io.cuzk.Codec;
import io.cuzk.Curve;
import io.cuzk.Encoding;
import io.cuzk.Group;
import io.cuzk.Groth16Bases;
import io.cuzk.InvalidPointException;
import io.cuzk.Point;
import io.cuzk.PointVector;
import io.cuzk.Qap;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.commons.lang3.Validate;

/**
 * A Groth16 proving key read from a snarkjs .zkey: the curve, the sizes, the header points and
 * views of the point and coefficient sections. Sections stay off the Java heap and are not copied
 * again: the kernels read them where they are (point sections usually start 4 bytes past an
 * 8-byte boundary, which the native library accepts for the points it reads).
 *
 * <p>{@link #read} copies the file into memory the key owns, so nothing done to the file
 * afterwards (rewritten, truncated, replaced) can change or break a key in use; this is what a
 * key kept and reused (the engine's {@link KeyStore}) needs. {@link #map} maps the file instead:
 * no copy, pages shared with the page cache, but a file truncated while the key is open ends the
 * process with SIGBUS at the next read of a lost page. docs/reliability.md has the measurements.
 *
 * <p>Every point is checked when the key is read: coordinates below p and on the curve (subgroup
 * membership is not checked: the key is trusted to come from a setup ceremony), and none of the
 * header points at infinity. Every coefficient entry is checked too: its matrix, its constraint
 * (inside the domain), its signal (inside the witness) and its value (below r). Closing the key
 * waits for the proofs using it, then releases its memory; a proof started with a closed key fails
 * with {@link IllegalStateException}.
 *
 * <p>The views ({@link #ic()}, {@link #a()}, ..., {@link #coefficients()}) are read-only: a key is
 * shared (by the engine's leases among others), so no user of it may change it for the others.
 * A key may be read by any number of threads at once.
 */
public final class ProvingKey implements AutoCloseable {
    /** Section ids of a Groth16 zkey, as snarkjs writes them. */
    static final int HEADER = 1;
    static final int GROTH16_HEADER = 2;
    static final int IC = 3;
    static final int COEFFS = 4;
    static final int A = 5;
    static final int B1 = 6;
    static final int B2 = 7;
    static final int C = 8;
    static final int H = 9;

    static final Map<Integer, String> SECTION_NAMES = Map.of(HEADER, "header", GROTH16_HEADER, "Groth16 header", IC, "IC points",
            COEFFS, "coefficients", A, "A points", B1, "B1 points", B2, "B2 points", C, "C points", H, "H points", 10,
            "contributions");

    /** What every point of a key gets: the key is trusted to come from a setup ceremony, so no subgroup check. */
    private static final Set<Check> KEY_CHECKS = EnumSet.of(Check.CANONICAL, Check.ON_CURVE);

    private final String name;
    private final Arena arena;
    private final Curve curve;
    private final int nVars;
    private final int nPublic;
    private final int domainSize;
    private final long nCoefficients;
    private final Point alpha1, beta1, beta2, gamma2, delta1, delta2;
    private final PointVector ic, a, b1, b2, c, h;
    private final MemorySegment coefficients;
    private final Groth16Bases bases;
    private final List<String> warnings;

    /**
     * The curve and the sizes of a key, from its two header sections: what a prover can prepare
     * for (see {@link Groth16Prover#prepare}) before it has read and checked the whole key.
     */
    public record Shape(Curve curve, int nVars, int nPublic, int domainSize) {}

    /** The header sections parsed and checked; pointsAt is where the header points start in g. */
    private record Headers(Shape shape, MemorySegment g, String gl, long pointsAt) {}

    private static Headers headers(String name, BinFile f) {
        MemorySegment header = f.section(HEADER);
        if (header.byteSize() < 4) {
            throw new FormatException(name, f.label(HEADER), "truncated: no protocol id");
        }
        int protocol = BinFile.u32(header, 0);
        if (protocol != 1) {
            String what = switch (protocol) {
                case 2 -> "PLONK";
                case 10 -> "FFLONK";
                default -> "unknown";
            };
            throw new FormatException(name, f.label(HEADER), "not a Groth16 key: protocol " + protocol + " (" + what
                    + "); only Groth16 (1) is supported");
        }
        MemorySegment g = f.section(GROTH16_HEADER);
        String gl = f.label(GROTH16_HEADER);
        long pos = 0;
        int n8q = u32(name, g, pos, gl);
        pos += 4;
        BigInteger q = leInt(name, g, pos, n8q, gl);
        pos += n8q;
        Curve curve = curveOf(name, q, n8q, gl);
        int n8r = u32(name, g, pos, gl);
        pos += 4;
        BigInteger r = leInt(name, g, pos, n8r, gl);
        pos += n8r;
        if (n8r != 32 || !r.equals(curve.r())) {
            throw new FormatException(name, gl, "the scalar field (" + n8r + " bytes, r = " + r + ") is not " + curve.cliName() + "'s");
        }
        int nVars = u32(name, g, pos, gl);
        int nPublic = u32(name, g, pos + 4, gl);
        int domainSize = u32(name, g, pos + 8, gl);
        pos += 12;
        if (nVars < 1 || nPublic < 0 || nPublic >= nVars) {
            throw new FormatException(name, gl, "inconsistent sizes: " + Integer.toUnsignedString(nVars) + " variables, "
                    + Integer.toUnsignedString(nPublic) + " public");
        }
        if (domainSize < 1 || Integer.bitCount(domainSize) != 1 || Integer.numberOfTrailingZeros(domainSize) >= curve.twoAdicity()) {
            throw new FormatException(name, gl, "domain size " + Integer.toUnsignedString(domainSize) + " is not a power of two below 2^"
                    + curve.twoAdicity());
        }
        long expected = pos + 3L * curve.pointBytes(Group.G1) + 3L * curve.pointBytes(Group.G2);
        if (g.byteSize() != expected) {
            throw new FormatException(name, gl, (g.byteSize() < expected ? "truncated" : "too long") + ": " + g.byteSize()
                    + " bytes where " + expected + " are expected");
        }
        return new Headers(new Shape(curve, nVars, nPublic, domainSize), g, gl, pos);
    }

    private ProvingKey(String name, Arena arena, BinFile f) {
        this.name = name;
        this.arena = arena;
        this.gate = new CloseGate(name);
        Headers hs = headers(name, f);
        this.curve = hs.shape().curve();
        this.nVars = hs.shape().nVars();
        this.nPublic = hs.shape().nPublic();
        this.domainSize = hs.shape().domainSize();
        MemorySegment g = hs.g();
        String gl = hs.gl();
        long pos = hs.pointsAt();
        int g1 = curve.pointBytes(Group.G1);
        int g2 = curve.pointBytes(Group.G2);
        this.alpha1 = point(g, pos, Group.G1, gl, "alpha1");
        pos += g1;
        this.beta1 = point(g, pos, Group.G1, gl, "beta1");
        pos += g1;
        this.beta2 = point(g, pos, Group.G2, gl, "beta2");
        pos += g2;
        this.gamma2 = point(g, pos, Group.G2, gl, "gamma2");
        pos += g2;
        this.delta1 = point(g, pos, Group.G1, gl, "delta1");
        pos += g1;
        this.delta2 = point(g, pos, Group.G2, gl, "delta2");
        requireFinite(gl, "alpha1", alpha1);
        requireFinite(gl, "beta1", beta1);
        requireFinite(gl, "beta2", beta2);
        requireFinite(gl, "gamma2", gamma2);
        requireFinite(gl, "delta1", delta1);
        requireFinite(gl, "delta2", delta2);

        this.ic = points(f, IC, Group.G1, nPublic + 1L);
        MemorySegment coeffs = f.section(COEFFS);
        if (coeffs.byteSize() < 4) {
            throw new FormatException(name, f.label(COEFFS), "truncated: no entry count");
        }
        this.nCoefficients = Integer.toUnsignedLong(BinFile.u32(coeffs, 0));
        long need = 4 + nCoefficients * Qap.COEFFICIENT_BYTES;
        if (coeffs.byteSize() != need) {
            throw new FormatException(name, f.label(COEFFS), (coeffs.byteSize() < need ? "truncated" : "too long") + ": "
                    + nCoefficients + " entries need " + need + " bytes, the section has " + coeffs.byteSize());
        }
        this.coefficients = coeffs.asSlice(4);
        checkCoefficients(f.label(COEFFS));
        this.a = points(f, A, Group.G1, nVars);
        this.b1 = points(f, B1, Group.G1, nVars);
        this.b2 = points(f, B2, Group.G2, nVars);
        this.c = points(f, C, Group.G1, (long) nVars - nPublic - 1);
        this.h = points(f, H, Group.G1, domainSize);
        this.bases = new Groth16Bases(curve, nVars, nPublic, a, b1, b2, c, h);
        this.warnings = f.warnings();
    }

    private void requireFinite(String section, String what, Point p) {
        if (p.isInfinity()) {
            throw new FormatException(name, section, what + " is the point at infinity: no setup produces it, and proofs made with it "
                    + "do not verify");
        }
    }

    /**
     * Checks every coefficient entry: matrix 0 (A) or 1 (B), constraint inside the domain, signal
     * inside the witness, value below r. Read through ByteBuffer views (no var handles: their set-up
     * would cost a one-shot command more than the loop), 1 GiB of entries at a time.
     */
    private void checkCoefficients(String section) {
        long[] r = limbs(curve.r());
        long perChunk = (1L << 30) / Qap.COEFFICIENT_BYTES;
        for (long first = 0; first < nCoefficients; first += perChunk) {
            int n = (int) Math.min(perChunk, nCoefficients - first);
            ByteBuffer b = coefficients.asSlice(first * Qap.COEFFICIENT_BYTES, (long) n * Qap.COEFFICIENT_BYTES).asByteBuffer()
                    .order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < n; i++) {
                int at = i * Qap.COEFFICIENT_BYTES;
                int matrix = b.getInt(at);
                int constraint = b.getInt(at + 4);
                int signal = b.getInt(at + 8);
                String problem = null;
                if (matrix != 0 && matrix != 1) {
                    problem = "matrix " + Integer.toUnsignedString(matrix) + " (0 = A, 1 = B)";
                } else if (Integer.compareUnsigned(constraint, domainSize) >= 0) {
                    problem = "constraint " + Integer.toUnsignedString(constraint) + " outside the domain of " + domainSize;
                } else if (Integer.compareUnsigned(signal, nVars) >= 0) {
                    problem = "signal " + Integer.toUnsignedString(signal) + " outside the witness of " + nVars + " values";
                } else if (!below(b, at + 12, r)) {
                    problem = "a value that is not below r";
                }
                if (problem != null) {
                    throw new FormatException(name, section, "entry " + (first + i) + " of " + nCoefficients + " has " + problem);
                }
            }
        }
    }

    /** r's four 64-bit limbs, least significant first. */
    private static long[] limbs(BigInteger r) {
        long[] l = new long[4];
        for (int i = 0; i < 4; i++) {
            l[i] = r.shiftRight(64 * i).longValue();
        }
        return l;
    }

    /** Whether the 32-byte little-endian number at b[at] is below r (given as limbs). */
    private static boolean below(ByteBuffer b, int at, long[] r) {
        for (int i = 3; i >= 0; i--) {
            int c = Long.compareUnsigned(b.getLong(at + 8 * i), r[i]);
            if (c != 0) {
                return c < 0;
            }
        }
        return false;
    }

    /**
     * Reads only the headers of a .zkey file (its first two sections, with positional reads): its
     * curve and sizes, with the same checks and messages as {@link #read}.
     */
    public static Shape shape(Path zkey) throws IOException {
        Validate.notNull(zkey, "zkey");
        InputFile.requireRegular(zkey);
        try (FileChannel ch = InputFile.open(zkey)) {
            return headers(zkey.toString(), BinFile.parseSections(zkey.toString(), ch, "zkey", new int[] {1}, SECTION_NAMES, HEADER,
                    GROTH16_HEADER)).shape();
        }
    }

    /**
     * Reads a .zkey file into memory the key owns (see the class comment): later changes to the
     * file do not reach the key.
     */
    public static ProvingKey read(Path zkey) throws IOException {
        return open(zkey, InputFile::read);
    }

    /**
     * Maps a .zkey file: no copy, but the file must not be truncated or rewritten while the key is
     * open (the process would end with SIGBUS; see the class comment). For one-shot use on files
     * nobody changes.
     */
    public static ProvingKey map(Path zkey) throws IOException {
        return open(zkey, InputFile::map);
    }

    private interface Loader {
        MemorySegment load(Path file, Arena arena) throws IOException;
    }

    private static ProvingKey open(Path zkey, Loader loader) throws IOException {
        Validate.notNull(zkey, "zkey");
        Arena arena = Arena.ofShared();
        try {
            return parse(zkey.toString(), loader.load(zkey, arena), arena);
        } catch (IOException | RuntimeException | Error e) {
            arena.close();
            throw e;
        }
    }

    /**
     * Parses a key held in memory. The segment must stay alive as long as the key, which views
     * its sections without copying them.
     */
    public static ProvingKey parse(String name, MemorySegment zkey) {
        Arena arena = Arena.ofShared();
        try {
            return parse(name, zkey, arena);
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    private static ProvingKey parse(String name, MemorySegment data, Arena arena) {
        Validate.notNull(data, "zkey");
        // every view of the key is read-only: a key is shared, and a write would change it for all
        BinFile f = BinFile.parse(name, data.asReadOnly(), "zkey", new int[] {1}, SECTION_NAMES);
        return new ProvingKey(name, arena, f);
    }

    private static Curve curveOf(String name, BigInteger q, int n8q, String section) {
        for (Curve cv : Curve.values()) {
            if (cv.p().equals(q) && cv.fpBytes() == n8q) {
                return cv;
            }
        }
        throw new FormatException(name, section, "unsupported curve: base field modulus " + q + " (" + n8q
                + " bytes) is neither BN254's nor BLS12-381's");
    }

    private static int u32(String name, MemorySegment s, long pos, String section) {
        if (pos + 4 > s.byteSize()) {
            throw new FormatException(name, section, "truncated at byte " + pos);
        }
        return BinFile.u32(s, pos);
    }

    private static BigInteger leInt(String name, MemorySegment s, long pos, int n, String section) {
        if (n <= 0 || n > 64 || pos + n > s.byteSize()) {
            throw new FormatException(name, section, "truncated or malformed field size " + Integer.toUnsignedString(n) + " at byte " + pos);
        }
        byte[] le = s.asSlice(pos, n).toArray(ValueLayout.JAVA_BYTE);
        byte[] be = new byte[n + 1];
        for (int i = 0; i < n; i++) {
            be[n - i] = le[i];
        }
        return new BigInteger(be);
    }

    private Point point(MemorySegment s, long pos, Group group, String section, String what) {
        try (Arena a = Arena.ofConfined()) {
            return Codec.decodePoints(a, curve, group, Encoding.NATIVE, s.asSlice(pos, curve.pointBytes(group)), 1, 0, KEY_CHECKS)
                    .get(0);
        } catch (InvalidPointException e) {
            throw new FormatException(name, section, what + ": " + e.reason());
        }
    }

    /**
     * A point section, checked where it is. Sections usually sit at unaligned offsets of the file
     * (after 12-byte section headers); the MSMs read their bases at any address, so no section is
     * copied, and a cached key holds no private copy of its points (the mapping's pages belong
     * to the page cache, shared and reclaimable).
     */
    private PointVector points(BinFile f, int id, Group group, long count) {
        MemorySegment s = f.section(id, count * curve.pointBytes(group));
        try {
            PointVector v = PointVector.wrap(curve, group, s);
            v.check(KEY_CHECKS);
            return v;
        } catch (InvalidPointException e) {
            throw new FormatException(name, f.label(id), "point " + e.index() + ": " + e.reason());
        }
    }

    public String name() {
        return name;
    }

    public Curve curve() {
        return curve;
    }

    /** Witness length: 1, the public signals, then the private ones. */
    public int nVars() {
        return nVars;
    }

    /** Public signals (outputs and public inputs). */
    public int nPublic() {
        return nPublic;
    }

    public int domainSize() {
        return domainSize;
    }

    public long nCoefficients() {
        return nCoefficients;
    }

    /** The coefficient entries (section 4 after its count). */
    public MemorySegment coefficients() {
        return coefficients;
    }

    public Point alpha1() {
        return alpha1;
    }

    public Point beta1() {
        return beta1;
    }

    public Point beta2() {
        return beta2;
    }

    public Point gamma2() {
        return gamma2;
    }

    public Point delta1() {
        return delta1;
    }

    public Point delta2() {
        return delta2;
    }

    public PointVector ic() {
        return ic;
    }

    public PointVector a() {
        return a;
    }

    public PointVector b1() {
        return b1;
    }

    public PointVector b2() {
        return b2;
    }

    public PointVector c() {
        return c;
    }

    public PointVector h() {
        return h;
    }

    /**
     * What was accepted but unusual in the file (bytes after its last section, sections of unknown
     * ids), one line each naming the file; snarkjs ignores both silently.
     */
    public List<String> warnings() {
        return warnings;
    }

    /** The point sets a proof's MSMs read, as the backends take them. */
    public Groth16Bases bases() {
        return bases;
    }

    /** Off-heap bytes this key keeps alive (mapped or copied). */
    public long byteSize() {
        return coefficients.byteSize() + ic.segment().byteSize() + a.segment().byteSize() + b1.segment().byteSize()
                + b2.segment().byteSize() + c.segment().byteSize() + h.segment().byteSize();
    }

    private final List<Runnable> closeHooks = new CopyOnWriteArrayList<>();
    private boolean closed; // under closeHooks
    private final CloseGate gate;

    /**
     * A use of the key's memory by native code that reads it through addresses the JDK does not
     * track (synthesis): {@link #close} waits for it. An IllegalStateException on a key closed or
     * closing.
     */
    CloseGate.Use use() {
        return gate.enter();
    }

    /**
     * Runs hook when the key is closed (device copies of its points are freed this way). On a key
     * closed already (or closing) an {@link IllegalStateException}: its memory is gone, so whatever
     * the hook would undo must not be made (no hook is silently lost).
     */
    public void onClose(Runnable hook) {
        synchronized (closeHooks) {
            if (closed) {
                throw new IllegalStateException(name + " is closed");
            }
            closeHooks.add(hook);
        }
    }

    /**
     * Waits for the proofs using the key on other threads (from then on, a proof that starts with
     * it fails with {@link IllegalStateException}), runs the close hooks, then frees the key's
     * memory (whatever a hook throws); a second close does nothing. Code that reads the key's views
     * itself must be done with them first: its next read fails with IllegalStateException (a
     * native call it has in progress, given them as arguments, is waited for).
     */
    @Override
    public void close() {
        if (!gate.close()) {
            return;
        }
        List<Runnable> hooks;
        synchronized (closeHooks) { // only the first close gets here (the gate's)
            closed = true;
            hooks = List.copyOf(closeHooks);
            closeHooks.clear();
        }
        try {
            for (Runnable r : hooks) {
                r.run();
            }
        } finally {
            SharedArenas.closeWhenFree(arena);
        }
    }

    @Override
    public String toString() {
        return "ProvingKey[" + name + ", " + curve.cliName() + ", " + nVars + " variables, " + nPublic + " public, domain "
                + domainSize + "]";
    }
}
