package io.cuzk.witness;

import com.dylibso.chicory.compiler.InterpreterFallback;
import com.dylibso.chicory.compiler.internal.Compiler;
import com.dylibso.chicory.compiler.internal.CompilerResult;
import com.dylibso.chicory.runtime.Instance;
import com.dylibso.chicory.runtime.Machine;
import com.dylibso.chicory.wasm.Parser;
import com.dylibso.chicory.wasm.WasmModule;
import com.dylibso.chicory.wasm.types.CodeSection;
import com.dylibso.chicory.wasm.types.DataCountSection;
import com.dylibso.chicory.wasm.types.DataSection;
import com.dylibso.chicory.wasm.types.ElementSection;
import com.dylibso.chicory.wasm.types.ExportSection;
import com.dylibso.chicory.wasm.types.ExternalType;
import com.dylibso.chicory.wasm.types.FunctionBody;
import com.dylibso.chicory.wasm.types.FunctionSection;
import com.dylibso.chicory.wasm.types.GlobalSection;
import com.dylibso.chicory.wasm.types.ImportSection;
import com.dylibso.chicory.wasm.types.MemorySection;
import com.dylibso.chicory.wasm.types.SectionId;
import com.dylibso.chicory.wasm.types.StartSection;
import com.dylibso.chicory.wasm.types.TableSection;
import com.dylibso.chicory.wasm.types.TagSection;
import com.dylibso.chicory.wasm.types.TypeSection;
import io.cuzk.internal.TrustedDirectory;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.zip.CRC32C;

/**
 * circuit.wasm files compiled to JVM bytecode, kept on disk across processes. Chicory compiles a
 * megabyte of circom's wasm in about a second, while loading the classes it made takes a tenth of
 * that, and a circuit's witnesses are calculated many times over (one circuit, many inputs), so the
 * classes of each circuit are written once to a cache and defined from there in later processes.
 *
 * <p>An entry is named by a CRC-32C and the length of the wasm and by the Chicory compiler's version
 * (classes made by one version are never run on another's runtime). It holds the wasm itself,
 * compared byte for byte with the one being loaded (so two wasm files whose checksums agree never
 * share classes), the classes' names and bytes, the functions left to the interpreter with their
 * bodies as Chicory's parser decodes them ({@link Bodies}: read back instead of decoded again),
 * and ends with a CRC-32C of all that, so a truncated or damaged entry is compiled again, never
 * loaded (a checksum, not a digest: the JDK's SHA-256 runs uncompiled at a command's start, 50 ms for 2 MB,
 * while CRC-32C is an intrinsic from the first call; no one but the owner may write an entry).
 * Entries are written to a temporary file and renamed into place, so a reader never sees half of
 * one. The folder: {@code -Dcuzk.witness.cache=DIR}, else {@code $XDG_CACHE_HOME/cuzk/wasm}, else
 * {@code ~/.cache/cuzk/wasm}; {@code -Dcuzk.witness.cache=none} turns the cache off. It is made
 * owner-only, and one that another user could write into or replace (its classes would run in
 * this process) is not used, nor is an entry another user owns or may write: the circuit is then
 * compiled in memory, as without a cache.
 *
 * <p>The cache is bounded: an entry's file is touched each time it is used, and when a new entry
 * is written and the entries take more than {@code -Dcuzk.witness.cache.maxBytes} (default 1 GiB),
 * those used longest ago are removed until they fit (the new one is always kept); temporary files
 * an interrupted writer left behind go after an hour. A circuit being developed, compiled again at
 * each change, thus does not fill the disk with its old versions.
 */
final class CompiledCircuits {
    private CompiledCircuits() {}

    /** The cache's property: a folder, or "none". */
    static final String PROPERTY = "cuzk.witness.cache";

    /** Bumped when the entry's layout changes. */
    private static final int FORMAT = 3;
    private static final int MAGIC = 0x43_5A_57_43; // "CZWC"
    /** The class the compiler names the machine (it has a constructor taking the Instance). */
    private static final String MACHINE_CLASS = "io.cuzk.witness.compiled.CircuitMachine";
    /** The package of the compiled classes (the machine's name is their prefix). */
    private static final String PACKAGE = "io.cuzk.witness.compiled.";
    /** An entry bigger than this is not a cache entry of ours (poseidon's: its 1.7 MB of wasm and 0.7 MB of classes). */
    private static final long MAX_ENTRY_BYTES = 1L << 30;
    /** The property bounding the bytes of all entries. */
    static final String MAX_BYTES_PROPERTY = "cuzk.witness.cache.maxBytes";
    static final long DEFAULT_MAX_BYTES = 1L << 30;
    /** How old a temporary file must be to count as left behind by a writer that died. */
    private static final long ABANDONED_MILLIS = 3_600_000;

    /** A cache entry: the compiled classes, and the functions they leave to the interpreter. */
    static final class Entry {
        private final Map<String, byte[]> classes;
        private final Set<Integer> interpreted;
        /** The entry's bytes, and where in them the interpreted functions' decoded bodies lie (empty: none kept). */
        private final byte[] all;
        private final int bodiesFrom, bodiesTo;
        private Function<Instance, Machine> machines;
        private boolean defined;

        private Entry(Map<String, byte[]> classes, Set<Integer> interpreted, byte[] all, int bodiesFrom, int bodiesTo) {
            this.classes = classes;
            this.interpreted = Set.copyOf(interpreted);
            this.all = all;
            this.bodiesFrom = bodiesFrom;
            this.bodiesTo = bodiesTo;
        }

        /** The functions whose bodies the interpreter runs (too large for a JVM method). */
        Set<Integer> interpreted() {
            return interpreted;
        }

        /**
         * The interpreted functions' bodies as the parser decoded them when the circuit was
         * compiled, by function index; null when the entry has none (a body of a kind it does not
         * keep) or they do not read back: the shell then decodes them from the wasm.
         */
        Bodies.Decoding bodies() {
            return bodiesFrom == bodiesTo ? null : Bodies.decoding(all, bodiesFrom, bodiesTo, interpreted);
        }

        /**
         * The machines of the classes, defined on the first call; null when they do not link (classes
         * of another compiler, or damage the checksum let through): then the circuit is compiled.
         */
        synchronized Function<Instance, Machine> machines() {
            if (!defined) {
                defined = true;
                machines = define(classes);
            }
            return machines;
        }
    }

    /** The entry of this wasm in dir (null: no cache), or null when there is none that may be used. */
    static Entry lookup(Path dir, byte[] wasm) {
        if (dir == null || !usable(dir)) {
            return null;
        }
        Path file = dir.resolve(key(wasm));
        Entry e = read(file, wasm);
        if (e != null) {
            TrustedDirectory.markUsed(file); // used now: the last entry pruning would remove
        }
        return e;
    }

    /** The bound of the entries' bytes: the property's value, or the default when it is unset or not a number of bytes. */
    static long maxBytes() {
        String v = System.getProperty(MAX_BYTES_PROPERTY);
        if (v == null) {
            return DEFAULT_MAX_BYTES;
        }
        try {
            long b = Long.parseLong(v.strip());
            if (b >= 0) {
                return b;
            }
        } catch (NumberFormatException ignored) {
            // said below
        }
        System.getLogger("io.cuzk.witness").log(System.Logger.Level.WARNING, "-D" + MAX_BYTES_PROPERTY + "=" + v
                + " is not a number of bytes: the cache of compiled circuits keeps up to " + DEFAULT_MAX_BYTES + " bytes");
        return DEFAULT_MAX_BYTES;
    }

    /**
     * Removes the entries used longest ago (by their files' times, touched on use) until the rest
     * take at most maxBytes, never keep (the entry just written), and temporary files older than
     * an hour. Only regular files with the cache's names are looked at; what cannot be read or
     * removed is left (another process may be removing it too).
     */
    static void prune(Path dir, Path keep, long maxBytes) {
        record Found(Path path, long bytes, long used) {}
        List<Found> entries = new ArrayList<>();
        long total = 0, now = System.currentTimeMillis();
        try (java.nio.file.DirectoryStream<Path> files = java.nio.file.Files.newDirectoryStream(dir)) {
            for (Path f : files) {
                String name = f.getFileName().toString();
                boolean part = TrustedDirectory.isPartOf(name, ".classes");
                if (!part && !name.endsWith(".classes")) {
                    continue;
                }
                java.nio.file.attribute.BasicFileAttributes a;
                try {
                    a = java.nio.file.Files.readAttributes(f, java.nio.file.attribute.BasicFileAttributes.class,
                            java.nio.file.LinkOption.NOFOLLOW_LINKS);
                } catch (IOException e) {
                    continue;
                }
                if (!a.isRegularFile()) {
                    continue;
                }
                if (part) {
                    if (now - a.lastModifiedTime().toMillis() > ABANDONED_MILLIS) {
                        deleteQuietly(f);
                    }
                    continue;
                }
                entries.add(new Found(f, a.size(), a.lastModifiedTime().toMillis()));
                total += a.size();
            }
        } catch (IOException | RuntimeException e) {
            return; // a folder that cannot be listed is not pruned: the cache is a saving, not a duty
        }
        entries.sort(java.util.Comparator.comparingLong(Found::used));
        for (Found f : entries) {
            if (total <= maxBytes) {
                break;
            }
            if (!f.path().equals(keep) && deleteQuietly(f.path())) {
                total -= f.bytes();
            }
        }
    }

    private static boolean deleteQuietly(Path f) {
        try {
            return java.nio.file.Files.deleteIfExists(f);
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * Compiles a module (parsed and validated from wasm) and writes its classes to the cache in dir
     * (null: none); returns its machines.
     */
    static Function<Instance, Machine> compile(WasmModule module, byte[] wasm, Path dir) {
        return compile(module, wasm, dir, Set.of());
    }

    /** {@link #compile(WasmModule, byte[], Path)} leaving interpret to the interpreter too (for tests: small functions compile). */
    static Function<Instance, Machine> compile(WasmModule module, byte[] wasm, Path dir, Set<Integer> interpret) {
        Compiler.Builder builder = Compiler.builder(module).withClassName(MACHINE_CLASS);
        if (interpret.isEmpty()) {
            builder.withInterpreterFallback(InterpreterFallback.SILENT); // those too large for a JVM method
        } else {
            builder.withInterpretedFunctions(interpret).withInterpreterFallback(InterpreterFallback.FAIL); // as Chicory requires
        }
        CompilerResult compiled = builder.build().compile();
        if (dir != null) {
            Set<Integer> interpreted = compiled.interpretedFunctions();
            write(dir, wasm, compiled.classBytes(), interpreted, Bodies.encode(module, interpreted));
        }
        return compiled.machineFactory();
    }

    /**
     * The module of a wasm whose compiled classes run all its functions but the interpreted ones:
     * every section but the custom ones, with the bodies of the compiled functions left out (each
     * an empty body, never run), parsed without validating the bodies. Decoding and validating a
     * megabyte of function bodies is most of a parse (0.3 s of 0.4 for the tests' poseidon
     * circuit); the instance needs the bodies of the interpreted functions only, and the module's
     * types, imports, exports, memory, tables, globals and data. Its bytes were validated when they
     * were compiled. A malformed wasm is an {@link IllegalArgumentException} or a ChicoryException.
     */
    static WasmModule shell(byte[] wasm, Set<Integer> interpreted) {
        return shellOf(wasm, () -> new Keep(interpreted, null));
    }

    /**
     * The functions whose bodies a shell keeps, and those bodies already decoded (from the cache's
     * entry, by function index), or null: decoded from the wasm.
     */
    record Keep(Set<Integer> interpreted, Bodies.Decoding bodies) {}

    /**
     * {@link #shell(byte[], Set)} with the functions to keep known later: the sections before and
     * after the code are parsed first, then interpreted is asked for them (it may wait: the cache's
     * entry is read meanwhile), and the code section is made of the bodies it gives already decoded
     * and empty ones, without decoding any of its bytes but the count of its functions, or else
     * parsed from the wasm; null when it gives null (no entry: the shell is not needed).
     */
    static WasmModule shellOf(byte[] wasm, java.util.function.Supplier<Keep> interpreted) {
        if (wasm.length < 8 || wasm[0] != 0 || wasm[1] != 'a' || wasm[2] != 's' || wasm[3] != 'm') {
            throw new IllegalArgumentException("not a WebAssembly module");
        }
        ByteArrayOutputStream rest = new ByteArrayOutputStream(wasm.length);
        rest.write(wasm, 0, 8);
        int codeAt = -1, codeEnd = -1;
        int[] at = {8};
        while (at[0] < wasm.length) {
            int start = at[0];
            int id = wasm[at[0]++] & 0xff;
            int size = (int) leb(wasm, at);
            int payload = at[0];
            if (size < 0 || size > wasm.length - payload) {
                throw new IllegalArgumentException("section " + id + " runs past the end");
            }
            at[0] = payload + size;
            if (id == SectionId.CODE) {
                codeAt = payload;
                codeEnd = at[0];
            } else if (id != SectionId.CUSTOM) {
                rest.write(wasm, start, at[0] - start);
            }
        }
        WasmModule.Builder module = WasmModule.builder().withValidation(false);
        int[] importedFunctions = {0};
        parseInto(rest.toByteArray(), module, importedFunctions);
        Keep kept = interpreted.get();
        if (kept == null) {
            return null;
        }
        Set<Integer> keep = kept.interpreted();
        Bodies.Decoded decoded = kept.bodies() == null ? null : kept.bodies().result(); // helping the thread that decodes them
        if (codeAt >= 0 && decoded != null && decoded.bodies().keySet().equals(keep)) {
            int[] c = {codeAt};
            long count = leb(wasm, c);
            CodeSection.Builder code = CodeSection.builder();
            for (long f = 0; f < count; f++) {
                FunctionBody body = decoded.bodies().get((int) (importedFunctions[0] + f));
                code.addFunctionBody(body != null ? body : Bodies.EMPTY);
            }
            module.setCodeSection(code.setRequiresDataCount(decoded.requiresDataCount()).build());
        } else if (codeAt >= 0) {
            ByteArrayOutputStream code = new ByteArrayOutputStream();
            int[] c = {codeAt};
            long count = leb(wasm, c);
            writeLeb(code, count);
            for (long f = 0; f < count; f++) {
                int bodyAt = c[0];
                int bodySize = (int) leb(wasm, c);
                if (bodySize < 0 || bodySize > codeEnd - c[0]) {
                    throw new IllegalArgumentException("function body " + f + " runs past its section");
                }
                c[0] += bodySize;
                if (keep.contains((int) (importedFunctions[0] + f))) {
                    code.write(wasm, bodyAt, c[0] - bodyAt);
                } else {
                    code.write(new byte[] {2, 0, 0x0b}, 0, 3); // two bytes: no locals, end
                }
            }
            ByteArrayOutputStream codeOnly = new ByteArrayOutputStream(code.size() + 16);
            codeOnly.write(wasm, 0, 8);
            codeOnly.write(SectionId.CODE);
            writeLeb(codeOnly, code.size());
            codeOnly.write(code.toByteArray(), 0, code.size());
            parseInto(codeOnly.toByteArray(), module, importedFunctions);
        }
        return module.build();
    }

    /** The sections of a module's bytes, set on module; importedFunctions[0] set from its imports. */
    private static void parseInto(byte[] bytes, WasmModule.Builder module, int[] importedFunctions) {
        // instanceof, not a switch over the types: a pattern switch's first run spins a class
        // (TypeSwitch) that the ahead-of-time cache does not keep
        Parser.builder().build().parse(new ByteArrayInputStream(bytes), section -> {
            if (section instanceof TypeSection t) {
                module.setTypeSection(t);
            } else if (section instanceof ImportSection t) {
                module.setImportSection(t);
                importedFunctions[0] = t.count(ExternalType.FUNCTION);
            } else if (section instanceof FunctionSection t) {
                module.setFunctionSection(t);
            } else if (section instanceof TableSection t) {
                module.setTableSection(t);
            } else if (section instanceof MemorySection t) {
                module.setMemorySection(t);
            } else if (section instanceof GlobalSection t) {
                module.setGlobalSection(t);
            } else if (section instanceof ExportSection t) {
                module.setExportSection(t);
            } else if (section instanceof StartSection t) {
                module.setStartSection(t);
            } else if (section instanceof ElementSection t) {
                module.setElementSection(t);
            } else if (section instanceof CodeSection t) {
                module.setCodeSection(t);
            } else if (section instanceof DataSection t) {
                module.setDataSection(t);
            } else if (section instanceof DataCountSection t) {
                module.setDataCountSection(t);
            } else if (section instanceof TagSection t) {
                module.setTagSection(t);
            }
        });
    }

    /** An unsigned LEB128 number at at[0] (moved past it). */
    private static long leb(byte[] b, int[] at) {
        long v = 0;
        for (int shift = 0; shift < 35; shift += 7) {
            if (at[0] >= b.length) {
                throw new IllegalArgumentException("a number runs past the end");
            }
            int x = b[at[0]++] & 0xff;
            v |= (long) (x & 0x7f) << shift;
            if (x < 0x80) {
                return v;
            }
        }
        throw new IllegalArgumentException("a number of more than 32 bits");
    }

    /** An unsigned LEB128 number (v's 64 bits as unsigned). */
    static void writeLeb(ByteArrayOutputStream out, long v) {
        do {
            int x = (int) (v & 0x7f);
            v >>>= 7;
            out.write(v != 0 ? x | 0x80 : x);
        } while (v != 0);
    }

    /** The cache's folder (the rule of cuzk's caches, {@link TrustedDirectory#cacheFolder}); null when it is off or no home is known. */
    static Path folder() {
        return TrustedDirectory.cacheFolder(PROPERTY, "wasm");
    }

    /** The entry's file name: the wasm's CRC-32C and length, the compiler's version. */
    static String key(byte[] wasm) {
        CRC32C crc = new CRC32C();
        crc.update(wasm);
        return String.format("%08x-%d-chicory-%s-%d.classes", crc.getValue(), wasm.length, COMPILER_VERSION, FORMAT);
    }

    /**
     * The Chicory compiler's version, the one the build depends on (CompiledCircuitsTest checks it
     * against the jar's Maven properties). A constant: reading the properties at run time is a
     * resource lookup that opens every jar of the class path up to Chicory's, and loads the
     * compiler with its ASM classes, which a circuit loaded from the cache never needs.
     */
    static final String COMPILER_VERSION = "1.5.1";

    /**
     * Whether the folder may hold classes this process runs: made owner-only where missing, and
     * neither it nor any folder above it writable or replaceable by another user
     * ({@link TrustedDirectory}, the rule of the native library's cache).
     */
    static boolean usable(Path dir) {
        try {
            return TrustedDirectory.make(dir) == null;
        } catch (IOException | RuntimeException e) { // no /proc, no POSIX attributes: not trusted
            return false;
        }
    }

    /** The entry of wasm in that file, or null when it is missing, damaged, foreign, unreadable or of other bytes. */
    static Entry read(Path entry, byte[] wasm) {
        byte[] all = TrustedDirectory.readFile(entry, MAX_ENTRY_BYTES); // not a link, ours alone
        if (all == null || all.length < 24) {
            return null;
        }
        int body = all.length - 4;
        CRC32C crc = new CRC32C();
        crc.update(all, 0, body);
        if ((int) crc.getValue() != ByteBuffer.wrap(all, body, 4).getInt()) {
            return null;
        }
        Map<String, byte[]> classes = new LinkedHashMap<>();
        Set<Integer> interpreted = new java.util.TreeSet<>();
        int bodiesFrom;
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(all, 0, body))) {
            if (in.readInt() != MAGIC || in.readInt() != FORMAT) {
                return null;
            }
            int wasmAt = 12, wasmLength = in.readInt();
            if (wasmLength != wasm.length || wasmAt + wasmLength > body
                    || !java.util.Arrays.equals(all, wasmAt, wasmAt + wasmLength, wasm, 0, wasm.length)) {
                return null; // another wasm of the same checksum
            }
            in.skipNBytes(wasmLength);
            int n = in.readInt();
            if (n < 1 || n > 1_000_000) {
                return null;
            }
            for (int i = 0; i < n; i++) {
                String name = in.readUTF();
                int len = in.readInt();
                if (len < 0 || len > body) {
                    return null;
                }
                byte[] bytes = new byte[len];
                in.readFully(bytes);
                classes.put(name, bytes);
            }
            int k = in.readInt();
            if (k < 0 || k > 10_000_000) {
                return null;
            }
            for (int i = 0; i < k; i++) {
                interpreted.add(in.readInt());
            }
            int bodiesLength = in.readInt();
            if (bodiesLength < 0 || bodiesLength != in.available()) {
                return null;
            }
            bodiesFrom = body - bodiesLength;
        } catch (IOException e) {
            return null;
        }
        return classes.containsKey(MACHINE_CLASS) ? new Entry(classes, interpreted, all, bodiesFrom, body) : null;
    }

    private static Function<Instance, Machine> define(Map<String, byte[]> classes) {
        try {
            Class<?> machine = new Loader(classes).loadClass(MACHINE_CLASS);
            MethodHandle ctor = MethodHandles.publicLookup().findConstructor(machine, MethodType.methodType(void.class, Instance.class));
            return instance -> {
                try {
                    return (Machine) ctor.invoke(instance);
                } catch (RuntimeException | Error e) {
                    throw e;
                } catch (Throwable t) {
                    throw new IllegalStateException(t);
                }
            };
        } catch (ReflectiveOperationException | LinkageError | ClassCastException e) {
            return null;
        }
    }

    /**
     * Writes an entry (renamed into place, {@link TrustedDirectory#replaceFile}), into a folder
     * that may hold it only. Any failure (a full disk, a read-only folder) leaves no entry and is
     * not an error: the cache is a saving.
     */
    static void write(Path dir, byte[] wasm, Map<String, byte[]> classes, Set<Integer> interpreted, byte[] bodies) {
        if (!usable(dir)) {
            return;
        }
        ByteArrayOutputStream buf = new ByteArrayOutputStream(wasm.length + (bodies == null ? 0 : bodies.length) + (1 << 20));
        CRC32C crc = new CRC32C();
        try (DataOutputStream out = new DataOutputStream(new java.util.zip.CheckedOutputStream(buf, crc))) {
            out.writeInt(MAGIC);
            out.writeInt(FORMAT);
            out.writeInt(wasm.length);
            out.write(wasm);
            out.writeInt(classes.size());
            for (Map.Entry<String, byte[]> e : classes.entrySet()) {
                out.writeUTF(e.getKey());
                out.writeInt(e.getValue().length);
                out.write(e.getValue());
            }
            out.writeInt(interpreted.size());
            for (int f : new java.util.TreeSet<>(interpreted)) {
                out.writeInt(f);
            }
            out.writeInt(bodies == null ? 0 : bodies.length);
            if (bodies != null) {
                out.write(bodies);
            }
        } catch (IOException e) {
            return; // only a class name over 64 KB fails here: not cached
        }
        int sum = (int) crc.getValue();
        buf.write(sum >>> 24);
        buf.write(sum >>> 16);
        buf.write(sum >>> 8);
        buf.write(sum);
        Path entry = dir.resolve(key(wasm));
        if (TrustedDirectory.replaceFile(entry, buf.toByteArray())) {
            prune(dir, entry, maxBytes());
        }
    }

    /** Defines a circuit's classes on first use, Chicory's runtime from the loader of this module. */
    private static final class Loader extends ClassLoader {
        private final Map<String, byte[]> classes;

        Loader(Map<String, byte[]> classes) {
            super("cuzk-circuit", CompiledCircuits.class.getClassLoader());
            this.classes = classes;
        }

        /**
         * The circuit's own classes (its package) are defined here without asking the parent first:
         * the application class loader would search every jar of the class path for each of them
         * (about 30 ms of a command's start for poseidon's classes).
         */
        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.startsWith(PACKAGE)) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    c = findClass(name);
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            byte[] b;
            synchronized (classes) {
                b = classes.remove(name); // defined once; the bytes are not needed after
            }
            if (b == null) {
                throw new ClassNotFoundException(name);
            }
            return defineClass(name, b, 0, b.length);
        }
    }
}
