package io.cuzk.engine;

import io.cuzk.groth16.ProvingKey;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Proving keys read from files, loaded once and kept resident while jobs use them (reference
 * counts). Idle keys stay too, for the next job of the same circuit, until the resident keys
 * exceed the cache size; then the least recently used idle ones are closed. Loading happens
 * outside the store's lock, once per file, whatever the number of concurrent submitters.
 */
final class KeyStore implements AutoCloseable {
    private static final class Holder {
        final Path path;
        ProvingKey key;
        int refs;
        long lastUsed;

        Holder(Path path) {
            this.path = path;
        }

        synchronized ProvingKey load() throws IOException {
            if (key == null) {
                key = ProvingKey.read(path);
            }
            return key;
        }
    }

    private final long capacityBytes;
    private final Map<Path, Holder> entries = new HashMap<>();
    private long loads;

    KeyStore(long capacityBytes) {
        this.capacityBytes = capacityBytes;
    }

    /** The key of a file, loaded if needed; every acquire is matched by one {@link #release}. */
    ProvingKey acquire(Path zkey) throws IOException {
        Path real = zkey.toRealPath();
        Holder h;
        synchronized (this) {
            h = entries.computeIfAbsent(real, Holder::new);
            h.refs++;
        }
        ProvingKey key;
        try {
            boolean fresh;
            synchronized (h) {
                fresh = h.key == null;
                key = h.load();
            }
            if (fresh) {
                synchronized (this) {
                    loads++;
                }
            }
        } catch (IOException | RuntimeException e) {
            synchronized (this) {
                h.refs--;
                if (h.refs == 0 && h.key == null) {
                    entries.remove(real);
                }
            }
            throw e;
        }
        evictIdle();
        return key;
    }

    void release(ProvingKey key) {
        synchronized (this) {
            for (Holder h : entries.values()) {
                if (h.key == key) {
                    h.refs--;
                    h.lastUsed = System.nanoTime();
                    break;
                }
            }
        }
        evictIdle();
    }

    private void evictIdle() {
        List<ProvingKey> close = new ArrayList<>();
        synchronized (this) {
            long total = residentBytes();
            if (total <= capacityBytes) {
                return;
            }
            List<Holder> idle = new ArrayList<>();
            for (Holder h : entries.values()) {
                if (h.refs == 0 && h.key != null) {
                    idle.add(h);
                }
            }
            idle.sort(Comparator.comparingLong(h -> h.lastUsed));
            for (Holder h : idle) {
                if (total <= capacityBytes) {
                    break;
                }
                total -= h.key.byteSize();
                close.add(h.key);
                entries.remove(h.path);
            }
        }
        close.forEach(ProvingKey::close);
    }

    synchronized long residentBytes() {
        long total = 0;
        for (Holder h : entries.values()) {
            if (h.key != null) {
                total += h.key.byteSize();
            }
        }
        return total;
    }

    synchronized int resident() {
        int n = 0;
        for (Holder h : entries.values()) {
            n += h.key != null ? 1 : 0;
        }
        return n;
    }

    synchronized long loads() {
        return loads;
    }

    @Override
    public void close() {
        List<ProvingKey> all = new ArrayList<>();
        synchronized (this) {
            for (Holder h : entries.values()) {
                if (h.key != null) {
                    all.add(h.key);
                }
            }
            entries.clear();
        }
        all.forEach(ProvingKey::close);
    }
}
