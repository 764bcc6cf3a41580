package io.cuzk.witness;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.dylibso.chicory.runtime.Instance;
import com.dylibso.chicory.wasm.Parser;
import com.dylibso.chicory.wasm.WasmModule;
import com.dylibso.chicory.wasm.types.AnnotatedInstruction;
import com.dylibso.chicory.wasm.types.ExternalType;
import com.dylibso.chicory.wasm.types.FunctionBody;
import com.dylibso.chicory.wasm.types.Instruction;
import com.dylibso.chicory.wasm.types.OpCode;
import com.dylibso.chicory.wasm.types.ValType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The interpreted functions' bodies as the cache's entry keeps them: every function of a real
 * circom circuit (the bundled sample's 1.7 MB circuit.wasm, its largest function 129,000
 * instructions in 32 chunks) reads back equal, field by field, to what Chicory's parser makes of
 * the wasm, decoded by two threads at once; a hand-written module with every kind of branch runs
 * the same from its kept body; bytes that are cut or damaged never throw.
 */
class BodiesTest {
    /** The repository's bundled sample (the tests run in witness/). */
    private static Path sample() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path wasm = p.resolve("samples/poseidon-bn254/circuit.wasm");
            if (Files.isRegularFile(wasm)) {
                return wasm;
            }
        }
        throw new AssertionError("samples/poseidon-bn254/circuit.wasm not found above " + Path.of("").toAbsolutePath());
    }

    private static Set<Integer> allFunctions(WasmModule m) {
        int imported = m.importSection().count(ExternalType.FUNCTION);
        return IntStream.range(imported, imported + m.codeSection().functionBodyCount()).boxed().collect(Collectors.toCollection(TreeSet::new));
    }

    /** The body as the parser made it and as it was read back: every field the interpreter or the parser sets. */
    private static void assertSameBody(FunctionBody parsed, FunctionBody read, String where) {
        assertEquals(parsed.localTypes(), read.localTypes(), where + ": locals");
        List<AnnotatedInstruction> a = parsed.instructions(), b = read.instructions();
        assertEquals(a.size(), b.size(), where + ": instructions");
        for (int i = 0; i < a.size(); i++) {
            AnnotatedInstruction x = a.get(i), y = b.get(i);
            String at = where + " instruction " + i + " " + x;
            assertEquals(x.address(), y.address(), at);
            assertSame(x.opcode(), y.opcode(), at);
            assertArrayEquals(x.operands(), y.operands(), at);
            assertEquals(x.depth(), y.depth(), at);
            assertEquals(x.labelTrue(), y.labelTrue(), at);
            assertEquals(x.labelFalse(), y.labelFalse(), at);
            assertEquals(x.labelTable(), y.labelTable(), at);
            assertEquals(x.catches(), y.catches(), at);
            assertEquals(x.scope() == null, y.scope() == null, at);
            if (x.scope() != null) {
                assertEquals(x.scope().address(), y.scope().address(), at);
                assertSame(x.scope().opcode(), y.scope().opcode(), at);
                assertArrayEquals(x.scope().operands(), y.scope().operands(), at);
            }
            assertEquals(x, y, at); // and Chicory's own equality (its annotations and scope)
        }
    }

    @Test
    void everyFunctionOfACircomCircuitReadsBackAsParsed() throws Exception {
        byte[] wasm = Files.readAllBytes(sample());
        WasmModule m = Parser.parse(wasm);
        Set<Integer> all = allFunctions(m);
        byte[] kept = Bodies.encode(m, all);
        assertNotNull(kept, "a circom circuit's bodies are all of the kinds kept");
        int imported = m.importSection().count(ExternalType.FUNCTION);
        // what the sample exercises: a body of many chunks, blocks that end in a later chunk (their
        // scope written out), loops, ifs with and without else, branches
        FunctionBody largest = m.codeSection().getFunctionBody(0);
        for (FunctionBody f : m.codeSection().functionBodies()) {
            largest = f.instructions().size() > largest.instructions().size() ? f : largest;
        }
        assertTrue(largest.instructions().size() > 8 * Bodies.CHUNK, "chunks: " + largest.instructions().size());
        Map<OpCode, Long> used = java.util.Arrays.stream(m.codeSection().functionBodies()).flatMap(f -> f.instructions().stream())
                .collect(Collectors.groupingBy(Instruction::opcode, Collectors.counting()));
        for (OpCode op : List.of(OpCode.BLOCK, OpCode.LOOP, OpCode.IF, OpCode.ELSE, OpCode.BR, OpCode.BR_IF, OpCode.END)) {
            assertTrue(used.getOrDefault(op, 0L) > 0, op + " in the sample");
        }
        long far = 0;
        for (int i = 0; i < largest.instructions().size(); i++) {
            Instruction s = largest.instructions().get(i).scope();
            if (s != null && s.address() < largest.instructions().get(i / Bodies.CHUNK * Bodies.CHUNK).address()) {
                far++;
            }
        }
        assertTrue(far > 0, "ends whose block starts in an earlier chunk");

        for (int round = 0; round < 3; round++) { // two threads share the chunks, in a different order each time
            Bodies.Decoding d = Bodies.decoding(kept, 0, kept.length, all);
            assertNotNull(d);
            Thread helper = Thread.ofPlatform().start(d::help);
            Bodies.Decoded read = d.result();
            helper.join();
            assertNotNull(read, "read back");
            assertEquals(all, read.bodies().keySet());
            assertEquals(m.codeSection().isRequiresDataCount(), read.requiresDataCount());
            for (int f : all) {
                assertSameBody(m.codeSection().getFunctionBody(f - imported), read.bodies().get(f), "function " + f);
            }
        }
        // the bytes start anywhere in a larger array (the cache's entry)
        byte[] inEntry = new byte[kept.length + 10];
        System.arraycopy(kept, 0, inEntry, 7, kept.length);
        Bodies.Decoded again = Bodies.decode(inEntry, 7, 7 + kept.length, all);
        assertNotNull(again);
        assertSameBody(largest, again.bodies().get(indexOf(m, largest)), "largest");
    }

    private static int indexOf(WasmModule m, FunctionBody body) {
        FunctionBody[] bodies = m.codeSection().functionBodies();
        for (int i = 0; i < bodies.length; i++) {
            if (bodies[i] == body) {
                return i + m.importSection().count(ExternalType.FUNCTION);
            }
        }
        throw new AssertionError("not a body of the module");
    }

    @Test
    void cutOrDamagedBytesGiveNullNeverAnException() throws Exception {
        byte[] wasm = Files.readAllBytes(sample());
        WasmModule m = Parser.parse(wasm);
        // the two largest functions (the interpreter's kind), so that each cut lands somewhere new
        Set<Integer> some = new TreeSet<>();
        int imported = m.importSection().count(ExternalType.FUNCTION);
        FunctionBody[] bodies = m.codeSection().functionBodies();
        Integer[] byLength = IntStream.range(0, bodies.length).boxed().sorted((x, y) -> bodies[y].instructions().size()
                - bodies[x].instructions().size()).toArray(Integer[]::new);
        some.add(imported + byLength[0]);
        some.add(imported + byLength[1]);
        byte[] kept = Bodies.encode(m, some);
        assertNotNull(Bodies.decode(kept, 0, kept.length, some));
        Random random = new Random(7);
        for (int k = 0; k < 200; k++) {
            int length = k < 20 ? k : random.nextInt(kept.length);
            assertNull(Bodies.decode(kept, 0, length, some), "cut to " + length + " bytes");
        }
        assertNull(Bodies.decode(java.util.Arrays.copyOf(kept, kept.length + 1), 0, kept.length + 1, some), "a byte more");
        assertNull(Bodies.decode(kept, 0, kept.length, Set.of(imported + byLength[0])), "fewer functions than kept");
        for (int k = 0; k < 300; k++) { // a changed byte: null or bodies, never an exception (the entry's checksum catches it first)
            byte[] damaged = kept.clone();
            damaged[random.nextInt(damaged.length)] ^= (byte) (1 + random.nextInt(255));
            Bodies.decode(damaged, 0, damaged.length, some);
        }
    }

    @Test
    void bodiesOfOtherKindsAreNotKept() {
        // a reference-typed local: not a kind the format holds (circom never emits one)
        Instruction end = new Instruction(0, OpCode.END, Instruction.EMPTY_OPERANDS);
        FunctionBody withRef = new FunctionBody(List.of(ValType.FuncRef),
                List.of(AnnotatedInstruction.builder().from(end).withDepth(0).withScope(end).build()));
        assertNull(Bodies.encode(moduleWith(withRef), Set.of(0)));
        assertNull(Bodies.encode(moduleWith(withRef), Set.of()), "nothing interpreted: nothing kept");
        assertNull(Bodies.encode(moduleWith(withRef), Set.of(1)), "a function the module does not have");
    }

    private static WasmModule moduleWith(FunctionBody body) {
        byte[] wasm = {0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x04, 0x01, 0x60, 0x00, 0x00, // type () -> ()
            0x03, 0x02, 0x01, 0x00, // one function
            0x0a, 0x04, 0x01, 0x02, 0x00, 0x0b}; // its body: no locals, end
        WasmModule parsed = Parser.parse(wasm);
        return WasmModule.builder().withValidation(false).setTypeSection(parsed.typeSection()).setFunctionSection(parsed.functionSection())
                .setCodeSection(com.dylibso.chicory.wasm.types.CodeSection.builder().addFunctionBody(body).build()).build();
    }

    /**
     * (func (export "f") (param i32) (result i32): a br_table over three blocks, an if/else and a
     * loop counting down; run by the interpreter from the body read back, as from the parsed one.
     */
    @Test
    void aKeptBodyRunsAsTheParsedOne() throws IOException {
        byte[] wasm = CompiledCircuitsTest.branchy();
        WasmModule m = Parser.parse(wasm);
        byte[] kept = Bodies.encode(m, Set.of(0));
        assertNotNull(kept);
        Bodies.Decoded read = Bodies.decode(kept, 0, kept.length, Set.of(0));
        assertNotNull(read);
        assertSameBody(m.codeSection().getFunctionBody(0), read.bodies().get(0), "f");
        WasmModule shell = CompiledCircuits.shellOf(wasm, () -> new CompiledCircuits.Keep(Set.of(0), Bodies.decoding(kept, 0, kept.length,
                Set.of(0))));
        for (int x = 0; x < CompiledCircuitsTest.BRANCHY.length; x++) {
            assertEquals(CompiledCircuitsTest.BRANCHY[x], Instance.builder(shell).build().export("f").apply(x)[0], "f(" + x + ")");
        }
    }
}
