package io.cuzk.groth16;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Parsed proving keys, one per file, so that proving many witnesses of a circuit reads and checks
 * its key once. A key is reloaded when its file changes (size or modification time). Thread-safe;
 * concurrent first requests for one file parse it once.
 */
public final class ProvingKeyCache implements AutoCloseable {
    private record Entry(ProvingKey key, long size, FileTime modified) {}

    private final ConcurrentHashMap<Path, Entry> entries = new ConcurrentHashMap<>();
    private final AtomicLong loads = new AtomicLong();

    /** The key of the file, parsed on first use. */
    public ProvingKey get(Path zkey) throws IOException {
        Path real = zkey.toRealPath();
        BasicFileAttributes attrs = Files.readAttributes(real, BasicFileAttributes.class);
        try {
            Entry e = entries.compute(real, (p, old) -> {
                if (old != null && old.size == attrs.size() && old.modified.equals(attrs.lastModifiedTime())) {
                    return old;
                }
                if (old != null) {
                    old.key.close();
                }
                try {
                    loads.incrementAndGet();
                    return new Entry(ProvingKey.read(p), attrs.size(), attrs.lastModifiedTime());
                } catch (IOException ex) {
                    throw new UncheckedIOException(ex);
                }
            });
            return e.key;
        } catch (UncheckedIOException ex) {
            throw ex.getCause();
        }
    }

    /** How many times a key was parsed (for tests and status). */
    public long loads() {
        return loads.get();
    }

    /** Closes every cached key. */
    @Override
    public void close() {
        entries.values().forEach(e -> e.key.close());
        entries.clear();
    }
}
