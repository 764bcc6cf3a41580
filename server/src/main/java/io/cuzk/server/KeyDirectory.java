package io.cuzk.server;

import io.cuzk.api.v1.KeyInfo;
import io.cuzk.groth16.ProvingKey;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The daemon's proving keys: every {@code .zkey} file of one folder, found when the daemon starts,
 * named by its file name (with or without {@code .zkey}) and by {@code sha256:<hex>} of its
 * bytes. A key is read into memory the daemon owns when a job first needs it (or at start, with
 * preload) and stays resident until the daemon stops, so a file changed or removed on disk
 * afterwards changes nothing for the daemon. Clients never name a path.
 */
final class KeyDirectory implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("io.cuzk.server");

    /** Keys read into memory, reads that failed, and the seconds the reads took (for /metrics). */
    final java.util.concurrent.atomic.LongAdder loads = new java.util.concurrent.atomic.LongAdder();
    final java.util.concurrent.atomic.LongAdder loadFailures = new java.util.concurrent.atomic.LongAdder();
    final java.util.concurrent.atomic.DoubleAdder loadSeconds = new java.util.concurrent.atomic.DoubleAdder();

    /** One key file: its shape and hash from the scan, the key once loaded. */
    final class Entry {
        final String name;
        final Path file;
        final long fileBytes;
        final ProvingKey.Shape shape;
        volatile String sha256;
        private volatile ProvingKey key;

        Entry(String name, Path file, long fileBytes, ProvingKey.Shape shape, String sha256) {
            this.name = name;
            this.file = file;
            this.fileBytes = fileBytes;
            this.shape = shape;
            this.sha256 = sha256;
        }

        /** The key, read on first use; concurrent first users wait for one read. */
        ProvingKey key() throws IOException {
            ProvingKey k = key;
            if (k == null) {
                synchronized (this) {
                    k = key;
                    if (k == null) {
                        long t0 = System.nanoTime();
                        try {
                            k = ProvingKey.read(file);
                        } catch (IOException | RuntimeException e) {
                            loadFailures.increment();
                            throw e;
                        } finally {
                            loadSeconds.add((System.nanoTime() - t0) / 1e9);
                        }
                        // the file as it is after the read: a file rewritten since the scan gets its new name
                        String loaded;
                        try {
                            loaded = sha256(file);
                        } catch (IOException | RuntimeException e) {
                            k.close();
                            throw e;
                        }
                        if (!loaded.equals(sha256)) {
                            LOG.log(System.Logger.Level.WARNING, "cuzk serve: " + file + " changed since the daemon started;"
                                    + " key " + name + " is now sha256:" + loaded);
                            sha256 = loaded;
                        }
                        key = k;
                        loads.increment();
                    }
                }
            }
            return k;
        }

        boolean resident() {
            return key != null;
        }

        KeyInfo info() {
            return KeyInfo.newBuilder().setName(name).setSha256(sha256).setCurve(shape.curve().snarkjsName())
                    .setDomainSize(shape.domainSize()).setVariables(shape.nVars()).setPublicSignals(shape.nPublic())
                    .setFileBytes(fileBytes).setResident(resident()).setHasCircuit(circuit() != null).build();
        }

        /** The key's circuit, NAME.wasm next to NAME.zkey, or null. */
        Path circuit() {
            Path w = file.resolveSibling(name + ".wasm");
            return Files.isRegularFile(w, LinkOption.NOFOLLOW_LINKS) ? w : null;
        }

        /**
         * The circuit file as compiled (on its first input, again when the file changes): the
         * compiled code, its calculators not in use, the longest input.json it can need, and the
         * file's time and size then.
         */
        private record Compiled(io.cuzk.witness.WitnessCalculator.Circuit circuit,
                java.util.Queue<io.cuzk.witness.WitnessCalculator> idle, long maxInputBytes,
                java.nio.file.attribute.FileTime modified, long size) {}

        private volatile Compiled compiled;
        private final Object compiling = new Object();
        /** Calculations of this key at once, at most (each calculator has a WebAssembly memory of its own). */
        private final java.util.concurrent.Semaphore calculating = new java.util.concurrent.Semaphore(WITNESS_THREADS);

        /** Why the circuit file, as it was (modified then, of this size), cannot be used; null when it could. */
        private record Unusable(java.nio.file.attribute.FileTime modified, long size, String why) {}

        private Unusable unusable; // under compiling

        /**
         * The witness of one input.json with the key's circuit (compiled on first use and kept),
         * several inputs at once on calculators that share the compiled code ({@link #WITNESS_THREADS} at most);
         * under no lock that the key's loading, its status or its other jobs wait on. An
         * {@link IllegalStateException} when the daemon's circuit cannot serve (none, unreadable,
         * not a circuit, or not this key's: its field or its witness size differ from the key's); a
         * {@link io.cuzk.witness.WitnessException} for input that does not fit the circuit; a
         * {@link java.util.concurrent.CancellationException} when the calculating thread is
         * interrupted.
         */
        byte[] witness(byte[] inputJson) {
            Compiled c = circuitCompiled();
            if (inputJson.length > c.maxInputBytes()) { // before it is read: reading takes tens of times its size in heap
                throw new io.cuzk.witness.WitnessException("an input.json of " + inputJson.length + " bytes: more than the "
                        + c.maxInputBytes() + " an input of key " + name + "'s circuit can need (each of its input values in at most 4096 "
                        + "characters)");
            }
            String text = utf8(inputJson);
            calculating.acquireUninterruptibly();
            io.cuzk.witness.WitnessCalculator calc = null;
            try {
                calc = c.idle().poll();
                if (calc == null) {
                    try {
                        calc = c.circuit().newCalculator(line -> { });
                    } catch (java.util.concurrent.CancellationException e) { // interrupted, not the circuit's fault
                        throw e;
                    } catch (RuntimeException e) { // the circuit's own start (its memory, a trap), not the input
                        throw new IllegalStateException("key " + name + "'s circuit " + name + ".wasm cannot start a calculation: "
                                + e.getMessage(), e);
                    }
                }
                return calc.wtns(text);
            } finally {
                if (calc != null) { // back to its own circuit's calculators (a circuit compiled again has its own)
                    c.idle().offer(calc); // each calculation starts with the circuit's init: a failed one leaves nothing behind
                }
                calculating.release();
            }
        }

        /**
         * The circuit, compiled on first use and checked against the key, and compiled again when
         * its file changes (a circuit an operator replaced serves from the next input on; one
         * removed is gone); one that cannot serve is logged once and not compiled again until its
         * file changes (the inputs that come meanwhile get the same answer at once, not each a
         * compilation).
         */
        private Compiled circuitCompiled() {
            Compiled c = compiled;
            if (c != null && current(c)) {
                return c;
            }
            synchronized (compiling) { // one compilation; the inputs that come meanwhile wait for it
                c = compiled;
                if (c != null && current(c)) {
                    return c;
                }
                if (c != null) {
                    compiled = null;
                    LOG.log(System.Logger.Level.INFO, "cuzk serve: key " + name + "'s circuit " + name + ".wasm changed: compiling it again");
                }
                requireCircuit();
                String wasm = name + ".wasm";
                Path w = file.resolveSibling(wasm);
                java.nio.file.attribute.BasicFileAttributes seen;
                try {
                    seen = Files.readAttributes(w, java.nio.file.attribute.BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                } catch (IOException e) {
                    throw new IllegalStateException("key " + name + "'s circuit " + wasm + " cannot be read (" + e.getClass().getSimpleName() + ")", e);
                }
                Unusable u = unusable;
                if (u != null && u.modified().equals(seen.lastModifiedTime()) && u.size() == seen.size()) {
                    throw new IllegalStateException(u.why());
                }
                byte[] bytes;
                try {
                    bytes = Files.readAllBytes(w);
                } catch (IOException e) { // named by its kind: the exception's message is the daemon's path
                    throw new IllegalStateException("key " + name + "'s circuit " + wasm + " cannot be read (" + e.getClass().getSimpleName()
                            + ")", e);
                }
                try {
                    io.cuzk.witness.WitnessCalculator.Circuit loaded = io.cuzk.witness.WitnessCalculator.Circuit.of(wasm, bytes);
                    Path sym = file.resolveSibling(name + ".sym"); // circom's signal names: an input left out is named
                    if (Files.isRegularFile(sym, LinkOption.NOFOLLOW_LINKS)) {
                        loaded = loaded.withSymbols(sym);
                    }
                    io.cuzk.witness.WitnessCalculator first = loaded.newCalculator(line -> { });
                    String mismatch = !first.prime().equals(shape.curve().r())
                            ? "its witnesses are over another field than " + shape.curve().cliName() + "'s, the key's"
                            : first.witnessSize() != shape.nVars() ? "its witnesses have " + first.witnessSize() + " values, the key's "
                                    + shape.nVars() : null;
                    if (mismatch != null) {
                        throw new IllegalStateException("key " + name + "'s circuit " + wasm + " is not the circuit of "
                                + file.getFileName() + ": " + mismatch);
                    }
                    java.util.Queue<io.cuzk.witness.WitnessCalculator> idle = new java.util.concurrent.ConcurrentLinkedQueue<>();
                    idle.offer(first);
                    Compiled made = new Compiled(loaded, idle, first.maxInputJsonBytes(), seen.lastModifiedTime(), seen.size());
                    compiled = made;
                    unusable = null;
                    return made;
                } catch (java.util.concurrent.CancellationException e) { // interrupted: nothing learnt about the circuit
                    throw e;
                } catch (RuntimeException e) {
                    String why = e instanceof IllegalStateException ? e.getMessage() : "key " + name + "'s circuit " + wasm
                            + " cannot be used: " + e.getMessage();
                    unusable = new Unusable(seen.lastModifiedTime(), seen.size(), why);
                    LOG.log(System.Logger.Level.WARNING, "cuzk serve: " + why);
                    throw new IllegalStateException(why, e);
                }
            }
        }

        /** Whether the circuit file is still the one c was compiled from (its time and size; a link or none is not). */
        private boolean current(Compiled c) {
            try {
                java.nio.file.attribute.BasicFileAttributes now = Files.readAttributes(file.resolveSibling(name + ".wasm"),
                        java.nio.file.attribute.BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                return now.isRegularFile() && now.lastModifiedTime().equals(c.modified()) && now.size() == c.size();
            } catch (IOException e) {
                return false;
            }
        }

        /**
         * That the key has a circuit file the daemon may use (NAME.wasm beside it, no link), without
         * reading it: a job of input.json for a key without one is refused before anything else.
         */
        void requireCircuit() {
            String wasm = name + ".wasm";
            if (circuit() == null) {
                throw new IllegalStateException(Files.isSymbolicLink(file.resolveSibling(wasm)) ? "key " + name + "'s circuit " + wasm
                        + " is a symbolic link, which the daemon does not follow (nor for keys): put the file itself there"
                        : "key " + name + " has no circuit: put " + wasm + " next to " + file.getFileName()
                                + " in the key folder to send input.json");
            }
        }

        synchronized void close() {
            if (key != null) {
                key.close();
                key = null;
            }
        }
    }

    /** input.json's bytes as text: UTF-8, as a file's (TextFiles), never with malformed bytes replaced. */
    static String utf8(byte[] bytes) {
        try {
            return io.cuzk.groth16.TextFiles.utf8(bytes);
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new io.cuzk.witness.WitnessException("not JSON: not UTF-8 text");
        }
    }

    /**
     * Witness calculations of one key at once, at most: one per core up to 4 (each calculator keeps
     * the circuit's WebAssembly memory, hundreds of MiB for a large circuit, for as long as the key).
     */
    static final int WITNESS_THREADS = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));
    private final Path dir;
    private final Map<String, Entry> byName = new TreeMap<>();

    private KeyDirectory(Path dir) {
        this.dir = dir;
    }

    /**
     * Scans dir for .zkey files (regular files, symlinks not followed), reading each header and
     * hashing each file once. A file that is not a valid key is skipped with a warning.
     */
    static KeyDirectory scan(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new IOException("the key folder " + dir + " is not a directory");
        }
        KeyDirectory d = new KeyDirectory(dir);
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.zkey")) {
            for (Path f : files) {
                if (!Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
                    LOG.log(System.Logger.Level.WARNING, "cuzk serve: skipping " + f + ": not a regular file");
                    continue;
                }
                String file = f.getFileName().toString();
                String name = file.substring(0, file.length() - ".zkey".length());
                try {
                    ProvingKey.Shape shape = ProvingKey.shape(f);
                    d.byName.put(name, d.new Entry(name, f, Files.size(f), shape, sha256(f)));
                } catch (IOException | RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "cuzk serve: skipping a file that is no key: " + e.getMessage());
                }
            }
        }
        return d;
    }

    Path dir() {
        return dir;
    }

    int size() {
        return byName.size();
    }

    /** Reads every key now (--preload). */
    void preload() throws IOException {
        for (Entry e : byName.values()) {
            e.key();
        }
    }

    /** The entry a client's name means, or null: "name", "name.zkey" or "sha256:<hex>". */
    Entry find(String name) {
        if (name == null || name.isEmpty()) {
            return null;
        }
        if (name.startsWith("sha256:")) {
            String hex = name.substring("sha256:".length()).toLowerCase(Locale.ROOT);
            for (Entry e : byName.values()) {
                if (e.sha256.equals(hex)) {
                    return e;
                }
            }
            return null;
        }
        Entry e = byName.get(name);
        if (e == null && name.endsWith(".zkey")) {
            e = byName.get(name.substring(0, name.length() - ".zkey".length()));
        }
        return e;
    }

    List<KeyInfo> list() {
        List<KeyInfo> out = new ArrayList<>();
        for (Entry e : byName.values()) {
            out.add(e.info());
        }
        return out;
    }

    List<KeyInfo> resident() {
        List<KeyInfo> out = new ArrayList<>();
        for (Entry e : byName.values()) {
            if (e.resident()) {
                out.add(e.info());
            }
        }
        return out;
    }

    static String sha256(Path f) throws IOException {
        MessageDigest md = sha256();
        byte[] buf = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(f, LinkOption.NOFOLLOW_LINKS)) {
            int n;
            while ((n = in.read(buf)) > 0) {
                md.update(buf, 0, n);
            }
        }
        return HexFormat.of().formatHex(md.digest());
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        for (Entry e : byName.values()) {
            e.close();
        }
    }
}
