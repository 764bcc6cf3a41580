package io.cuzk.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cuzk.Curve;
import io.cuzk.witness.WitnessCalculator;
import io.cuzk.witness.WitnessException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Witnesses without Node: every test circuit's circuit.wasm (compiled by circom) run in the JVM on
 * the inputs of tests/circuits/inputs.json must give, byte for byte, the .wtns snarkjs wtns
 * calculate wrote for it (Circuits builds both); bad input gives one line naming the signal;
 * fullprove's proof verifies with snarkjs.
 */
class WitnessCalculatorTest {
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    static Stream<Arguments> circuits() {
        List<Arguments> out = new ArrayList<>();
        for (Curve c : Curve.values()) {
            for (String name : List.of("chain_main", "multi_main", "poseidon_main")) {
                out.add(Arguments.of(c, name));
            }
        }
        return out.stream();
    }

    static Path wasm(Curve c, String name) {
        return Circuits.dir(c, name).resolve(name + "_js").resolve(name + ".wasm");
    }

    static String input(String name) throws Exception {
        JsonNode all = JSON.readTree(LauncherIT.repo().resolve("tests/circuits/inputs.json").toFile());
        return all.get(name).toString();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("circuits")
    void equalsSnarkjsByteForByte(Curve c, String name) throws Exception {
        Path expected = Circuits.dir(c, name).resolve("witness.wtns");
        WitnessCalculator w = WitnessCalculator.load(wasm(c, name));
        assertEquals(c.r(), w.prime(), "the circuit's prime is the curve's r");
        byte[] wtns = w.wtns(input(name));
        assertArrayEquals(Files.readAllBytes(expected), wtns, name + " on " + c.cliName());
        // the calculator serves again, with the same answer (its instance is reset by init)
        assertArrayEquals(wtns, w.wtns(input(name)));
        // and from the input read beforehand (as the command reads it while the circuit loads)
        assertArrayEquals(wtns, w.wtns(WitnessCalculator.readInput(input(name))));
        // the command writes the same bytes
        Path in = tmp.resolve("input.json"), out = tmp.resolve("w.wtns");
        Files.writeString(in, input(name));
        Cli.Result r = Cli.run("wtns", "calculate", wasm(c, name).toString(), in.toString(), out.toString());
        assertEquals(0, r.status(), r.err());
        assertArrayEquals(wtns, Files.readAllBytes(out));
    }

    /** The bundled sample's circuit.wasm and input.json give its witness.wtns (snarkjs's), byte for byte. */
    @org.junit.jupiter.api.Test
    void theBundledSampleGivesItsWitness() throws Exception {
        Path sample = LauncherIT.repo().resolve("samples/poseidon-bn254");
        Path out = tmp.resolve("sample.wtns");
        Cli.Result r = Cli.run("wtns", "calculate", sample.resolve("circuit.wasm").toString(), sample.resolve("input.json").toString(),
                out.toString());
        assertEquals(0, r.status(), r.err());
        assertArrayEquals(Files.readAllBytes(sample.resolve("witness.wtns")), Files.readAllBytes(out));
    }

    /**
     * The cache of compiled circuits: a circuit's first load in an empty cache compiles it and keeps
     * its classes; the next load (as in a later process) defines those classes instead, and both
     * give snarkjs's witness byte for byte; without the cache every load compiles.
     */
    @ParameterizedTest
    @EnumSource(Curve.class)
    void aCircuitCompiledOnceRunsFromTheCacheAfter(Curve c) throws Exception {
        byte[] expected = Files.readAllBytes(Circuits.dir(c, "poseidon_main").resolve("witness.wtns"));
        String in = input("poseidon_main");
        String before = System.getProperty("cuzk.witness.cache");
        try {
            System.setProperty("cuzk.witness.cache", tmp.resolve("cache").toString());
            WitnessCalculator.Circuit first = WitnessCalculator.Circuit.load(wasm(c, "poseidon_main"));
            assertFalse(first.fromCache(), "an empty cache");
            assertArrayEquals(expected, first.newCalculator(line -> { }).wtns(in));
            WitnessCalculator.Circuit second = WitnessCalculator.Circuit.load(wasm(c, "poseidon_main"));
            assertTrue(second.fromCache(), "the first load's classes");
            assertArrayEquals(expected, second.newCalculator(line -> { }).wtns(in));
            try (Stream<Path> entries = Files.list(tmp.resolve("cache"))) {
                assertEquals(1, entries.count());
            }
            System.setProperty("cuzk.witness.cache", "none");
            WitnessCalculator.Circuit off = WitnessCalculator.Circuit.load(wasm(c, "poseidon_main"));
            assertFalse(off.fromCache());
            assertArrayEquals(expected, off.newCalculator(line -> { }).wtns(in));
        } finally {
            if (before == null) {
                System.clearProperty("cuzk.witness.cache");
            } else {
                System.setProperty("cuzk.witness.cache", before);
            }
        }
    }

    /**
     * One compiled circuit, four calculators on four threads at once (they share the compiled
     * code, each its own memory), each input's witness as snarkjs writes it, again and again.
     */
    @ParameterizedTest
    @EnumSource(Curve.class)
    void calculatorsOfOneCompiledCircuitRunInParallel(Curve c) throws Exception {
        byte[] expected = Files.readAllBytes(Circuits.dir(c, "chain_main").resolve("witness.wtns"));
        String in = input("chain_main");
        WitnessCalculator.Circuit circuit = WitnessCalculator.Circuit.load(wasm(c, "chain_main"));
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            java.util.List<java.util.concurrent.Future<Integer>> runs = new java.util.ArrayList<>();
            java.util.concurrent.CyclicBarrier together = new java.util.concurrent.CyclicBarrier(4);
            for (int t = 0; t < 4; t++) {
                runs.add(pool.submit(() -> {
                    WitnessCalculator w = circuit.newCalculator(line -> { });
                    together.await(1, java.util.concurrent.TimeUnit.MINUTES);
                    for (int i = 0; i < 5; i++) {
                        assertArrayEquals(expected, w.wtns(in));
                    }
                    return 5;
                }));
            }
            for (java.util.concurrent.Future<Integer> f : runs) {
                assertEquals(5, f.get(5, java.util.concurrent.TimeUnit.MINUTES));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Input that does not fit the circuit: exit 1, one line naming the signal, nothing written. */
    @ParameterizedTest
    @EnumSource(Curve.class)
    void badInputNamesTheSignal(Curve c) throws Exception {
        Path wasm = wasm(c, "multi_main"), out = tmp.resolve("bad.wtns");
        String[][] cases = {
            {"{\"p\": [\"2\", \"3\"], \"s\": [\"7\", \"11\", \"13\"]}", "input signal p: 2 values given, the circuit takes 3"},
            {"{\"p\": [\"2\", \"3\", \"5\"], \"s\": [\"7\", \"11\", \"13\"], \"q\": \"1\"}", "input signal q: the circuit has no input signal"},
            // left out: named from circom's .sym beside the circuit's folder (snarkjs only counts them)
            {"{\"p\": [\"2\", \"3\", \"5\"]}", ": input signal s is missing from the input (3 of the circuit's 6 input values given)"},
            {"{}", ": input signals p, s are missing from the input (0 of the circuit's 6 input values given)"},
            {"{\"p\": [\"2\", \"x\", \"5\"], \"s\": [\"7\", \"11\", \"13\"]}", "input signal p[1]: \"x\" is not an integer"},
            {"{\"p\": [\"2\", 3.5, \"5\"], \"s\": [\"7\", \"11\", \"13\"]}", "input signal p[1]: 3.5 is not an integer"},
            {"[1, 2]", "expected a JSON object of input signals"},
            {"{\"p\": ", "not JSON"},
            // past Jackson's reading limits, which give no line: said, not an internal error
            {"{\"p\": " + "[".repeat(1100) + "]".repeat(1100) + "}", "nested deeper than 1000 levels: cuzk reads at most 1000"},
            {"{\"p\": [" + "9".repeat(5000) + ", 1, 1], \"s\": [1, 1, 1]}", "a number written with more than 4096 characters"},
            // anything after the object (two files run together): JSON.parse refuses it, so does snarkjs
            {"{\"p\": [\"2\", \"3\", \"5\"], \"s\": [\"7\", \"11\", \"13\"]}{\"x\": 1}", "not JSON (more after the input object, at line 1)"},
            {"{\"p\": [\"2\", \"3\", \"5\"], \"s\": [\"7\", \"11\", \"13\"]} trailing", "not JSON (Unrecognized token 'trailing'"},
            // a number as long as JavaScript reads (past a double's range: Infinity), which BigInt refuses
            {"{\"p\": [" + "9".repeat(1200) + ", 1, 1], \"s\": [1, 1, 1]}", "input signal p[0]: 99999"},
            // a name past Jackson's limit, and an object never closed: in cuzk's words, not Jackson's internals
            {"{\"" + "a".repeat(60_000) + "\": 1}", "a signal name longer than 50000 characters: no circuit has one"},
            {"{\"p\": [\"2\", \"3\", \"5\"], \"s\": [\"7\", \"11\", \"13\"]", "expected close marker for Object (start marker at [line: 1"},
        };
        for (String[] k : cases) {
            Path in = tmp.resolve("bad.json");
            Files.writeString(in, k[0]);
            Cli.Result r = Cli.run("wtns", "calculate", wasm.toString(), in.toString(), out.toString());
            assertEquals(1, r.status(), k[0] + ": " + r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
            assertTrue(r.err().startsWith("cuzk wtns: ") && r.err().contains(k[1]), k[0] + " -> " + r.err());
            assertFalse(Files.exists(out), "nothing written for " + k[0]);
        }
        // without the .sym (the circuit.wasm alone): counted, and said what would name it
        Path alone = Files.createDirectories(tmp.resolve("alone")).resolve("multi_main.wasm");
        Files.copy(wasm, alone, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Path partial = tmp.resolve("partial.json");
        Files.writeString(partial, "{\"p\": [\"2\", \"3\", \"5\"]}");
        Cli.Result counted = Cli.run("wtns", "calculate", alone.toString(), partial.toString(), out.toString());
        assertEquals(1, counted.status(), counted.err());
        assertEquals("cuzk wtns: " + partial + ": only 3 of the circuit's 6 input values were given: an input signal is missing from the "
                + "input (circom's --sym output beside the circuit, its name with .sym for .wasm, would name it)", counted.err().strip());
        // a .sym the user linked beside the circuit: followed there (the user's choice), the signal named
        Files.createSymbolicLink(alone.resolveSibling("multi_main.sym"), Circuits.dir(c, "multi_main").resolve("multi_main.sym"));
        Cli.Result linked = Cli.run("wtns", "calculate", alone.toString(), partial.toString(), out.toString());
        assertEquals(1, linked.status(), linked.err());
        assertEquals("cuzk wtns: " + partial + ": input signal s is missing from the input (3 of the circuit's 6 input values given)",
                linked.err().strip());
        // a .sym that cannot be read: counted, and said why, by its file's name only
        WitnessCalculator.Circuit unreadable = WitnessCalculator.Circuit.of("multi", Files.readAllBytes(wasm))
                .withSymbols(Files.createDirectories(tmp.resolve("multi.sym")));
        WitnessException e = assertThrows(WitnessException.class, () -> unreadable.newCalculator(line -> { }).wtns(Files.readString(partial)));
        assertEquals("only 3 of the circuit's 6 input values were given: an input signal is missing from the input (multi.sym cannot be "
                + "read (FileSystemException))", e.getMessage());
        // a signal's name with a new line and a terminal escape in it: still one line, escaped
        Path in = tmp.resolve("bad.json");
        Files.writeString(in, "{\"p\\n\\u001b[31m\": 1}");
        Cli.Result escaped = Cli.run("wtns", "calculate", wasm.toString(), in.toString(), out.toString());
        assertEquals(1, escaped.status(), escaped.err());
        assertEquals(1, escaped.err().strip().lines().count(), escaped.err());
        assertTrue(escaped.err().startsWith("cuzk wtns: " + in + ": input signal p\\n\\u001b[31m: the circuit has no input signal"),
                escaped.err());
        // a circuit.wasm that is a folder, or empty: named, one line
        Files.writeString(in, "{\"p\": [2, 3, 5], \"s\": [7, 11, 13]}");
        Cli.Result folder = Cli.run("wtns", "calculate", tmp.toString(), in.toString(), out.toString());
        assertEquals(1, folder.status(), folder.err());
        assertEquals("cuzk wtns: " + tmp + ": is a folder, not a file", folder.err().strip());
        // the circuit's error comes first, though the input is read on a second thread meanwhile
        Cli.Result both = Cli.run("wtns", "calculate", tmp.toString(), tmp.resolve("missing.json").toString(), out.toString());
        assertEquals(folder.err(), both.err());
        Cli.Result inputOnly = Cli.run("wtns", "calculate", wasm.toString(), tmp.resolve("missing.json").toString(), out.toString());
        assertEquals(1, inputOnly.status(), inputOnly.err());
        assertEquals(1, inputOnly.err().strip().lines().count(), inputOnly.err());
        assertTrue(inputOnly.err().contains(tmp.resolve("missing.json").toString()), inputOnly.err());
        WitnessException notAnObject = assertThrows(WitnessException.class, () -> WitnessCalculator.readInput("[1, 2]"));
        assertEquals("expected a JSON object of input signals", notAnObject.getMessage());
        Path empty = Files.createFile(tmp.resolve("empty.wasm"));
        Cli.Result none = Cli.run("fullprove", in.toString(), empty.toString(), Circuits.dir(c, "multi_main").resolve("circuit.zkey").toString(), tmp.resolve("p.json").toString(),
                tmp.resolve("pub.json").toString());
        assertEquals(1, none.status(), none.err());
        assertTrue(none.err().strip().endsWith(empty + ": not a WebAssembly module (an empty file)"), none.err());
        assertFalse(Files.exists(out));
        // values are taken mod r, negative ones too, as snarkjs takes them: p + r equals p
        in = tmp.resolve("mod.json");
        Files.writeString(in, "{\"p\": [\"" + c.r().add(java.math.BigInteger.TWO) + "\", \"0x3\", \"-" + c.r().subtract(java.math.BigInteger
                .valueOf(5)) + "\"], \"s\": [7, 11, 13]}");
        assertEquals(0, Cli.run("wtns", "calculate", wasm.toString(), in.toString(), out.toString()).status());
        assertArrayEquals(Files.readAllBytes(Circuits.dir(c, "multi_main").resolve("witness.wtns")), Files.readAllBytes(out));
    }

    /**
     * input.json read as snarkjs reads it (each value through JavaScript's BigInt after JSON.parse):
     * tests/circuits/inputs_main.circom, compiled here with circom2, given the same inputs in
     * every form snarkjs takes (a number with an exponent, 0b, 0o and 0X strings, blanks, an empty
     * string, a sign, booleans, nested or flat arrays, values past r, an integer past 2^53 without
     * quotes, which JSON.parse rounds) gives snarkjs's .wtns byte for byte; what BigInt refuses is
     * one line naming the signal (a scalar by its bare name); a failed assertion is the circuit's,
     * not the last input's; an unknown action of wtns is a usage error.
     */
    @ParameterizedTest
    @EnumSource(Curve.class)
    void inputsAreReadAsSnarkjsReadsThem(Curve c) throws Exception {
        Path circuit = Circuits.circuitsSource().resolve("inputs_main.circom");
        Path built = Files.createDirectories(tmp.resolve("inputs-" + c.snarkjsName()));
        // circom2 (WebAssembly) reaches files below its working folder only: the circuit by a path from tests/node
        Node.run("node_modules/circom2/cli.js", Node.dir().relativize(circuit).toString(), "--wasm", "--prime", c.snarkjsName(), "-o",
                built.toString());
        Path wasm = built.resolve("inputs_main_js/inputs_main.wasm");
        WitnessCalculator w = WitnessCalculator.load(wasm);
        String pastR = c.r().add(java.math.BigInteger.valueOf(5)).toString();
        String[] valid = {
            "{\"a\": \"3\", \"m\": [[\"1\", \"2\", \"3\"], [\"4\", \"5\", \"6\"]], \"v\": [\"2\", \"9\"]}",
            "{\"a\": 3, \"m\": [1, 2, 3, 4, 5, 6], \"v\": [2, 9]}",
            "{\"a\": 3e2, \"m\": [[\"0b11\", \"0o7\", \"0X1f\"], [\" 4 \", \"\", \"+6\"]], \"v\": [true, \"-9\"]}",
            "{\"a\": 12345678901234567890123, \"m\": [[1, 2, 3], [4, 5, 6]], \"v\": [2, 9]}",
            "{\"a\": \"0x10\", \"m\": [[\"" + pastR + "\", 2, 3], [4, 5, -6]], \"v\": [false, 9]}",
            // no values for a name the circuit does not have: nothing to set, so snarkjs takes it
            "{\"a\": \"3\", \"m\": [1, 2, 3, 4, 5, 6], \"v\": [2, 9], \"w\": []}",
        };
        for (int i = 0; i < valid.length; i++) {
            Path in = tmp.resolve("in" + i + ".json"), theirs = tmp.resolve("theirs" + i + ".wtns"), ours = tmp.resolve("ours" + i + ".wtns");
            Files.writeString(in, valid[i]);
            Node.Result s = Node.snarkjs("wtns", "calculate", wasm.toString(), in.toString(), theirs.toString());
            assertEquals(0, s.exit(), "snarkjs takes " + valid[i] + ": " + s.out() + s.err());
            Cli.Result r = Cli.run("wtns", "calculate", wasm.toString(), in.toString(), ours.toString());
            assertEquals(0, r.status(), valid[i] + ": " + r.err());
            assertArrayEquals(Files.readAllBytes(theirs), Files.readAllBytes(ours), valid[i]);
            assertArrayEquals(Files.readAllBytes(theirs), w.wtns(valid[i]), valid[i] + " through the Java API");
            // the circuit's log() lines as snarkjs prints them: strings and values (a negative one
            // as p - 1) joined by blanks, an empty log() an empty line, on the standard output
            assertEquals(s.out(), r.out(), "log() of " + valid[i]);
            assertEquals(4, r.out().lines().count(), r.out());
            assertTrue(r.out().lines().toList().get(1).equals(c.r().subtract(java.math.BigInteger.ONE).toString()), r.out());
        }
        String[][] refused = {
            {"{\"a\": \"x\", \"m\": [1, 2, 3, 4, 5, 6], \"v\": [2, 9]}", "input signal a: \"x\" is not an integer"},
            {"{\"a\": \"-0x10\", \"m\": [1, 2, 3, 4, 5, 6], \"v\": [2, 9]}", "input signal a: \"-0x10\" is not an integer"},
            {"{\"a\": 3, \"m\": [1, 2.5, 3, 4, 5, 6], \"v\": [2, 9]}", "input signal m[1]: 2.5 is not an integer"},
            {"{\"a\": 3, \"m\": [1, 2, 3, 4, 5, 6], \"v\": [2, null]}", "input signal v[1]: null is not an integer"},
            {"{\"a\": 3, \"m\": [1, 2, 3, 4, 5, 6], \"v\": [1000, 9]}", "an assertion of the circuit failed"},
        };
        Path out = tmp.resolve("refused.wtns");
        for (String[] k : refused) {
            Path in = tmp.resolve("refused.json");
            Files.writeString(in, k[0]);
            Node.Result s = Node.snarkjs("wtns", "calculate", wasm.toString(), in.toString(), tmp.resolve("theirs-refused.wtns").toString());
            assertTrue(s.exit() != 0, "snarkjs refuses " + k[0] + " too: " + s.out() + s.err());
            Cli.Result r = Cli.run("wtns", "calculate", wasm.toString(), in.toString(), out.toString());
            assertEquals(1, r.status(), k[0] + ": " + r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
            assertTrue(r.err().startsWith("cuzk wtns: " + in + ": ") && r.err().contains(k[1]), k[0] + " -> " + r.err());
            assertFalse(Files.exists(out), "nothing written for " + k[0]);
        }
        // the assertion names circom's template and line, and no input signal (it is no one input's fault)
        Files.writeString(tmp.resolve("refused.json"), refused[4][0]);
        Cli.Result failed = Cli.run("wtns", "calculate", wasm.toString(), tmp.resolve("refused.json").toString(), out.toString());
        assertTrue(failed.err().contains("line") && !failed.err().contains("input signal"), failed.err());
        // a scalar is named without an index
        Files.writeString(tmp.resolve("refused.json"), refused[0][0]);
        assertFalse(Cli.run("wtns", "calculate", wasm.toString(), tmp.resolve("refused.json").toString(), out.toString()).err()
                .contains("a[0]"), "a scalar signal named a[0]");
        // what the caller's log consumer throws reaches the caller as it was thrown, not as bad input
        // (a WitnessException of its own too, which is not blamed on the input signal being set)
        for (RuntimeException mine : List.of(new IllegalStateException("the caller's logger failed"),
                new io.cuzk.witness.WitnessException("the caller's own WitnessException"))) {
            java.util.concurrent.atomic.AtomicBoolean once = new java.util.concurrent.atomic.AtomicBoolean();
            WitnessCalculator throwing = WitnessCalculator.load(wasm, line -> {
                if (once.compareAndSet(false, true)) {
                    throw mine;
                }
            });
            org.junit.jupiter.api.Assertions.assertSame(mine, org.junit.jupiter.api.Assertions.assertThrows(RuntimeException.class,
                    () -> throwing.wtns(valid[0])));
            assertArrayEquals(w.wtns(valid[0]), throwing.wtns(valid[0]), "the calculator that threw serves the next calculation");
        }
        // an action other than calculate: the usage's status and its synopsis
        Cli.Result usage = Cli.run("wtns", "debug", wasm.toString(), tmp.resolve("in0.json").toString(), out.toString());
        assertEquals(2, usage.status(), usage.err());
        assertTrue(usage.err().contains("the action is calculate") && usage.err().contains("--help"), usage.err());
    }

    /**
     * The Java API's contract: an interrupt of the calculating thread cancels the calculation
     * (CancellationException, not bad input; the interrupt status kept) and the calculator serves
     * the next one; a null log consumer or null input is refused before anything runs.
     */
    @ParameterizedTest
    @EnumSource(Curve.class)
    void anInterruptCancelsTheCalculationAndLeavesTheCalculatorUsable(Curve c) throws Exception {
        WitnessCalculator.Circuit circuit = WitnessCalculator.Circuit.load(wasm(c, "multi_main"));
        WitnessCalculator w = circuit.newCalculator(line -> { });
        String in = input("multi_main");
        byte[] expected = Files.readAllBytes(Circuits.dir(c, "multi_main").resolve("witness.wtns"));
        Thread.currentThread().interrupt();
        try {
            java.util.concurrent.CancellationException e = org.junit.jupiter.api.Assertions.assertThrows(
                    java.util.concurrent.CancellationException.class, () -> w.wtns(in));
            assertTrue(e.getMessage().endsWith("the witness calculation was interrupted"), e.getMessage());
            assertTrue(Thread.currentThread().isInterrupted(), "the interrupt status is kept");
        } finally {
            Thread.interrupted();
        }
        assertArrayEquals(expected, w.wtns(in));
        assertTrue(org.junit.jupiter.api.Assertions.assertThrows(NullPointerException.class, () -> circuit.newCalculator(null))
                .getMessage().contains("log"));
        java.util.Map<String, List<java.math.BigInteger>> withNull = new java.util.HashMap<>();
        withNull.put("p", null);
        assertTrue(org.junit.jupiter.api.Assertions.assertThrows(NullPointerException.class, () -> w.calculate(withNull)).getMessage()
                .contains("input signal p"));
        assertArrayEquals(expected, w.wtns(in));
    }

    /** fullprove: witness and proof in one command; snarkjs accepts the proof (several public signals, both curves). */
    @ParameterizedTest
    @EnumSource(Curve.class)
    void fullproveVerifiesWithSnarkjs(Curve c) throws Exception {
        String name = "multi_main";
        Path dir = Circuits.dir(c, name), in = tmp.resolve("input.json"), proof = tmp.resolve("proof.json"), pub = tmp.resolve("public.json");
        Files.writeString(in, input(name));
        Cli.Result r = Cli.run("fullprove", "-q", in.toString(), wasm(c, name).toString(), dir.resolve("circuit.zkey").toString(),
                proof.toString(), pub.toString());
        assertEquals(0, r.status(), r.err());
        Node.Result v = Node.snarkjs("groth16", "verify", dir.resolve("verification_key.json").toString(), pub.toString(), proof.toString());
        assertTrue(v.out().contains("OK!"), v.out() + v.err());
        Cli.Result ours = Cli.run("verify", dir.resolve("verification_key.json").toString(), pub.toString(), proof.toString());
        assertEquals(0, ours.status(), ours.out() + ours.err());
    }
}
