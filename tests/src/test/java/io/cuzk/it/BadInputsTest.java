package io.cuzk.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cuzk.Curve;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The table of docs/reliability.md, run: each row is a bad input given to a command (a mutated
 * key or witness, an output that cannot or must not be written, a malformed argument), with the
 * exit status and the words the one-line message must hold. For every row the command must also
 * leave its output folder as it was (no proof, no half-written file, no temporary file, an
 * existing output untouched) unless it exits 0, in which case snarkjs must accept the proof.
 * The observed results are written to target/bad-inputs.md, from which the document's table is
 * copied; a test checks that the document lists every row.
 */
class BadInputsTest {
    @TempDir
    static Path tmp;

    /** One row: what is given, how it was made, what the command must answer. */
    record Row(String id, String input, String mutation, int status, String expect, Setup setup) {}

    /** Makes a row's files under dir and returns the command line. */
    interface Setup {
        String[] args(Path dir) throws Exception;
    }

    static final Map<String, String> OBSERVED = new TreeMap<>();

    static Path base(Curve c, String file) {
        return Circuits.dir(c, "multi_main").resolve(file);
    }

    static byte[] bytes(Curve c, String file) throws IOException {
        return Files.readAllBytes(base(c, file));
    }

    /** Section id -> {header offset, payload offset, size} (parsed independently of the readers). */
    static Map<Integer, long[]> sections(byte[] f) {
        return Groth16FormatTest.sections(f);
    }

    static int payload(byte[] f, int id) {
        return (int) sections(f).get(id)[1];
    }

    static ByteBuffer le(byte[] f) {
        return ByteBuffer.wrap(f).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** The Groth16 header's fields, as offsets into section 2 (32-byte fields, BN254). */
    static final int NVARS = 4 + 32 + 4 + 32, NPUBLIC = NVARS + 4, DOMAIN = NVARS + 8, ALPHA1 = NVARS + 12, BETA1 = ALPHA1 + 64,
            BETA2 = BETA1 + 64, GAMMA2 = BETA2 + 128, DELTA1 = GAMMA2 + 128, DELTA2 = DELTA1 + 64;

    /** A prove command on the given key and witness bytes (null: the good ones), into dir/out. */
    static Setup prove(Mutator zkey, Mutator wtns) {
        return dir -> {
            Path k = dir.resolve("circuit.zkey"), w = dir.resolve("witness.wtns");
            Files.write(k, zkey == null ? bytes(Curve.BN254, "circuit.zkey") : zkey.apply(bytes(Curve.BN254, "circuit.zkey")));
            Files.write(w, wtns == null ? bytes(Curve.BN254, "witness.wtns") : wtns.apply(bytes(Curve.BN254, "witness.wtns")));
            return new String[] {"prove", k.toString(), w.toString(), dir.resolve("out/proof.json").toString(),
                dir.resolve("out/public.json").toString()};
        };
    }

    interface Mutator {
        byte[] apply(byte[] b) throws Exception;
    }

    static Mutator zkeyField(int offset, int value) {
        return b -> {
            le(b).putInt(payload(b, 2) + offset, value);
            return b;
        };
    }

    static Mutator zeroPoint(int offset, int size) {
        return b -> {
            Arrays.fill(b, payload(b, 2) + offset, payload(b, 2) + offset + size, (byte) 0);
            return b;
        };
    }

    /** Entry 0 of the coefficient section: field at offset (0 matrix, 4 constraint, 8 signal) set to value. */
    static Mutator coefficient(int offset, int value) {
        return b -> {
            le(b).putInt(payload(b, 4) + 4 + offset, value);
            return b;
        };
    }

    static Mutator flip(int id, int offset) {
        return b -> {
            b[payload(b, id) + offset] ^= 0x01;
            return b;
        };
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** A section of the given id and size appended, the section count raised by one. */
    static Mutator extraSection(int id, int size) {
        return b -> {
            byte[] s = new byte[12 + size];
            le(s).putInt(0, id).putLong(4, size);
            byte[] out = concat(b, s);
            le(out).putInt(8, le(out).getInt(8) + 1);
            return out;
        };
    }

    static Mutator truncateSection(int id, int keep) {
        return b -> Arrays.copyOf(b, payload(b, id) + keep);
    }

    static Setup proveWithOutputs(String proof, String pub) {
        return dir -> new String[] {"prove", base(Curve.BN254, "circuit.zkey").toString(), base(Curve.BN254, "witness.wtns").toString(),
            proof.replace("$DIR", dir.toString()), pub.replace("$DIR", dir.toString())};
    }

    static boolean isRoot() throws IOException {
        return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid") == 0;
    }

    static final String P = "$DIR/out/proof.json", Q = "$DIR/out/public.json";

    static List<Row> rows() {
        List<Row> r = new ArrayList<>();
        // the key file
        r.add(new Row("K1", ".zkey", "does not exist", 1, "missing.zkey: no such file", dir -> new String[] {"prove",
            dir.resolve("missing.zkey").toString(), base(Curve.BN254, "witness.wtns").toString(), P.replace("$DIR", dir.toString()),
            Q.replace("$DIR", dir.toString())}));
        r.add(new Row("K2", ".zkey", "a folder", 1, "is a folder, not a file", dir -> new String[] {"prove",
            Files.createDirectory(dir.resolve("folder.zkey")).toString(), base(Curve.BN254, "witness.wtns").toString(),
            P.replace("$DIR", dir.toString()), Q.replace("$DIR", dir.toString())}));
        r.add(new Row("K3", ".zkey", "a FIFO with no writer", 1, "is not a regular file", dir -> new String[] {"prove",
            fifo(dir.resolve("fifo.zkey")).toString(), base(Curve.BN254, "witness.wtns").toString(), P.replace("$DIR", dir.toString()),
            Q.replace("$DIR", dir.toString())}));
        r.add(new Row("K4", ".zkey", "empty (0 bytes)", 1, "truncated: 0 bytes is shorter than the 12-byte header",
                prove(b -> new byte[0], null)));
        r.add(new Row("K5", ".zkey", "a .wtns given as the key", 1, "wrong magic: expected 'zkey', found 'wtns'",
                prove(b -> bytes(Curve.BN254, "witness.wtns"), null)));
        r.add(new Row("K6", ".zkey", "version 2", 1, "unsupported version 2", prove(b -> {
            le(b).putInt(4, 2);
            return b;
        }, null)));
        r.add(new Row("K7", ".zkey", "section count 2^32-1", 1, "truncated: the header of section", prove(b -> {
            le(b).putInt(8, -1);
            return b;
        }, null)));
        r.add(new Row("K8", ".zkey", "section 9 declares 2^63+1 bytes", 1, "section 9 (H points): truncated: declares 9223372036854775809",
                prove(b -> {
                    le(b).putLong((int) sections(b).get(9)[0] + 4, Long.MIN_VALUE + 1);
                    return b;
                }, null)));
        r.add(new Row("K9", ".zkey", "cut in the middle of section 9 (H points)", 1, "section 9 (H points): truncated",
                prove(truncateSection(9, 100), null)));
        r.add(new Row("K10", ".zkey", "section 7 (B2 points) renumbered 77", 1, "section 7 (B2 points): missing", prove(b -> {
            le(b).putInt((int) sections(b).get(7)[0], 77);
            return b;
        }, null)));
        r.add(new Row("K11", ".zkey", "section 1 appended again", 1, "section 1 (header): appears twice", prove(b -> {
            byte[] s = Arrays.copyOfRange(b, (int) sections(b).get(1)[0], (int) (sections(b).get(1)[1] + sections(b).get(1)[2]));
            byte[] out = concat(b, s);
            le(out).putInt(8, le(out).getInt(8) + 1);
            return out;
        }, null)));
        r.add(new Row("K12", ".zkey", "protocol 2 (PLONK)", 1, "not a Groth16 key: protocol 2 (PLONK)", prove(b -> {
            le(b).putInt(payload(b, 1), 2);
            return b;
        }, null)));
        r.add(new Row("K13", ".zkey", "base field modulus q changed", 1, "unsupported curve", prove(flip(2, 4), null)));
        r.add(new Row("K14", ".zkey", "scalar field r changed", 1, "is not bn254's", prove(flip(2, 4 + 32 + 4), null)));
        r.add(new Row("K15", ".zkey", "nPublic = nVars", 1, "inconsistent sizes", prove(b -> {
            le(b).putInt(payload(b, 2) + NPUBLIC, le(b).getInt(payload(b, 2) + NVARS));
            return b;
        }, null)));
        r.add(new Row("K16", ".zkey", "domain size 3", 1, "domain size 3 is not a power of two", prove(zkeyField(DOMAIN, 3), null)));
        r.add(new Row("K17", ".zkey", "domain size 2^28 (BN254's two-adicity)", 1, "is not a power of two below 2^28",
                prove(zkeyField(DOMAIN, 1 << 28), null)));
        r.add(new Row("K18", ".zkey", "nVars + 1 (sections too short for it)", 1, "section 5 (A points): truncated", prove(b -> {
            le(b).putInt(payload(b, 2) + NVARS, le(b).getInt(payload(b, 2) + NVARS) + 1);
            return b;
        }, null)));
        r.add(new Row("K19", ".zkey", "alpha1 at infinity (zeros)", 1, "alpha1 is the point at infinity", prove(zeroPoint(ALPHA1, 64), null)));
        r.add(new Row("K20", ".zkey", "beta2 at infinity", 1, "beta2 is the point at infinity", prove(zeroPoint(BETA2, 128), null)));
        r.add(new Row("K21", ".zkey", "delta1 at infinity", 1, "delta1 is the point at infinity", prove(zeroPoint(DELTA1, 64), null)));
        r.add(new Row("K22", ".zkey", "delta2 at infinity", 1, "delta2 is the point at infinity", prove(zeroPoint(DELTA2, 128), null)));
        r.add(new Row("K23", ".zkey", "alpha1 off the curve", 1, "alpha1: the point is not on the curve",
                prove(flip(2, ALPHA1 + 3), null)));
        r.add(new Row("K24", ".zkey", "A[1] off the curve", 1, "section 5 (A points): point 1: the point is not on the curve",
                prove(flip(5, 64 + 5), null)));
        r.add(new Row("K25", ".zkey", "B2[0] off the curve", 1, "section 7 (B2 points): point 0", prove(flip(7, 7), null)));
        r.add(new Row("K26", ".zkey", "a coordinate of B1[2] >= p", 1, "section 6 (B1 points): point 2: a coordinate is not below",
                prove(b -> {
                    Arrays.fill(b, payload(b, 6) + 128, payload(b, 6) + 160, (byte) 0xff);
                    return b;
                }, null)));
        r.add(new Row("K27", ".zkey", "coefficient 0's value >= r", 1, "entry 0 of", prove(b -> {
            Arrays.fill(b, payload(b, 4) + 4 + 12, payload(b, 4) + 4 + 44, (byte) 0xff);
            return b;
        }, null)));
        r.add(new Row("K28", ".zkey", "coefficient 0's signal = nVars", 1, "outside the witness", prove(b -> {
            le(b).putInt(payload(b, 4) + 4 + 8, le(b).getInt(payload(b, 2) + NVARS));
            return b;
        }, null)));
        r.add(new Row("K29", ".zkey", "coefficient 0's constraint = domain size", 1, "outside the domain", prove(b -> {
            le(b).putInt(payload(b, 4) + 4 + 4, le(b).getInt(payload(b, 2) + DOMAIN));
            return b;
        }, null)));
        r.add(new Row("K30", ".zkey", "coefficient 0's matrix = 2", 1, "has matrix 2 (0 = A, 1 = B)", prove(coefficient(0, 2), null)));
        r.add(new Row("K31", ".zkey", "coefficient count + 1", 1, "section 4 (coefficients): truncated", prove(b -> {
            le(b).putInt(payload(b, 4), le(b).getInt(payload(b, 4)) + 1);
            return b;
        }, null)));
        r.add(new Row("K32", ".zkey", "coefficient count 2^32-1", 1, "section 4 (coefficients): truncated", prove(b -> {
            le(b).putInt(payload(b, 4), -1);
            return b;
        }, null)));
        r.add(new Row("K33", ".zkey", "8 bytes after the last section", 0, "8 bytes after the last of its", prove(b -> concat(b, new byte[8]),
                null)));
        r.add(new Row("K34", ".zkey", "an unknown section 99 appended", 0, "section 99 (16 bytes) is not one a .zkey file holds",
                prove(extraSection(99, 16), null)));
        // the witness file
        r.add(new Row("W1", ".wtns", "does not exist", 1, "missing.wtns: no such file", dir -> new String[] {"prove",
            base(Curve.BN254, "circuit.zkey").toString(), dir.resolve("missing.wtns").toString(), P.replace("$DIR", dir.toString()),
            Q.replace("$DIR", dir.toString())}));
        r.add(new Row("W2", ".wtns", "a FIFO with no writer", 1, "is not a regular file", dir -> new String[] {"prove",
            base(Curve.BN254, "circuit.zkey").toString(), fifo(dir.resolve("fifo.wtns")).toString(), P.replace("$DIR", dir.toString()),
            Q.replace("$DIR", dir.toString())}));
        r.add(new Row("W3", ".wtns", "a .zkey given as the witness", 1, "wrong magic: expected 'wtns', found 'zkey'",
                prove(null, b -> bytes(Curve.BN254, "circuit.zkey"))));
        r.add(new Row("W4", ".wtns", "version 1", 1, "unsupported version 1", prove(null, b -> {
            le(b).putInt(4, 1);
            return b;
        })));
        r.add(new Row("W5", ".wtns", "field size 48 bytes", 1, "field elements of 48 bytes", prove(null, b -> {
            le(b).putInt(payload(b, 1), 48);
            return b;
        })));
        r.add(new Row("W6", ".wtns", "prime r changed", 1, "unsupported field", prove(null, flip(1, 4))));
        r.add(new Row("W7", ".wtns", "count 0", 1, "the witness is empty", prove(null, b -> {
            le(b).putInt(payload(b, 1) + 36, 0);
            return b;
        })));
        r.add(new Row("W8", ".wtns", "value 3 >= r", 1, "section 2 (values): value 3 is not below r", prove(null, b -> {
            Arrays.fill(b, payload(b, 2) + 3 * 32, payload(b, 2) + 4 * 32, (byte) 0xff);
            return b;
        })));
        r.add(new Row("W9", ".wtns", "w[0] = 2", 1, "value 0 is 2, not 1", prove(null, b -> {
            b[payload(b, 2)] = 2;
            return b;
        })));
        r.add(new Row("W10", ".wtns", "w[0] = 0", 1, "value 0 is 0, not 1", prove(null, b -> {
            b[payload(b, 2)] = 0;
            return b;
        })));
        r.add(new Row("W11", ".wtns", "cut 10 bytes short", 1, "section 2 (values): truncated", prove(null, b -> Arrays.copyOf(b,
                b.length - 10))));
        r.add(new Row("W12", ".wtns", "another circuit's witness (length)", 1, "values but the key", prove(null, b -> Files.readAllBytes(
                Circuits.dir(Curve.BN254, "chain_main").resolve("witness.wtns")))));
        r.add(new Row("W13", ".wtns", "a BLS12-381 witness for a BN254 key", 1, "is for bn254", prove(null, b -> bytes(Curve.BLS12_381,
                "witness.wtns"))));
        r.add(new Row("W14", ".wtns", "trailing bytes", 0, "bytes after the last of its 2 sections", prove(null, b -> concat(b,
                new byte[5]))));
        // the outputs
        r.add(new Row("O1", "outputs", "proof.json and public.json the same path", 1, "is also the output", proveWithOutputs(P, P)));
        r.add(new Row("O2", "outputs", "proof.json is the key", 1, "refusing to overwrite it", dir -> {
            Path k = Files.copy(base(Curve.BN254, "circuit.zkey"), dir.resolve("circuit.zkey"));
            return new String[] {"prove", k.toString(), base(Curve.BN254, "witness.wtns").toString(), k.toString(),
                Q.replace("$DIR", dir.toString())};
        }));
        r.add(new Row("O3", "outputs", "public.json is the witness through a link", 1, "refusing to overwrite it", dir -> {
            Path w = Files.copy(base(Curve.BN254, "witness.wtns"), dir.resolve("witness.wtns"));
            Path link = Files.createSymbolicLink(dir.resolve("out/link.json"), w);
            return new String[] {"prove", base(Curve.BN254, "circuit.zkey").toString(), w.toString(), P.replace("$DIR", dir.toString()),
                link.toString()};
        }));
        r.add(new Row("O4", "outputs", "proof.json is a folder", 1, "is a folder", dir -> {
            Files.createDirectory(dir.resolve("out/proof.json"));
            return proveWithOutputs(P, Q).args(dir);
        }));
        r.add(new Row("O5", "outputs", "public.json is a FIFO", 1, "is not a regular file", dir -> {
            fifo(dir.resolve("out/public.json"));
            return proveWithOutputs(P, Q).args(dir);
        }));
        r.add(new Row("O6", "outputs", "proof.json under a regular file", 1, "is a file, not a folder", dir -> {
            Files.writeString(dir.resolve("out/file"), "x");
            return proveWithOutputs("$DIR/out/file/proof.json", Q).args(dir);
        }));
        r.add(new Row("O7", "outputs", "a folder that cannot be written", 1, "cannot be written", dir -> {
            if (isRoot()) {
                return proveWithOutputs("/sys/cuzk-bad-inputs-proof.json", Q).args(dir);
            }
            Path ro = Files.createDirectory(dir.resolve("out/ro"));
            Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("r-xr-xr-x"));
            return proveWithOutputs("$DIR/out/ro/proof.json", Q).args(dir);
        }));
        r.add(new Row("O8", "outputs", "public.json is a folder, proof.json exists", 1, "is a folder", dir -> {
            Files.writeString(dir.resolve("out/proof.json"), "an earlier proof\n");
            Files.createDirectory(dir.resolve("out/public.json"));
            return proveWithOutputs(P, Q).args(dir);
        }));
        r.add(new Row("O9", "outputs", "proof.json in folders that do not exist, the witness missing", 1, "missing.wtns: no such file",
                dir -> new String[] {"prove", base(Curve.BN254, "circuit.zkey").toString(), dir.resolve("missing.wtns").toString(),
                    dir.resolve("out/new/deeper/proof.json").toString(), dir.resolve("out/new/public.json").toString()}));
        // arguments and other commands
        r.add(new Row("A1", "arguments", "prove with three arguments", 2, "Missing required parameter", dir -> new String[] {"prove", "a",
            "b", "c"}));
        r.add(new Row("A2", "arguments", "an unknown option", 2, "Unknown option", dir -> new String[] {"prove", "--frobnicate", "a", "b",
            "c", "d"}));
        r.add(new Row("A3", "msm input", "odd-length hex", 1, "odd number of digits", dir -> withStdin("abc", "msm", "--curve", "bn254", "--group",
            "g1")));
        r.add(new Row("A4", "msm input", "a point off the curve", 1, "pair 0 of 1: the point is not on the curve", dir -> withStdin(
            "00".repeat(31) + "01" + "00".repeat(31) + "03" + "00".repeat(31) + "01", "msm", "--curve", "bn254", "--group", "g1")));
        r.add(new Row("A5", "workload", "a witness with w[0] = 2", 1, "job 1: DIR/bad.wtns: section 2 (values): value 0 is 2, not 1", dir -> {
            byte[] w = bytes(Curve.BN254, "witness.wtns");
            w[payload(w, 2)] = 2;
            Path bad = Files.write(dir.resolve("bad.wtns"), w);
            return new String[] {"workload", "--zkey", base(Curve.BN254, "circuit.zkey").toString(), "--wtns", bad.toString(), "--jobs",
                "1", "--partitions", "1", "--json", "--out", dir.resolve("out").toString()};
        }));
        r.add(new Row("A6", "workload", "the key does not exist (--json)", 1, "\"error\":{\"status\":1", dir -> new String[] {"workload",
            "--zkey", dir.resolve("missing.zkey").toString(), "--wtns", base(Curve.BN254, "witness.wtns").toString(), "--json"}));
        return r;
    }

    /** Marks a command line whose standard input is stdin (check() takes the mark off). */
    static String[] withStdin(String stdin, String... args) {
        String[] a = new String[args.length + 1];
        a[0] = STDIN + stdin;
        System.arraycopy(args, 0, a, 1, args.length);
        return a;
    }

    static final String STDIN = "\0stdin=";

    static Path fifo(Path p) throws Exception {
        Process mk = new ProcessBuilder("mkfifo", p.toString()).inheritIO().start();
        assertEquals(0, mk.waitFor());
        return p;
    }

    @TestFactory
    Stream<DynamicTest> everyBadInputGetsItsStatusAndOneLine() {
        return rows().stream().map(row -> DynamicTest.dynamicTest(row.id() + " " + row.input() + ": " + row.mutation(), () -> check(row)));
    }

    static void check(Row row) throws Exception {
        Path dir = Files.createDirectory(tmp.resolve(row.id()));
        Files.createDirectory(dir.resolve("out"));
        String[] line = row.setup().args(dir);
        String stdin = line.length > 0 && line[0].startsWith(STDIN) ? line[0].substring(STDIN.length()) : "";
        String[] args = stdin.isEmpty() && (line.length == 0 || !line[0].startsWith(STDIN)) ? line : Arrays.copyOfRange(line, 1, line.length);
        Map<String, String> before = listing(dir.resolve("out"));
        Cli.Result r = assertTimeoutPreemptively(Duration.ofSeconds(120), () -> Cli.withInput(stdin, args), "the command hung");
        boolean json = Arrays.asList(args).contains("--json");
        String said = (r.err().strip() + (json ? " " + r.out().strip() : "")).strip();
        String shown = said.replace(dir.toString(), "DIR").replace(tmp.toString(), "TMP").replace("|", "\\|").replace("\n", " / ");
        OBSERVED.put(row.id(), "| " + row.id() + " | " + row.input() + " | " + row.mutation() + " | " + r.status() + " | `"
                + (shown.length() > 400 ? shown.substring(0, 400) + " ..." : shown) + "` |");
        assertEquals(row.status(), r.status(), "exit status; said: " + r.err() + r.out());
        String expect = row.expect().replace("DIR", dir.toString());
        assertTrue(said.contains(expect), "'" + expect + "' missing from: " + said);
        assertTrue(!r.err().contains("Exception") && !r.err().contains("\tat "), "no class names or stack traces: " + r.err());
        if (r.status() == 0) {
            Path vk = base(Curve.BN254, "verification_key.json");
            Node.Result v = Node.snarkjs("groth16", "verify", vk.toString(), dir.resolve("out/public.json").toString(),
                    dir.resolve("out/proof.json").toString());
            assertTrue(v.out().contains("OK!"), "snarkjs rejects the proof: " + v.out() + v.err());
            assertTrue(r.err().contains("warning"), "a warning was printed: " + r.err());
        } else {
            // a usage error's line is followed by the command's synopsis and where its help is
            String first = r.err().strip().lines().findFirst().orElse("");
            assertTrue(r.status() == 2 ? r.err().contains("--help' for more information") : r.err().strip().equals(first),
                    "one line: " + r.err());
            assertTrue(first.contains(expect) || json, "the first line says it: " + r.err());
            assertEquals(before, listing(dir.resolve("out")), "the output folder changed");
            if (json) {
                assertTrue(r.out().contains("\"error\":{\"status\":" + r.status()), "--json prints an error object: " + r.out());
            }
        }
    }

    /** The files under dir with their contents (folders and special files by kind). */
    static Map<String, String> listing(Path dir) throws IOException {
        Map<String, String> m = new TreeMap<>();
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                String k = dir.relativize(p).toString();
                if (Files.isSymbolicLink(p)) {
                    m.put(k, "link to " + Files.readSymbolicLink(p));
                } else if (Files.isRegularFile(p)) {
                    m.put(k, new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1));
                } else {
                    m.put(k, Files.isDirectory(p) ? "folder" : "special");
                }
            }
        }
        return m;
    }

    /** docs/reliability.md lists every row of this table. */
    @Test
    void theDocumentListsEveryRow() throws IOException {
        String doc = Files.readString(Path.of(System.getProperty("cuzk.repo.dir", "..")).resolve("docs/reliability.md"));
        List<String> missing = new ArrayList<>();
        for (Row row : rows()) {
            if (!doc.contains("| " + row.id() + " | " + row.input() + " | " + row.mutation() + " | " + row.status() + " |")) {
                missing.add(row.id());
            }
        }
        assertTrue(missing.isEmpty(), "docs/reliability.md lacks the rows " + missing + " (copy them from target/bad-inputs.md)");
        assertTrue(rows().size() >= 40, "at least 40 bad inputs");
    }

    @AfterAll
    static void writeObserved() throws IOException {
        if (!OBSERVED.isEmpty()) {
            List<String> lines = new ArrayList<>(List.of("| row | input | mutation | exit | what the command said |",
                    "|---|---|---|---|---|"));
            rows().forEach(row -> {
                if (OBSERVED.containsKey(row.id())) {
                    lines.add(OBSERVED.get(row.id()));
                }
            });
            Files.write(Path.of("target/bad-inputs.md"), lines);
        }
    }
}
