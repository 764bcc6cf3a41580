package io.cuzk.witness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.dylibso.chicory.runtime.Instance;
import com.dylibso.chicory.runtime.Machine;
import com.dylibso.chicory.wasm.Parser;
import com.dylibso.chicory.wasm.WasmModule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cache of compiled circuits, on small hand-written modules (the circom circuits' whole path,
 * cached and not, is checked against snarkjs in the tests module): a second load reads what the
 * first wrote and runs the same; a damaged entry, a folder others may write to and an entry of
 * another wasm are never what runs.
 */
class CompiledCircuitsTest {
    @TempDir
    Path tmp;

    /** (module (func (export "f") (param i32 i32) (result i32) local.get 0 local.get 1 OP)) */
    private static byte[] module(int op) {
        return new byte[] {0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version
            0x01, 0x07, 0x01, 0x60, 0x02, 0x7f, 0x7f, 0x01, 0x7f, // type: (i32, i32) -> i32
            0x03, 0x02, 0x01, 0x00, // one function of that type
            0x07, 0x05, 0x01, 0x01, 'f', 0x00, 0x00, // exported as "f"
            0x0a, 0x09, 0x01, 0x07, 0x00, 0x20, 0x00, 0x20, 0x01, (byte) op, 0x0b}; // local.get 0, local.get 1, op, end
    }

    private static final int I32_ADD = 0x6a, I32_MUL = 0x6c;

    /**
     * (func (export "f") (param $x i32) (result i32) (local $acc i32)): a br_table on x over three
     * nested blocks (acc 100 for 0, 200 for 1, else 0), then if x > 3 acc += 1000 else acc += 1,
     * then a loop adding x, x - 1, ..., 1 to acc: f(0..5) = 101, 202, 4, 7, 1010, 1015.
     */
    static byte[] branchy() {
        return new byte[] {0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
            0x01, 0x06, 0x01, 0x60, 0x01, 0x7f, 0x01, 0x7f, // type: (i32) -> i32
            0x03, 0x02, 0x01, 0x00, 0x07, 0x05, 0x01, 0x01, 'f', 0x00, 0x00, // one function, exported as "f"
            0x0a, 0x57, 0x01, 0x55, 0x01, 0x01, 0x7f, // its body: one i32 local
            0x02, 0x40, 0x02, 0x40, 0x02, 0x40, 0x20, 0x00, 0x0e, 0x02, 0x00, 0x01, 0x02, 0x0b, // blocks, br_table 0 1 default 2
            0x41, (byte) 0xe4, 0x00, 0x21, 0x01, 0x0c, 0x01, 0x0b, 0x41, (byte) 0xc8, 0x01, 0x21, 0x01, 0x0b, // acc = 100; br 1 / acc = 200
            0x20, 0x00, 0x41, 0x03, 0x4b, 0x04, 0x40, 0x20, 0x01, 0x41, (byte) 0xe8, 0x07, 0x6a, 0x21, 0x01, // if x > 3: acc += 1000
            0x05, 0x20, 0x01, 0x41, 0x01, 0x6a, 0x21, 0x01, 0x0b, // else acc += 1
            0x02, 0x40, 0x03, 0x40, 0x20, 0x00, 0x45, 0x0d, 0x01, // block, loop: br_if x == 0 out
            0x20, 0x01, 0x20, 0x00, 0x6a, 0x21, 0x01, 0x20, 0x00, 0x41, 0x01, 0x6b, 0x21, 0x00, 0x0c, 0x00, 0x0b, 0x0b, // acc += x; x -= 1
            0x20, 0x01, 0x0b}; // acc
    }

    static final long[] BRANCHY = {101, 202, 4, 7, 1010, 1015};

    private static long call(WasmModule m, Function<Instance, Machine> machines, long a, long b) {
        Instance i = Instance.builder(m).withMachineFactory(machines).build();
        return i.export("f").apply(a, b)[0];
    }

    private static List<Path> entries(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.toList();
        }
    }

    @Test
    void aSecondLoadRunsTheClassesTheFirstWrote() throws IOException {
        Path dir = tmp.resolve("cache");
        byte[] wasm = module(I32_ADD);
        WasmModule m = Parser.parse(wasm);
        assertNull(CompiledCircuits.lookup(dir, wasm), "an empty cache");
        assertEquals(5, call(m, CompiledCircuits.compile(m, wasm, dir), 2, 3));
        assertEquals(List.of(dir.resolve(CompiledCircuits.key(wasm))), entries(dir), "one entry, no temporary file left");
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
        assertFalse(PosixFilePermissions.toString(Files.getPosixFilePermissions(entries(dir).get(0))).matches(".{4}w.*|.{7}w.*"));

        CompiledCircuits.Entry hit = CompiledCircuits.lookup(dir, wasm);
        assertNotNull(hit);
        assertEquals(Set.of(), hit.interpreted());
        assertEquals(5, call(m, hit.machines(), 2, 3));
        // on the module without its function bodies, as a circuit from the cache runs
        WasmModule shell = CompiledCircuits.shell(wasm, hit.interpreted());
        assertTrue(shell.codeSection().getFunctionBody(0).instructions().size() <= 1, "the body is left out");
        assertEquals(-7, (int) call(shell, hit.machines(), -10, 3));
        assertEquals(9, call(shell, hit.machines(), 4, 5));
        // an interpreted function keeps its body (the interpreter runs it)
        WasmModule kept = CompiledCircuits.shell(wasm, Set.of(0));
        assertEquals(m.codeSection().getFunctionBody(0).instructions().size(), kept.codeSection().getFunctionBody(0).instructions().size());
        assertEquals(11, Instance.builder(kept).build().export("f").apply(5, 6)[0]);
        // the functions to keep known later (the entry read meanwhile), or never (no entry: no shell)
        WasmModule later = CompiledCircuits.shellOf(wasm, () -> new CompiledCircuits.Keep(Set.of(0), null));
        assertEquals(11, Instance.builder(later).build().export("f").apply(5, 6)[0]);
        assertNull(CompiledCircuits.shellOf(wasm, () -> null));
        // and bytes that are not a module, or one cut inside a section, are refused (by this class or Chicory's parser)
        assertThrows(IllegalArgumentException.class, () -> CompiledCircuits.shell(new byte[] {1, 2, 3}, Set.of()));
        Set<Integer> sectionEnds = Set.of(8, 17, 21, 28, wasm.length);
        for (int length = 9; length < wasm.length; length++) {
            if (sectionEnds.contains(length)) {
                continue;
            }
            byte[] part = java.util.Arrays.copyOf(wasm, length);
            int cut = wasm.length - length;
            RuntimeException e = assertThrows(RuntimeException.class, () -> CompiledCircuits.shell(part, Set.of()), "cut by " + cut);
            assertTrue(e instanceof IllegalArgumentException || e instanceof com.dylibso.chicory.wasm.ChicoryException, e.toString());
        }
    }

    /**
     * A function left to the interpreter runs from the body the entry keeps (as the parser decoded
     * it when the circuit was compiled), in a shell made without decoding the wasm's code.
     */
    @Test
    void anInterpretedFunctionRunsFromTheBodyTheEntryKeeps() throws IOException {
        Path dir = tmp.resolve("cache");
        byte[] wasm = branchy();
        WasmModule m = Parser.parse(wasm);
        for (int x = 0; x < BRANCHY.length; x++) {
            assertEquals(BRANCHY[x], Instance.builder(m).build().export("f").apply(x)[0], "the module itself, f(" + x + ")");
        }
        CompiledCircuits.compile(m, wasm, dir, Set.of(0));
        CompiledCircuits.Entry hit = CompiledCircuits.lookup(dir, wasm);
        assertNotNull(hit);
        assertEquals(Set.of(0), hit.interpreted());
        Bodies.Decoding kept = hit.bodies();
        assertNotNull(kept, "the interpreted function's body is in the entry");
        WasmModule shell = CompiledCircuits.shellOf(wasm, () -> new CompiledCircuits.Keep(hit.interpreted(), kept));
        for (int x = 0; x < BRANCHY.length; x++) {
            assertEquals(BRANCHY[x], call(shell, hit.machines(), x), "f(" + x + ") from the kept body");
        }
        // the shell's body is the one the entry keeps, not one decoded from the wasm again
        WasmModule decoded = CompiledCircuits.shell(wasm, Set.of(0));
        assertEquals(decoded.codeSection().getFunctionBody(0).instructions().size(), shell.codeSection().getFunctionBody(0).instructions()
                .size());
        assertNotSame(decoded.codeSection().getFunctionBody(0), shell.codeSection().getFunctionBody(0));
    }

    private static long call(WasmModule m, Function<Instance, Machine> machines, long x) {
        return Instance.builder(m).withMachineFactory(machines).build().export("f").apply(x)[0];
    }

    @Test
    void anotherWasmHasAnotherEntry() throws IOException {
        Path dir = tmp.resolve("cache");
        byte[] add = module(I32_ADD), mul = module(I32_MUL);
        assertNotEquals(CompiledCircuits.key(add), CompiledCircuits.key(mul));
        assertTrue(CompiledCircuits.key(add).contains("-chicory-" + CompiledCircuits.COMPILER_VERSION + "-"), CompiledCircuits.key(add));
        WasmModule ma = Parser.parse(add), mm = Parser.parse(mul);
        CompiledCircuits.compile(ma, add, dir);
        assertNull(CompiledCircuits.lookup(dir, mul));
        assertEquals(6, call(mm, CompiledCircuits.compile(mm, mul, dir), 2, 3));
        assertEquals(6, call(mm, CompiledCircuits.lookup(dir, mul).machines(), 2, 3));
        assertEquals(5, call(ma, CompiledCircuits.lookup(dir, add).machines(), 2, 3));
        assertEquals(2, entries(dir).size());
        // an entry under another wasm's name (as if their checksums agreed) holds other bytes: not used
        Files.copy(dir.resolve(CompiledCircuits.key(add)), dir.resolve(CompiledCircuits.key(mul)), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertNull(CompiledCircuits.lookup(dir, mul));
    }

    @Test
    void aDamagedOrTruncatedEntryIsNeverUsed() throws IOException {
        Path dir = tmp.resolve("cache");
        byte[] wasm = module(I32_MUL);
        WasmModule m = Parser.parse(wasm);
        CompiledCircuits.compile(m, wasm, dir);
        Path entry = dir.resolve(CompiledCircuits.key(wasm));
        byte[] good = Files.readAllBytes(entry);
        for (int at : new int[] {0, 9, good.length / 2, good.length - 40, good.length - 1}) {
            byte[] bad = good.clone();
            bad[at] ^= 0x10;
            Files.write(entry, bad);
            assertNull(CompiledCircuits.lookup(dir, wasm), "a flipped bit at " + at);
            // compiled again, the entry is written anew
            assertEquals(12, call(m, CompiledCircuits.compile(m, wasm, dir), 3, 4));
            assertEquals(12, call(m, CompiledCircuits.lookup(dir, wasm).machines(), 3, 4), "rewritten after a flipped bit at " + at);
        }
        for (int len : new int[] {0, 10, good.length - 4, good.length - 1}) {
            Files.write(entry, java.util.Arrays.copyOf(good, len));
            assertNull(CompiledCircuits.read(entry, wasm), "cut to " + len + " bytes");
        }
        Files.write(entry, good);
        assertEquals(12, call(m, CompiledCircuits.read(entry, wasm).machines(), 3, 4));
    }

    @Test
    void aFolderOthersMayWriteIntoIsNotUsed() throws IOException {
        Path dir = Files.createDirectory(tmp.resolve("shared"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        byte[] wasm = module(I32_ADD);
        WasmModule m = Parser.parse(wasm);
        assertEquals(5, call(m, CompiledCircuits.compile(m, wasm, dir), 2, 3));
        assertEquals(List.of(), entries(dir), "nothing written into a folder others may write");
        // an entry placed there (by anyone) is not read either
        Path own = tmp.resolve("own");
        CompiledCircuits.compile(m, wasm, own);
        Files.copy(own.resolve(CompiledCircuits.key(wasm)), dir.resolve(CompiledCircuits.key(wasm)));
        assertNull(CompiledCircuits.lookup(dir, wasm));
        // and an entry others may write is not read from a good folder
        Files.setPosixFilePermissions(own.resolve(CompiledCircuits.key(wasm)), PosixFilePermissions.fromString("rw-rw-rw-"));
        assertNull(CompiledCircuits.lookup(own, wasm));
        // nor an entry reached through a link
        Path link = tmp.resolve("linked");
        Files.createDirectory(link, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Files.setPosixFilePermissions(own.resolve(CompiledCircuits.key(wasm)), PosixFilePermissions.fromString("rw-------"));
        Files.createSymbolicLink(link.resolve(CompiledCircuits.key(wasm)), own.resolve(CompiledCircuits.key(wasm)));
        assertNotNull(CompiledCircuits.lookup(own, wasm));
        assertNull(CompiledCircuits.lookup(link, wasm));
    }

    /**
     * The cache stays within its bound: writing an entry past it removes those used longest ago (a
     * lookup counts as a use), never the new one, and temporary files a writer left over an hour ago;
     * other files are not touched.
     */
    @Test
    void theEntriesUsedLongestAgoGoWhenTheCacheIsFull() throws IOException {
        Path dir = tmp.resolve("cache");
        assertTrue(CompiledCircuits.usable(dir));
        int[] ops = {0x6a, 0x6b, 0x6c, 0x71}; // i32.add, sub, mul, and
        byte[][] wasms = new byte[ops.length][];
        long hour = 3_600_000, now = System.currentTimeMillis();
        for (int i = 0; i < 3; i++) {
            wasms[i] = module(ops[i]);
            CompiledCircuits.compile(Parser.parse(wasms[i]), wasms[i], dir);
            // the first written longest ago
            Files.setLastModifiedTime(dir.resolve(CompiledCircuits.key(wasms[i])), FileTime.fromMillis(now - (3 - i) * hour));
        }
        long entry = Files.size(dir.resolve(CompiledCircuits.key(wasms[0])));
        // the first is used (looked up) now: the second is then the one used longest ago
        assertNotNull(CompiledCircuits.lookup(dir, wasms[0]));
        assertTrue(Files.getLastModifiedTime(dir.resolve(CompiledCircuits.key(wasms[0]))).toMillis() >= now - 60_000);
        Path leftOver = Files.write(dir.resolve(CompiledCircuits.key(wasms[2]) + ".1234.part"), new byte[10]);
        Files.setLastModifiedTime(leftOver, FileTime.fromMillis(now - 2 * hour));
        Path fresh = Files.write(dir.resolve(CompiledCircuits.key(wasms[1]) + ".5678.part"), new byte[10]); // a writer at work
        Path other = Files.write(dir.resolve("notes.txt"), new byte[10_000]);
        Files.setLastModifiedTime(other, FileTime.fromMillis(now - 10 * hour));

        String before = System.getProperty(CompiledCircuits.MAX_BYTES_PROPERTY);
        System.setProperty(CompiledCircuits.MAX_BYTES_PROPERTY, Long.toString(3 * entry + entry / 2));
        try {
            wasms[3] = module(ops[3]);
            CompiledCircuits.compile(Parser.parse(wasms[3]), wasms[3], dir);
        } finally {
            if (before == null) {
                System.clearProperty(CompiledCircuits.MAX_BYTES_PROPERTY);
            } else {
                System.setProperty(CompiledCircuits.MAX_BYTES_PROPERTY, before);
            }
        }
        assertEquals(names(CompiledCircuits.key(wasms[0]), CompiledCircuits.key(wasms[2]), CompiledCircuits.key(wasms[3]),
                fresh.getFileName().toString(), "notes.txt"), names(dir), "the entry used longest ago and the abandoned temporary file go");
        assertNull(CompiledCircuits.lookup(dir, wasms[1]));
        assertEquals(5, call(Parser.parse(wasms[3]), CompiledCircuits.lookup(dir, wasms[3]).machines(), 7, 13), "7 & 13 from the new entry");

        // a bound smaller than one entry keeps the new one alone
        CompiledCircuits.prune(dir, dir.resolve(CompiledCircuits.key(wasms[3])), 0);
        assertEquals(names(CompiledCircuits.key(wasms[3]), fresh.getFileName().toString(), "notes.txt"), names(dir));
    }

    private static Set<String> names(String... names) {
        return Set.of(names);
    }

    private static Set<String> names(Path dir) throws IOException {
        return entries(dir).stream().map(f -> f.getFileName().toString()).collect(java.util.stream.Collectors.toSet());
    }

    /** The version in the entries' names is the one of the Chicory compiler on the class path. */
    @Test
    void theCompilerVersionIsTheOneOnTheClassPath() throws IOException {
        java.util.Properties p = new java.util.Properties();
        try (java.io.InputStream in = com.dylibso.chicory.compiler.internal.Compiler.class
                .getResourceAsStream("/META-INF/maven/com.dylibso.chicory/compiler/pom.properties")) {
            assertNotNull(in, "Chicory's compiler jar has its Maven properties");
            p.load(in);
        }
        assertEquals(p.getProperty("version"), CompiledCircuits.COMPILER_VERSION,
                "bump CompiledCircuits.COMPILER_VERSION with Chicory's version");
    }

    @Test
    void noneTurnsTheCacheOff() {
        String before = System.getProperty(CompiledCircuits.PROPERTY);
        try {
            System.setProperty(CompiledCircuits.PROPERTY, "none");
            assertNull(CompiledCircuits.folder());
            System.setProperty(CompiledCircuits.PROPERTY, tmp.toString());
            assertEquals(tmp, CompiledCircuits.folder());
        } finally {
            if (before == null) {
                System.clearProperty(CompiledCircuits.PROPERTY);
            } else {
                System.setProperty(CompiledCircuits.PROPERTY, before);
            }
        }
    }
}
