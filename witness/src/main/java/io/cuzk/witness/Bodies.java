package io.cuzk.witness;

import static io.cuzk.witness.CompiledCircuits.writeLeb;

import com.dylibso.chicory.wasm.WasmModule;
import com.dylibso.chicory.wasm.types.AnnotatedInstruction;
import com.dylibso.chicory.wasm.types.ExternalType;
import com.dylibso.chicory.wasm.types.FunctionBody;
import com.dylibso.chicory.wasm.types.Instruction;
import com.dylibso.chicory.wasm.types.OpCode;
import com.dylibso.chicory.wasm.types.ValType;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The bodies of the functions a compiled circuit leaves to Chicory's interpreter, kept in the
 * cache's entry as the parser decoded them: each instruction's address, opcode and operands with
 * the control-flow facts the parser works out (nesting depth, branch targets, a br_table's targets,
 * the block an end closes), which is what the interpreter reads. Decoding them from the wasm is one
 * thread's pass through the parser's control-flow bookkeeping (about 35 ms of a cached witness
 * command for the bundled sample's one 274 KB function, 129,000 instructions); these are read back
 * in chunks of instructions that both of a command's threads take as they come free.
 *
 * <p>A body: its locals, its instruction count, the number of its chunks (of {@value #CHUNK}
 * instructions, the last one the rest) and each one's length in bytes, then the chunks, each read
 * on its own: addresses as distances within the chunk, and the block an end closes named by its
 * distance back when it is in the chunk, else written out (address, opcode, operands: the
 * parser's scope is such an instruction, compared by value). An instruction: a flags byte (its operand count up to 14, 15
 * when the count follows; whether a true label, a false label, a near or a far scope follow), then
 * unsigned LEB128 numbers: opcode, address distance, depth, [count], operands (zigzag), labels,
 * scope, and a br_table's targets.
 *
 * <p>Only what the format holds is kept: locals of the numeric types, no try_table (circom emits
 * neither references nor exceptions). For any other body nothing is kept and the shell decodes
 * the wasm as before. The entry's checksum covers these bytes; bytes that still do not read back
 * give null, never a wrong body.
 */
final class Bodies {
    private Bodies() {}

    /** The locals' types by their code in the entry. */
    private static final ValType[] TYPES = {ValType.I32, ValType.I64, ValType.F32, ValType.F64, ValType.V128};

    /**
     * Instructions a chunk holds at most: the bundled sample's function is 32 chunks, so that two
     * threads taking them as they come free end within about a millisecond of each other.
     */
    static final int CHUNK = 4_096;

    /** The flags byte: the operands' count up to MANY - 1 (MANY: the count follows), then which facts follow. */
    private static final int MANY = 15, LABEL_TRUE = 16, LABEL_FALSE = 32, SCOPE = 64, FAR_SCOPE = 128;

    /** The body of a compiled function in a shell (never run): what the parser makes of "no locals, end". */
    static final FunctionBody EMPTY;

    static {
        Instruction end = new Instruction(0, OpCode.END, Instruction.EMPTY_OPERANDS);
        EMPTY = new FunctionBody(List.of(), List.of(AnnotatedInstruction.builder().from(end).withDepth(0).withScope(end).build()));
    }

    /**
     * The decoded bodies of module's interpreted functions (indices counting imported functions),
     * in the order of their indices; null when there are none or one holds what this format does
     * not keep.
     */
    static byte[] encode(WasmModule module, Set<Integer> interpreted) {
        if (interpreted.isEmpty()) {
            return null;
        }
        int imported = module.importSection().count(ExternalType.FUNCTION);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int f : new TreeSet<>(interpreted)) {
            if (f < imported || f - imported >= module.codeSection().functionBodyCount()
                    || !encode(module.codeSection().getFunctionBody(f - imported), out)) {
                return null;
            }
        }
        return out.toByteArray();
    }

    private static boolean encode(FunctionBody body, ByteArrayOutputStream out) {
        List<ValType> locals = body.localTypes();
        writeLeb(out, locals.size());
        for (ValType t : locals) {
            int code = Arrays.asList(TYPES).indexOf(t);
            if (code < 0) {
                return false;
            }
            out.write(code);
        }
        List<AnnotatedInstruction> code = body.instructions();
        if (code.isEmpty()) {
            return false;
        }
        Map<Integer, Integer> byAddress = new HashMap<>(code.size() * 2);
        for (int i = 0; i < code.size(); i++) {
            byAddress.putIfAbsent(code.get(i).address(), i);
        }
        writeLeb(out, code.size());
        int chunks = (code.size() + CHUNK - 1) / CHUNK;
        List<byte[]> bytes = new ArrayList<>();
        for (int c = 0; c < chunks; c++) {
            ByteArrayOutputStream chunk = new ByteArrayOutputStream();
            if (!encodeChunk(code, c * CHUNK, Math.min(code.size(), (c + 1) * CHUNK), byAddress, chunk)) {
                return false;
            }
            bytes.add(chunk.toByteArray());
        }
        writeLeb(out, chunks);
        for (byte[] chunk : bytes) {
            writeLeb(out, chunk.length);
        }
        for (byte[] chunk : bytes) {
            out.write(chunk, 0, chunk.length);
        }
        return true;
    }

    private static boolean encodeChunk(List<AnnotatedInstruction> code, int from, int to, Map<Integer, Integer> byAddress,
            ByteArrayOutputStream out) {
        int address = 0;
        for (int n = from; n < to; n++) {
            AnnotatedInstruction i = code.get(n);
            if (i.catches() != null || i.address() < address || i.depth() < 0) {
                return false;
            }
            int scope = -1;
            Instruction s = i.scope();
            if (s != null) {
                Integer at = byAddress.get(s.address());
                if (at == null || at > n || !sameInstruction(s, code.get(at))) {
                    return false; // not one of the body's instructions up to this one, as the parser's scopes are
                }
                scope = at;
            }
            boolean table = i.opcode() == OpCode.BR_TABLE;
            if (!table && !i.labelTable().isEmpty()) {
                return false;
            }
            boolean labelTrue = i.labelTrue() != AnnotatedInstruction.UNDEFINED_LABEL;
            boolean labelFalse = i.labelFalse() != AnnotatedInstruction.UNDEFINED_LABEL;
            if (labelTrue && i.labelTrue() < 0 || labelFalse && i.labelFalse() < 0 || !fits(i.opcode(), labelTrue, labelFalse, s != null)) {
                return false;
            }
            long[] operands = i.operands();
            out.write(Math.min(operands.length, MANY) | (labelTrue ? LABEL_TRUE : 0) | (labelFalse ? LABEL_FALSE : 0)
                    | (scope < 0 ? 0 : scope >= from ? SCOPE : FAR_SCOPE));
            writeLeb(out, i.opcode().opcode());
            writeLeb(out, i.address() - address);
            address = i.address();
            writeLeb(out, i.depth());
            writeOperands(out, operands, false);
            if (labelTrue) {
                writeLeb(out, i.labelTrue());
            }
            if (labelFalse) {
                writeLeb(out, i.labelFalse());
            }
            if (scope >= from) {
                writeLeb(out, n - scope);
            } else if (scope >= 0) {
                writeLeb(out, s.address());
                writeLeb(out, s.opcode().opcode());
                writeOperands(out, s.operands(), true); // the count always: there are no flags for it
            }
            if (table) {
                writeLeb(out, i.labelTable().size());
                for (Integer l : i.labelTable()) {
                    if (l == null || l < 0) {
                        return false;
                    }
                    writeLeb(out, l);
                }
            }
        }
        return true;
    }

    /**
     * Whether an instruction of this opcode has these facts, as the parser gives them (and Chicory's
     * builder asserts): a scope for the instructions that open or close a block, a true label for
     * the branches and else, a false label for the conditional ones, and nothing else.
     */
    private static boolean fits(OpCode op, boolean labelTrue, boolean labelFalse, boolean scope) {
        boolean conditional = op == OpCode.BR_IF || op == OpCode.BR_ON_NULL || op == OpCode.BR_ON_NON_NULL || op == OpCode.IF;
        return labelTrue == (conditional || op == OpCode.ELSE || op == OpCode.BR) && labelFalse == conditional
                && scope == (op == OpCode.BLOCK || op == OpCode.LOOP || op == OpCode.END || op == OpCode.IF || op == OpCode.TRY_TABLE);
    }

    private static boolean sameInstruction(Instruction a, Instruction b) {
        return a.address() == b.address() && a.opcode() == b.opcode() && Arrays.equals(a.operands(), b.operands());
    }

    /**
     * Operands: their count (where it does not fit in the flags byte, or always), then each
     * zigzag-coded (small negative constants stay short).
     */
    private static void writeOperands(ByteArrayOutputStream out, long[] operands, boolean count) {
        if (count || operands.length >= MANY) {
            writeLeb(out, operands.length);
        }
        for (long o : operands) {
            writeLeb(out, (o << 1) ^ (o >> 63));
        }
    }

    /**
     * Decoded bodies by function index, and whether one of them uses a data segment by index
     * (memory.init, data.drop: the module then needs a data count, as the parser notes).
     */
    record Decoded(Map<Integer, FunctionBody> bodies, boolean requiresDataCount) {}

    /**
     * A decoding of the bodies that bytes[from, to) hold (as {@link #encode} wrote them, for the
     * interpreted functions in index order), or null when their headers do not read back. Its
     * chunks are decoded by the threads that call {@link Decoding#help} or {@link Decoding#result}.
     */
    static Decoding decoding(byte[] bytes, int from, int to, Set<Integer> interpreted) {
        try {
            return new Decoding(bytes, from, to, interpreted);
        } catch (RuntimeException e) { // short, or a count out of its range: not ours to run
            return null;
        }
    }

    /** The bodies decoded on this thread alone (see {@link #decoding}); null where they do not read back. */
    static Decoded decode(byte[] bytes, int from, int to, Set<Integer> interpreted) {
        Decoding d = decoding(bytes, from, to, interpreted);
        return d == null ? null : d.result();
    }

    /** The bodies' decoding: their arrays, filled chunk by chunk by whichever thread claims the chunk. */
    static final class Decoding {
        private record Chunk(Instruction[] bases, AnnotatedInstruction[] code, int first, int from, int to) {}

        private record Body(ValType[] locals, AnnotatedInstruction[] code) {}

        private final byte[] bytes;
        private final List<Chunk> chunks = new ArrayList<>();
        private final Map<Integer, Body> bodies = new HashMap<>();
        private final AtomicInteger next = new AtomicInteger();
        private final CountDownLatch done;
        private volatile boolean failed, dataCount;

        private Decoding(byte[] bytes, int from, int to, Set<Integer> interpreted) {
            this.bytes = bytes;
            Reader in = new Reader(bytes, from, to);
            for (int f : new TreeSet<>(interpreted)) {
                int localCount = in.small(to - in.at);
                ValType[] locals = new ValType[localCount];
                for (int l = 0; l < localCount; l++) {
                    locals[l] = TYPES[bytes[in.at++]];
                }
                int n = in.small(to - in.at); // an instruction takes 4 bytes at least
                int count = in.small(n);
                if (n == 0 || count != (n + CHUNK - 1) / CHUNK) {
                    throw new IllegalArgumentException("a body's chunks");
                }
                int[] lengths = new int[count];
                for (int c = 0; c < count; c++) {
                    lengths[c] = in.small(to - in.at);
                }
                Instruction[] bases = new Instruction[n];
                AnnotatedInstruction[] code = new AnnotatedInstruction[n];
                for (int c = 0; c < count; c++) {
                    if (lengths[c] > to - in.at) {
                        throw new IllegalArgumentException("a chunk past the end");
                    }
                    chunks.add(new Chunk(bases, code, c * CHUNK, in.at, in.at + lengths[c]));
                    in.at += lengths[c];
                }
                bodies.put(f, new Body(locals, code)); // made a FunctionBody (which copies them) once the chunks are done
            }
            if (in.at != to) {
                throw new IllegalArgumentException("bytes after the bodies");
            }
            done = new CountDownLatch(chunks.size());
        }

        /** Decodes chunks no other thread has claimed until none is left. */
        void help() {
            for (int c = next.getAndIncrement(); c < chunks.size(); c = next.getAndIncrement()) {
                Chunk k = chunks.get(c);
                try {
                    Reader in = new Reader(bytes, k.from(), k.to());
                    int end = Math.min(k.code().length, k.first() + CHUNK);
                    for (int i = k.first(); i < end; i++) {
                        k.code()[i] = in.instruction(k.bases(), k.first(), i);
                    }
                    if (in.at != k.to()) {
                        failed = true;
                    }
                    if (in.dataCount) {
                        dataCount = true;
                    }
                } catch (RuntimeException e) { // a field out of its range: not ours to run
                    failed = true;
                } finally {
                    done.countDown();
                }
            }
        }

        /** The bodies, once every chunk is decoded (this thread helping); null when one did not read back. */
        Decoded result() {
            help();
            try {
                done.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
            if (failed) {
                return null;
            }
            Map<Integer, FunctionBody> decoded = new HashMap<>();
            for (Map.Entry<Integer, Body> b : bodies.entrySet()) {
                decoded.put(b.getKey(), new FunctionBody(Arrays.asList(b.getValue().locals()), Arrays.asList(b.getValue().code())));
            }
            return new Decoded(Map.copyOf(decoded), dataCount);
        }
    }

    /** A cursor over encoded bodies. */
    private static final class Reader {
        private final byte[] b;
        private final int end;
        private int at;
        private boolean dataCount;
        /** The address of the instruction read last (each is stored as the distance from it). */
        private int address;

        Reader(byte[] b, int from, int to) {
            this.b = b;
            this.at = from;
            this.end = to;
        }

        long var() {
            long v = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                if (at >= end) {
                    throw new IllegalArgumentException("a number past the end");
                }
                int x = b[at++];
                v |= (long) (x & 0x7f) << shift;
                if (x >= 0) {
                    return v;
                }
            }
            throw new IllegalArgumentException("a number of more than 64 bits");
        }

        /** A count or an index: 0 to max. */
        int small(int max) {
            long v = var();
            if (v < 0 || v > max) {
                throw new IllegalArgumentException("a count out of range");
            }
            return (int) v;
        }

        OpCode opcode() {
            OpCode opcode = OpCode.byOpCode(small(Integer.MAX_VALUE));
            if (opcode == null) {
                throw new IllegalArgumentException("an unknown opcode");
            }
            return opcode;
        }

        long[] operands(int flags) {
            int count = flags & MANY;
            if (count == MANY) {
                count = small(end - at);
            }
            if (count == 0) {
                return Instruction.EMPTY_OPERANDS;
            }
            long[] operands = new long[count];
            for (int o = 0; o < count; o++) {
                long z = var();
                operands[o] = (z >>> 1) ^ -(z & 1);
            }
            return operands;
        }

        /**
         * Instruction i of a body of bases.length instructions, in a chunk from first (its base is
         * kept in bases, where later ends of the chunk find their blocks). A method of its own, not
         * a loop's body: the JIT compiles a method after a few hundred calls, a loop in a running
         * method only after tens of thousands of rounds (most of a chunk's, at a command's start).
         */
        AnnotatedInstruction instruction(Instruction[] bases, int first, int i) {
            int n = bases.length;
            int flags = b[at++] & 0xff;
            OpCode opcode = opcode();
            if ((flags & SCOPE) != 0 && (flags & FAR_SCOPE) != 0
                    || !fits(opcode, (flags & LABEL_TRUE) != 0, (flags & LABEL_FALSE) != 0, (flags & (SCOPE | FAR_SCOPE)) != 0)) {
                throw new IllegalArgumentException("facts that an instruction of its opcode does not have");
            }
            address = i == first ? small(Integer.MAX_VALUE) : Math.addExact(address, small(Integer.MAX_VALUE));
            int depth = small(Integer.MAX_VALUE);
            long[] operands = operands(flags);
            dataCount |= opcode == OpCode.MEMORY_INIT || opcode == OpCode.DATA_DROP;
            Instruction base = new Instruction(address, opcode, operands);
            bases[i] = base;
            AnnotatedInstruction.Builder ins = AnnotatedInstruction.builder().from(base).withDepth(depth);
            if ((flags & LABEL_TRUE) != 0) {
                ins.withLabelTrue(small(n));
            }
            if ((flags & LABEL_FALSE) != 0) {
                ins.withLabelFalse(small(n));
            }
            if ((flags & SCOPE) != 0) {
                ins.withScope(bases[i - small(i - first)]);
            } else if ((flags & FAR_SCOPE) != 0) {
                int scopeAddress = small(Integer.MAX_VALUE);
                OpCode scopeOpcode = opcode();
                ins.withScope(new Instruction(scopeAddress, scopeOpcode, operands(MANY))); // its count follows
            }
            if (opcode == OpCode.BR_TABLE) {
                int size = small(end - at);
                Integer[] table = new Integer[size];
                for (int t = 0; t < size; t++) {
                    table[t] = small(n);
                }
                ins.withLabelTable(Arrays.asList(table));
            }
            return ins.build();
        }
    }
}
