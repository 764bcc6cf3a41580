package io.cuzk.witness;

import com.dylibso.chicory.runtime.ExportFunction;
import com.dylibso.chicory.runtime.HostFunction;
import com.dylibso.chicory.runtime.ImportValues;
import com.dylibso.chicory.runtime.Instance;
import com.dylibso.chicory.wasm.ChicoryException;
import com.dylibso.chicory.wasm.Parser;
import com.dylibso.chicory.wasm.WasmModule;
import com.dylibso.chicory.wasm.types.FunctionType;
import com.dylibso.chicory.wasm.types.ValType;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The witness of a circom circuit from its inputs, without Node: the circuit.wasm that circom
 * compiles runs in the JVM on Chicory (compiled to JVM bytecode once, when the calculator is
 * made), driven through circom's witness-calculator protocol (its "runtime" imports, its exports
 * init, getInputSignalSize, setInputSignal, the shared read-write memory, getWitness). The .wtns it
 * writes is byte for byte the one {@code snarkjs wtns calculate} writes.
 *
 * <p>An instance keeps one WebAssembly instance and serves one calculation at a time (its methods
 * are synchronized: threads sharing one take turns). For parallel work, compile the circuit once
 * ({@link Circuit}) and make a calculator per thread from it: they share the compiled code and
 * start at once.
 *
 * <p>Failures: input that does not fit the circuit, or the circuit's own failure, is a
 * {@link WitnessException}. An interrupt of the calculating thread stops the calculation with a
 * {@link java.util.concurrent.CancellationException} (the thread's interrupt status kept); the
 * calculator can be used again. What the log consumer throws reaches the caller as it was thrown.
 * An input signal left out is named when the circuit's symbols are known (circom's
 * {@code --sym} output, found beside the circuit.wasm by {@link Circuit#load}, or given by
 * {@link Circuit#withSymbols}); without them it is counted, as snarkjs counts it.
 */
public final class WitnessCalculator {
    /**
     * input.json's reader: numbers as long as the longest string value read (MAX_DIGITS; a longer
     * one is not JSON here, where JavaScript would make it Infinity, which BigInt refuses too).
     */
    private static final ObjectMapper JSON = new ObjectMapper(com.fasterxml.jackson.core.JsonFactory.builder()
            .streamReadConstraints(com.fasterxml.jackson.core.StreamReadConstraints.builder().maxNumberLength(WitnessCalculator.MAX_DIGITS).build()).build());

    private final String name;
    private final Symbols symbols;
    private final Instance instance;
    private final ExportFunction init, getInputSignalSize, setInputSignal, writeShared, getWitness, getInputSize,
            getMessageChar, getRawPrime;
    private final int n32;
    private final BigInteger prime;
    private final int witnessSize;
    /** Where the shared read-write memory starts in the instance's memory (its words are read there directly). */
    private final int sharedStart;
    private final Consumer<String> log;
    // what the circuit said before a failure (printErrorMessage), and its log() line being built
    private final StringBuilder errors = new StringBuilder();
    private final StringBuilder line = new StringBuilder();
    /** What the log consumer threw in this calculation, which no one may wrap (null when nothing). */
    private RuntimeException consumerFailure;

    /**
     * A circuit.wasm parsed and compiled to JVM bytecode once (the costly step: about a second for
     * a megabyte of wasm, the first time a circuit is seen; see {@link #load} for the cache of
     * compiled circuits); thread-safe. Each {@link #newCalculator} is a fresh WebAssembly
     * instance (its own memory) running the shared compiled code.
     */
    public static final class Circuit {
        private final String name;
        private final WasmModule module;
        /** The compiled code's machine factory; null when interpreting (-Dcuzk.witness.interpret=true). */
        private final java.util.function.Function<Instance, com.dylibso.chicory.runtime.Machine> machines;

        /** True when the compiled code came from the cache of compiled circuits (see {@link #load}). */
        private final boolean cached;
        /** The main component's own signals, from circom's .sym file, read on first need; null without one. */
        private final Symbols symbols;

        private Circuit(String name, WasmModule module, java.util.function.Function<Instance, com.dylibso.chicory.runtime.Machine> machines,
                boolean cached, Symbols symbols) {
            this.name = name;
            this.module = module;
            this.machines = machines;
            this.cached = cached;
            this.symbols = symbols;
        }

        /**
         * This circuit with the signal names of circom's {@code --sym} file (CIRCUIT.sym), with
         * which a calculation names an input signal left out of the input; null for none. The
         * file is read when a calculation first needs it (an input left out), once.
         */
        public Circuit withSymbols(Path sym) {
            return new Circuit(name, module, machines, cached, sym == null ? null : new Symbols(sym));
        }

        /**
         * The .sym file circom writes beside a circuit.wasm ({@code circom --wasm --sym -o out}
         * puts out/NAME.sym beside out/NAME_js/NAME.wasm), or NAME.sym in the wasm's own folder,
         * as its real path (a link the user made is followed here, where the user chose it; the
         * file is then read without following links); null when neither is a file.
         */
        public static Path symbolsBeside(Path wasm) {
            Path file = wasm.getFileName();
            if (file == null) {
                return null;
            }
            String f = file.toString();
            String stem = f.endsWith(".wasm") ? f.substring(0, f.length() - 5) : f;
            Path dir = wasm.toAbsolutePath().getParent();
            if (dir == null) {
                return null;
            }
            Path parent = dir.getParent();
            for (Path sym : parent != null && dir.getFileName().toString().equals(stem + "_js")
                    ? List.of(dir.resolve(stem + ".sym"), parent.resolve(stem + ".sym")) : List.of(dir.resolve(stem + ".sym"))) {
                if (java.nio.file.Files.isRegularFile(sym)) {
                    try {
                        return sym.toRealPath();
                    } catch (IOException e) { // gone meanwhile: as if never there
                        return null;
                    }
                }
            }
            return null;
        }

        /**
         * Parses and compiles a circuit.wasm. The compiled classes are kept on disk with the wasm
         * they were made from, and later loads of the same bytes (in any process of this user)
         * define them from there instead of compiling again, and skip decoding the function bodies
         * they replace (0.29 s instead of 1.2 s for the bundled sample's 1.7 MB, as a command):
         * {@code -Dcuzk.witness.cache=DIR} sets the folder (default
         * {@code $XDG_CACHE_HOME/cuzk/wasm} or {@code ~/.cache/cuzk/wasm}), {@code =none} turns it
         * off.
         */
        public static Circuit load(Path wasm) throws IOException {
            Circuit c = of(wasm.toString(), io.cuzk.groth16.TextFiles.bytes(wasm));
            Path sym = symbolsBeside(wasm);
            return sym == null ? c : c.withSymbols(sym);
        }

        /** Parses and compiles a circuit.wasm's bytes (see {@link #load}); name is for messages. */
        public static Circuit of(String name, byte[] wasm) {
            java.util.Objects.requireNonNull(wasm, () -> name + ": the circuit's bytes are null");
            if (wasm.length < 4 || wasm[0] != 0 || wasm[1] != 'a' || wasm[2] != 's' || wasm[3] != 'm') {
                throw new WitnessException(name + ": not a WebAssembly module (" + (wasm.length == 0 ? "an empty file" : "it does not start "
                        + "with the bytes 00 61 73 6d, \"\\0asm\"") + ")");
            }
            if (wasm.length < 8) {
                throw new WitnessException(name + ": a truncated WebAssembly module (" + wasm.length + " bytes: its header alone has 8)");
            }
            if (Boolean.getBoolean("cuzk.witness.interpret")) {
                return new Circuit(name, parse(name, wasm), null, false, null);
            }
            java.nio.file.Path dir = CompiledCircuits.folder();
            // the module without the compiled bodies is parsed on a second thread (most of a load):
            // its sections but the code while this one reads the cache's entry and defines the
            // classes; then both threads read the bodies the entry leaves to the interpreter, as the
            // parser decoded them, and the code section is made of those (or decoded from the wasm
            // where the entry keeps none)
            java.util.concurrent.CompletableFuture<CompiledCircuits.Keep> keep = new java.util.concurrent.CompletableFuture<>();
            java.util.concurrent.CompletableFuture<WasmModule> shell = new java.util.concurrent.CompletableFuture<>();
            if (dir != null) {
                Thread.ofPlatform().name("cuzk-wasm-shell").daemon().start(() -> {
                    try {
                        shell.complete(CompiledCircuits.shellOf(wasm, keep::join));
                    } catch (Throwable t) {
                        shell.completeExceptionally(t);
                    }
                });
            }
            CompiledCircuits.Entry hit = null;
            java.util.function.Function<Instance, com.dylibso.chicory.runtime.Machine> machines = null;
            try {
                hit = CompiledCircuits.lookup(dir, wasm);
                if (hit != null) {
                    machines = hit.machines();
                }
            } finally {
                // the interpreted functions' bodies are decoded from the entry by this thread and by
                // the shell thread once it has parsed the other sections (null: it stops)
                CompiledCircuits.Keep kept = null;
                try {
                    kept = hit == null ? null : new CompiledCircuits.Keep(hit.interpreted(), hit.bodies());
                } finally {
                    keep.complete(kept);
                }
                if (kept != null && kept.bodies() != null) {
                    kept.bodies().help(); // with the shell thread once it has parsed the other sections
                }
            }
            if (hit != null) {
                java.util.Objects.requireNonNull(JSON); // the calculator's class initialised meanwhile
                WasmModule module = null;
                try {
                    module = shell.join();
                } catch (java.util.concurrent.CompletionException e) {
                    // not expected of bytes that compiled before: the whole parse below says what is wrong
                }
                if (machines != null && module != null) {
                    return new Circuit(name, module, machines, true, null);
                }
            }
            WasmModule module = parse(name, wasm);
            try {
                return new Circuit(name, module, CompiledCircuits.compile(module, wasm, dir), false, null);
            } catch (ChicoryException e) {
                throw new WitnessException(name + ": cannot compile: " + e.getMessage() + " (is it a circuit.wasm of circom 2?)", e);
            }
        }

        private static WasmModule parse(String name, byte[] wasm) {
            try {
                return Parser.parse(wasm);
            } catch (ChicoryException | IllegalArgumentException e) {
                throw new WitnessException(name + ": not a WebAssembly module: " + e.getMessage(), e);
            }
        }

        /** Whether the compiled code was read from the cache of compiled circuits instead of compiled here. */
        public boolean fromCache() {
            return cached;
        }

        /**
         * A calculator of this circuit (one calculation at a time), giving log each line the
         * circuit logs (on the calculating thread; {@code line -> { }} drops them).
         */
        public WitnessCalculator newCalculator(Consumer<String> log) {
            java.util.Objects.requireNonNull(log, "log: the consumer of the circuit's log() lines is null (line -> { } drops them)");
            return new WitnessCalculator(name, module, machines, log, symbols);
        }

        public String name() {
            return name;
        }
    }

    private WitnessCalculator(String name, WasmModule module, java.util.function.Function<Instance, com.dylibso.chicory.runtime.Machine> machines,
            Consumer<String> log, Symbols symbols) {
        this.name = name;
        this.log = log;
        this.symbols = symbols;
        FunctionType i32ToVoid = FunctionType.of(List.of(ValType.I32), List.of());
        FunctionType voidToVoid = FunctionType.of(List.of(), List.of());
        ImportValues imports = ImportValues.builder().addFunction(
                new HostFunction("runtime", "exceptionHandler", i32ToVoid, (inst, args) -> {
                    throw new CircuitError((int) args[0], failure((int) args[0]));
                }),
                new HostFunction("runtime", "printErrorMessage", voidToVoid, (inst, args) -> {
                    errors.append(errors.isEmpty() ? "" : "; ").append(message());
                    return null;
                }),
                new HostFunction("runtime", "writeBufferMessage", voidToVoid, (inst, args) -> {
                    requireStarted("log()");
                    String m = message();
                    if (m.equals("\n")) { // a log() call ends with a new line
                        String done = line.toString();
                        line.setLength(0);
                        try {
                            this.log.accept(done);
                        } catch (RuntimeException e) { // the consumer's, not the circuit's: call() and run() hand it on as it was
                            consumerFailure = e;
                            throw new LogFailure(e);
                        }
                    } else if (line.length() < MAX_LOG_LINE) { // a line that never ends stays bounded
                        line.append(line.isEmpty() ? "" : " ").append(m);
                    }
                    return null;
                }),
                new HostFunction("runtime", "showSharedRWMemory", voidToVoid, (inst, args) -> {
                    // a value log() prints: the shared memory's number, in decimal as circom's runtime prints it
                    requireStarted("log()");
                    if (line.length() < MAX_LOG_LINE) {
                        line.append(line.isEmpty() ? "" : " ").append(readNumber());
                    }
                    return null;
                })).build();
        try {
            Instance.Builder b = Instance.builder(module).withImportValues(imports);
            if (machines != null) {
                b.withMachineFactory(machines);
            }
            this.instance = b.build();
        } catch (ChicoryException e) {
            throw new WitnessException(name + ": cannot instantiate: " + e.getMessage() + " (is it a circuit.wasm of circom 2?)", e);
        }
        this.init = export("init");
        this.getInputSignalSize = export("getInputSignalSize");
        this.setInputSignal = export("setInputSignal");
        this.writeShared = export("writeSharedRWMemory");
        this.getWitness = export("getWitness");
        this.getInputSize = export("getInputSize");
        this.getMessageChar = export("getMessageChar");
        this.getRawPrime = export("getRawPrime");
        int version = (int) call(export("getVersion"));
        if (version < 2) {
            throw new WitnessException(name + ": a circuit of circom " + version + ": only circom 2 circuits are supported");
        }
        this.n32 = (int) call(export("getFieldNumLen32"));
        if (n32 < 1 || n32 > 64) {
            throw new WitnessException(name + ": a field element of " + n32 + " 32-bit words: not a circom circuit");
        }
        this.sharedStart = (int) call(export("getSharedRWMemoryStart"));
        call(getRawPrime);
        this.prime = readNumber();
        this.witnessSize = (int) call(export("getWitnessSize"));
    }

    /** The longest log() line kept (the rest of a longer one is dropped). */
    private static final int MAX_LOG_LINE = 1 << 16;

    /**
     * A circuit's call back into the runtime before the calculator has read the module's shape
     * (from a start function: no circom circuit has one) is refused rather than read unset state.
     */
    private void requireStarted(String what) {
        if (instance == null || n32 == 0) {
            throw new WitnessException(name + ": " + what + " while the module starts: not a circuit.wasm of circom 2");
        }
    }

    /** The calculator of a circuit.wasm; the circuit's log() lines are dropped. */
    public static WitnessCalculator load(Path wasm) throws IOException {
        return load(wasm, line -> { });
    }

    /** The calculator of a circuit.wasm, giving log each line the circuit logs. */
    public static WitnessCalculator load(Path wasm, Consumer<String> log) throws IOException {
        return Circuit.load(wasm).newCalculator(log);
    }

    /** The calculator of a circuit.wasm's bytes; name is for messages. */
    public static WitnessCalculator of(String name, byte[] wasm, Consumer<String> log) {
        return Circuit.of(name, wasm).newCalculator(log);
    }

    private ExportFunction export(String function) {
        try {
            return instance.export(function);
        } catch (ChicoryException | IllegalArgumentException e) {
            throw new WitnessException(name + ": no export " + function + ": not a circuit.wasm of circom 2", e);
        }
    }

    /** The circuit's prime (the scalar field of its curve). */
    public BigInteger prime() {
        return prime;
    }

    /** Signals in the witness (one, the constant, first). */
    public int witnessSize() {
        return witnessSize;
    }

    /**
     * The most bytes an input.json of this circuit can need: each of its input values written with
     * the most characters cuzk reads (4096), with 256 bytes for its name and JSON's
     * punctuation, and 64 KiB of spacing. Reading input.json takes tens of times its size in heap
     * (its text, its tree, the values), so a service that takes it from others refuses a longer one
     * before reading it.
     */
    public synchronized long maxInputJsonBytes() {
        return 65536 + call(getInputSize) * (MAX_DIGITS + 256L);
    }

    /**
     * Parses input.json as snarkjs does (each value through JavaScript's BigInt, then mod p):
     * arrays flattened; strings in BigInt's syntax (decimal with an optional sign, 0x, 0o or 0b
     * digits, blanks around, an empty string for 0); numbers as JavaScript reads them, so an
     * integer beyond 2^53 written without quotes is rounded to a double first, exactly as snarkjs
     * rounds it (quote it to keep every digit), and 3e2 is 300; true and false 1 and 0. Messages
     * name the signal (a scalar by its name, an array's values by their flat index); the caller
     * names the file.
     */
    public Map<String, List<BigInteger>> parseInputs(String inputJson) {
        return parseInputs(readInput(inputJson));
    }

    /**
     * An input.json read as JSON, its values not yet taken as field elements (that needs the
     * circuit's prime): {@link #readInput}, then {@link #parseInputs(Input)} or {@link #wtns(Input)}
     * of any circuit. A command reads its input while the circuit loads.
     */
    public static final class Input {
        private final JsonNode root;

        private Input(JsonNode root) {
            this.root = root;
        }
    }

    /**
     * input.json read as JSON: one object (the messages of {@link #parseInputs(String)} for what is
     * not, without naming the file).
     */
    public static Input readInput(String inputJson) {
        java.util.Objects.requireNonNull(inputJson, "inputJson");
        JsonNode root;
        try (com.fasterxml.jackson.core.JsonParser p = JSON.createParser(inputJson)) {
            root = JSON.readTree(p);
            if (p.nextToken() != null) { // JSON.parse refuses anything after the value but blanks, as snarkjs does
                throw new WitnessException("not JSON (more after the input object, at line " + p.currentLocation().getLineNr() + ")");
            }
        } catch (com.fasterxml.jackson.core.exc.StreamConstraintsException e) {
            if (e.getOriginalMessage().contains("nesting depth")) { // JSON, but deeper than any circuit's input
                throw new WitnessException("nested deeper than 1000 levels: cuzk reads at most 1000");
            }
            if (e.getOriginalMessage().contains("Number value length")) { // JSON.parse makes it Infinity, which BigInt refuses
                throw new WitnessException("a number written with more than " + MAX_DIGITS + " characters" + (e.getLocation() == null
                        || e.getLocation().getLineNr() < 1 ? "" : " at line " + e.getLocation().getLineNr()) + ": cuzk reads at most "
                        + MAX_DIGITS + " (quote a long value)");
            }
            if (e.getOriginalMessage().contains("Name length")) { // JSON, but a name no circuit has
                throw new WitnessException("a signal name longer than " + com.fasterxml.jackson.core.StreamReadConstraints.DEFAULT_MAX_NAME_LEN
                        + " characters: no circuit has one");
            }
            throw new WitnessException("not read: " + notJson(e));
        } catch (JsonProcessingException e) {
            throw new WitnessException("not JSON (" + notJson(e) + ")");
        } catch (java.io.IOException e) { // reading a String
            throw new java.io.UncheckedIOException(e);
        }
        if (root == null || !root.isObject()) {
            throw new WitnessException("expected a JSON object of input signals");
        }
        return new Input(root);
    }

    /** The values of an input read by {@link #readInput}, as {@link #parseInputs(String)} takes them. */
    public Map<String, List<BigInteger>> parseInputs(Input input) {
        java.util.Objects.requireNonNull(input, "input: null (WitnessCalculator.readInput reads one)");
        Map<String, List<BigInteger>> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : input.root.properties()) {
            List<BigInteger> values = new ArrayList<>();
            if (e.getValue().isArray()) {
                flatten(e.getKey(), e.getValue(), values);
            } else {
                values.add(value(e.getKey(), e.getValue()));
            }
            out.put(e.getKey(), values);
        }
        return out;
    }

    /**
     * Jackson's reason without its class names, and the line where it has one (a document past a
     * reading limit, nested deeper than 1,000 or a number too long, has none).
     */
    private static String notJson(JsonProcessingException e) {
        // the input's own bytes appear in Jackson's words ("Unrecognized token 'wtns...'"): no control characters
        String why = e.getOriginalMessage().replaceAll(", from `[A-Za-z.()]+`", "")
                .replace("Source: REDACTED (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled); ", "") // Jackson's, not the input's
                .replaceAll("\\p{Cntrl}", "?");
        return e.getLocation() == null || e.getLocation().getLineNr() < 1 ? why : why + " at line " + e.getLocation().getLineNr();
    }

    private void flatten(String signal, JsonNode n, List<BigInteger> out) {
        if (n.isArray()) {
            for (JsonNode c : n) {
                flatten(signal, c, out);
            }
            return;
        }
        out.add(value(signal + "[" + out.size() + "]", n));
    }

    /** One value, named where for messages, in [0, p). */
    private BigInteger value(String where, JsonNode n) {
        BigInteger v;
        if (n.isNumber()) {
            // JSON.parse makes every number a double; BigInt takes it when it is an integer
            double d = Double.parseDouble(n.asText());
            if (!Double.isFinite(d) || d != Math.rint(d)) {
                throw new WitnessException("input signal " + where + ": " + abbreviate(n.asText()) + " is not an integer");
            }
            v = new java.math.BigDecimal(d).toBigIntegerExact();
        } else if (n.isTextual()) {
            if (n.asText().strip().length() > MAX_DIGITS) {
                throw new WitnessException("input signal " + where + ": a value of " + n.asText().strip().length() + " characters (at most "
                        + MAX_DIGITS + " are read)");
            }
            v = bigInt(n.asText());
            if (v == null) {
                throw new WitnessException("input signal " + where + ": \"" + abbreviate(n.asText())
                        + "\" is not an integer (decimal, or 0x, 0o or 0b and digits)");
            }
        } else if (n.isBoolean()) {
            v = n.asBoolean() ? BigInteger.ONE : BigInteger.ZERO;
        } else {
            throw new WitnessException("input signal " + where + ": " + abbreviate(n.toString()) + " is not an integer");
        }
        return v.mod(prime);
    }

    /** The most characters a string value may have (BigInt takes any; a witness's values have at most 78 digits). */
    private static final int MAX_DIGITS = 4096;

    /**
     * JavaScript's BigInt(s) of a string (StringToBigInt): blanks around it dropped, an empty string
     * 0, else decimal digits with an optional sign, or 0x, 0o or 0b (either case) and digits
     * without one; null where BigInt throws a SyntaxError.
     */
    static BigInteger bigInt(String s) {
        int from = 0, to = s.length();
        while (from < to && jsBlank(s.charAt(from))) {
            from++;
        }
        while (to > from && jsBlank(s.charAt(to - 1))) {
            to--;
        }
        String t = s.substring(from, to);
        if (t.isEmpty()) {
            return BigInteger.ZERO;
        }
        if (t.length() > MAX_DIGITS) {
            return null;
        }
        int radix = 10;
        String digits = t;
        if (t.length() > 2 && t.charAt(0) == '0') {
            radix = switch (t.charAt(1)) {
                case 'x', 'X' -> 16;
                case 'o', 'O' -> 8;
                case 'b', 'B' -> 2;
                default -> 10;
            };
            if (radix != 10) {
                digits = t.substring(2);
            }
        }
        boolean negative = false;
        if (radix == 10 && (t.charAt(0) == '+' || t.charAt(0) == '-')) {
            negative = t.charAt(0) == '-';
            digits = t.substring(1);
        }
        if (digits.isEmpty()) {
            return null;
        }
        for (int i = 0; i < digits.length(); i++) {
            char ch = digits.charAt(i);
            if (ch > 'z' || Character.digit(ch, radix) < 0) { // ASCII digits only
                return null;
            }
        }
        BigInteger v = new BigInteger(digits, radix);
        return negative ? v.negate() : v;
    }

    /** JavaScript's white space and line terminators (what StringToBigInt trims). */
    private static boolean jsBlank(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\u000B' || c == '\f' || c == '\u00A0' || c == '\uFEFF'
                || c == '\u2028' || c == '\u2029' || Character.getType(c) == Character.SPACE_SEPARATOR;
    }

    private static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 37) + "..." : s;
    }

    /** The witness of the inputs: every signal's value in [0, p), the constant one first. */
    public synchronized List<BigInteger> calculate(Map<String, List<BigInteger>> inputs) {
        run(inputs);
        List<BigInteger> out = new ArrayList<>(witnessSize);
        for (int i = 0; i < witnessSize; i++) {
            call(getWitness, i);
            out.add(readNumber());
        }
        return out;
    }

    /** input.json to .wtns, the bytes {@code snarkjs wtns calculate} writes. */
    public byte[] wtns(String inputJson) {
        return wtns(parseInputs(inputJson));
    }

    /** {@link #wtns(String)} of an input already read. */
    public byte[] wtns(Input input) {
        return wtns(parseInputs(input));
    }

    /** The witness of the inputs as a .wtns file (version 2: the prime, then the values little-endian). */
    public synchronized byte[] wtns(Map<String, List<BigInteger>> inputs) {
        int n8 = 4 * n32;
        long bytes = wtnsBytes(n8, witnessSize);
        if (witnessSize < 1 || bytes > Integer.MAX_VALUE - 8) { // the most one Java array holds
            throw new WitnessException(name + ": a witness of " + witnessSize + " signals of " + n8 + " bytes: more than one .wtns buffer "
                    + "holds (2 GiB)");
        }
        run(inputs);
        ByteBuffer b = ByteBuffer.allocate((int) bytes).order(ByteOrder.LITTLE_ENDIAN);
        b.put(new byte[] {'w', 't', 'n', 's'}).putInt(2).putInt(2);
        b.putInt(1).putLong(8 + n8).putInt(n8);
        putNumber(b, prime);
        b.putInt(witnessSize);
        b.putInt(2).putLong((long) n8 * witnessSize);
        com.dylibso.chicory.runtime.Memory memory = instance.memory();
        for (int i = 0; i < witnessSize; i++) {
            call(getWitness, i); // into the shared memory: its n32 words, little-endian, read as they lie
            b.put(memory.readBytes(sharedStart, n8));
        }
        return b.array();
    }

    /**
     * The size of a .wtns (version 2, as snarkjs writes it) of this many values of n8 bytes: its
     * header, the prime's section, the values' section.
     */
    public static long wtnsBytes(int n8, long values) {
        return 4 + 4 + 4 + (4 + 8 + 4 + n8 + 4) + (4 + 8) + values * n8;
    }

    private void putNumber(ByteBuffer b, BigInteger v) {
        byte[] be = v.toByteArray();
        for (int j = 0; j < 4 * n32; j++) {
            int k = be.length - 1 - j;
            b.put(k >= 0 ? be[k] : 0);
        }
    }

    private void run(Map<String, List<BigInteger>> inputs) {
        java.util.Objects.requireNonNull(inputs, "inputs");
        for (Map.Entry<String, List<BigInteger>> e : inputs.entrySet()) { // before the circuit runs: a caller's mistake, not the input's
            java.util.Objects.requireNonNull(e.getKey(), "an input signal's name is null");
            java.util.Objects.requireNonNull(e.getValue(), () -> "input signal " + e.getKey() + ": its list of values is null");
            int i = 0;
            for (BigInteger v : e.getValue()) {
                if (v == null) {
                    throw new NullPointerException("input signal " + e.getKey() + ": value " + i + " is null");
                }
                i++;
            }
        }
        errors.setLength(0);
        line.setLength(0);
        consumerFailure = null;
        call(init, 0);
        long set = 0;
        for (Map.Entry<String, List<BigInteger>> e : inputs.entrySet()) {
            String signal = e.getKey();
            long h = fnv1a(signal);
            long msb = h >>> 32, lsb = h & 0xffffffffL;
            int size = (int) call(getInputSignalSize, msb, lsb);
            if (size <= 0 && e.getValue().isEmpty()) { // no values for a name the circuit does not know: nothing to set, as snarkjs
                continue;
            }
            if (size <= 0) { // circom answers 0 or less for a name it does not know
                throw new WitnessException("input signal " + signal + ": the circuit has no input signal of that name");
            }
            List<BigInteger> values = e.getValue();
            if (values.size() != size) {
                throw new WitnessException("input signal " + signal + ": " + values.size() + " value" + (values.size() == 1 ? "" : "s")
                        + " given, the circuit takes " + size);
            }
            for (int i = 0; i < values.size(); i++) {
                BigInteger v = values.get(i).mod(prime);
                for (int j = 0; j < n32; j++) {
                    call(writeShared, j, v.shiftRight(32 * j).longValue() & 0xffffffffL);
                }
                try {
                    call(setInputSignal, msb, lsb, i);
                } catch (WitnessException x) {
                    if (ranCircuit(x) || x == consumerFailure) {
                        // the circuit runs once its last input is set: its failure (an assertion)
                        // is the inputs' as a whole, not this signal's
                        throw x;
                    }
                    throw new WitnessException("input signal " + (size == 1 ? signal : signal + "[" + i + "]")
                            + ": " + x.getMessage(), x);
                }
                set++;
            }
        }
        long expected = call(getInputSize);
        if (set < expected) {
            String counted = set + " of the circuit's " + expected + " input values given";
            List<String> missing = new ArrayList<>();
            String unread = null;
            if (symbols != null) {
                List<String> main = List.of();
                try {
                    main = symbols.mainSignals();
                } catch (IOException e) { // the symbols cannot name it: counted, and said why
                    unread = e.getMessage();
                }
                for (String signal : main) { // the circuit's answers outside the try: an interrupt stays a cancellation
                    long h = fnv1a(signal);
                    if (!inputs.containsKey(signal) && call(getInputSignalSize, h >>> 32, h & 0xffffffffL) > 0) {
                        missing.add(signal);
                    }
                }
            }
            if (!missing.isEmpty()) {
                throw new WitnessException("input signal" + (missing.size() == 1 ? " " : "s ") + String.join(", ", missing)
                        + (missing.size() == 1 ? " is" : " are") + " missing from the input (" + counted + ")");
            }
            throw new WitnessException("only " + counted.replace(" given", " were given") + ": an input signal is missing from the input"
                    + (unread != null ? " (" + unread + ")" : symbols == null
                            ? " (circom's --sym output beside the circuit, its name with .sym for .wasm, would name it)" : ""));
        }
    }

    /**
     * circom's .sym file of a circuit (lines "label,witness index,component,main.name[i]"): the
     * names of the main component's own signals, arrays by their names, in the file's order, read
     * once when first asked for. Those of them that the circuit takes as inputs are its input signals.
     */
    static final class Symbols {
        private final Path file;
        private List<String> main;
        /** Why the file could not be read, once tried (not tried again: each input left out would read it). */
        private String unreadable;

        Symbols(Path file) {
            this.file = file;
        }

        /**
         * The names, read on the first call. The file is opened without following a link, and
         * only when it is a regular file (a FIFO would block the calculation); a failure says
         * what went wrong with the file's name only (a daemon's paths are its own).
         */
        synchronized List<String> mainSignals() throws IOException {
            if (unreadable != null) {
                throw new IOException(unreadable);
            }
            if (main == null) {
                try {
                    main = read();
                } catch (IOException | RuntimeException e) {
                    unreadable = file.getFileName() + " cannot be read (" + e.getClass().getSimpleName() + ")";
                    throw new IOException(unreadable, e);
                }
            }
            return main;
        }

        private List<String> read() throws IOException {
            var a = java.nio.file.Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class,
                    java.nio.file.LinkOption.NOFOLLOW_LINKS);
            if (!a.isRegularFile()) {
                throw new java.nio.file.FileSystemException(file.getFileName() + ": not a regular file");
            }
            java.util.Set<String> names = new java.util.LinkedHashSet<>();
            try (java.io.BufferedReader r = new java.io.BufferedReader(java.nio.channels.Channels.newReader(
                    java.nio.file.Files.newByteChannel(file, java.nio.file.StandardOpenOption.READ, java.nio.file.LinkOption.NOFOLLOW_LINKS),
                    java.nio.charset.StandardCharsets.UTF_8))) {
                for (String l = r.readLine(); l != null; l = r.readLine()) {
                    int at = l.lastIndexOf(",main.");
                    if (at < 0) {
                        continue;
                    }
                    String signal = l.substring(at + 6);
                    int bracket = signal.indexOf('[');
                    if (bracket >= 0) {
                        signal = signal.substring(0, bracket);
                    }
                    if (!signal.isEmpty() && signal.indexOf('.') < 0 && names.size() < MAX_MAIN_SIGNALS) { // a subcomponent's have dots
                        names.add(signal);
                    }
                }
            }
            return List.copyOf(names);
        }
    }

    /** The most names of the main component's signals kept from a .sym file. */
    private static final int MAX_MAIN_SIGNALS = 1 << 16;

    /** One call into the circuit; a failure of the circuit becomes one clear line. */
    private long call(ExportFunction f, long... args) {
        try {
            long[] r = f.apply(args);
            return r == null || r.length == 0 ? 0 : r[0];
        } catch (RuntimeException e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof LogFailure l) {
                    throw (RuntimeException) l.getCause();
                }
                if (t instanceof com.dylibso.chicory.runtime.ChicoryInterruptedException) {
                    throw cancelled(e);
                }
                if (t instanceof CircuitError c) {
                    throw new WitnessException(c.getMessage(), e);
                }
                if (t instanceof WitnessException w) {
                    throw w;
                }
            }
            throw new WitnessException(name + ": the circuit trapped: " + e.getMessage(), e);
        } catch (StackOverflowError e) { // the circuit's calls nested past the thread's stack: its own, as a trap is
            throw new WitnessException(name + ": the circuit's calls nested deeper than the thread's stack holds", e);
        }
    }

    /** The number in the shared memory (n32 words, little-endian), read where it lies. */
    private BigInteger readNumber() {
        byte[] le = instance.memory().readBytes(sharedStart, 4 * n32);
        byte[] be = new byte[le.length + 1]; // a leading zero: non-negative
        for (int i = 0; i < le.length; i++) {
            be[le.length - i] = le[i];
        }
        return new BigInteger(be);
    }

    private String message() {
        ByteArrayOutputStream s = new ByteArrayOutputStream();
        for (int i = 0; i < 4096; i++) {
            int c = (int) getMessageChar.apply()[0];
            if (c == 0) {
                break;
            }
            s.write(c);
        }
        return s.toString(java.nio.charset.StandardCharsets.UTF_8);
    }

    private String failure(int code) {
        String what = switch (code) {
            case 1 -> "signal not found";
            case 2 -> "too many signals set";
            case 3 -> "signal already set";
            case 4 -> "an assertion of the circuit failed";
            case 5 -> "the circuit ran out of memory";
            case 6 -> "an input signal array was read past its end";
            case 7 -> "an array was read out of its bounds";
            default -> "unknown error " + code;
        };
        return what + (errors.isEmpty() ? "" : " (" + errors + ")");
    }

    /** circom's 64-bit FNV-1a hash of a signal name, over its UTF-16 code units as JavaScript's charCodeAt gives them. */
    static long fnv1a(String s) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < s.length(); i++) {
            h ^= s.charAt(i);
            h *= 0x100000001b3L;
        }
        return h;
    }

    /**
     * Whether x is the circuit's own failure while it computed (an assertion, memory, an array's
     * bounds: circom's codes 4 to 7) rather than about setting an input (codes 1 to 3).
     */
    private static boolean ranCircuit(WitnessException x) {
        for (Throwable t = x.getCause(); t != null; t = t.getCause()) {
            if (t instanceof CircuitError c) {
                return c.code >= 4;
            }
        }
        return false;
    }

    /** The calculation stopped by an interrupt of its thread (Chicory checks the flag and leaves it set). */
    private java.util.concurrent.CancellationException cancelled(Throwable cause) {
        var c = new java.util.concurrent.CancellationException(name + ": the witness calculation was interrupted");
        c.initCause(cause);
        return c;
    }

    /** What the log consumer threw, carried through the circuit's code to call(). */
    private static final class LogFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        LogFailure(RuntimeException cause) {
            super(null, cause, false, false);
        }
    }

    /** Thrown by the exceptionHandler import across the WebAssembly frames. */
    private static final class CircuitError extends RuntimeException {
        private static final long serialVersionUID = 1L;

        final int code;

        CircuitError(int code, String message) {
            super(message, null, false, false);
            this.code = code;
        }
    }
}
