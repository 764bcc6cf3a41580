package io.cuzk.groth16;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.commons.lang3.Validate;

/**
 * Proving keys read from files, shared by everyone who proves with them and reference-counted:
 * {@link #acquire} hands out a {@link Lease}, and a key is closed only when no lease holds it any
 * more. A key is read once per version of its file (path, size, modification time and file key),
 * outside the store's lock, however many threads ask for it at once; a file changed on disk gets a
 * new entry, while the leases on the old one keep using it until they end. Idle keys stay for the
 * next proof of the same circuit until the keys held exceed the store's capacity; then the least
 * recently used idle ones are closed.
 *
 * <p>Keys are read into memory they own ({@link ProvingKey#read}), never mapped: a key file
 * rewritten, truncated or replaced while proofs use its key changes nothing for them (a mapped
 * file truncated under a reader would end the process with SIGBUS), and the next acquire after
 * the change reads the new version.
 *
 * <p>Thread-safe. The store's lock is held only for bookkeeping, never while a key is read or
 * closed.
 */
public final class KeyStore implements AutoCloseable {
    /** What identifies one version of a key file. */
    private record Version(Path path, long size, FileTime modified, Object fileKey) {
        static Version of(Path zkey) throws IOException {
            try {
                Path real = zkey.toRealPath();
                BasicFileAttributes a = Files.readAttributes(real, BasicFileAttributes.class);
                return new Version(real, a.size(), a.lastModifiedTime(), a.fileKey());
            } catch (IOException e) {
                throw InputFile.reasoned(e);
            }
        }
    }

    private final class Entry {
        final Version version;
        private volatile ProvingKey key; // written once, under this entry's lock; read without it
        int leases; // under the store's lock
        long lastUsed; // under the store's lock
        boolean current = true; // under the store's lock: false once a newer version replaced it or the store closed

        Entry(Version version) {
            this.version = version;
        }

        /** Reads the key unless it was read; concurrent callers wait for the one reading it. */
        synchronized ProvingKey load() throws IOException {
            if (key == null) {
                key = ProvingKey.read(version.path());
                loads.incrementAndGet();
            }
            return key;
        }

        /** The key if it was read, without waiting for a read in progress. */
        ProvingKey loaded() {
            return key;
        }
    }

    /** A lease on a key: the key stays open until every lease on it is closed. */
    public final class Lease implements AutoCloseable {
        private final Entry entry;
        private final ProvingKey key;
        private boolean closed;

        private Lease(Entry entry, ProvingKey key) {
            this.entry = entry;
            this.key = key;
        }

        public ProvingKey key() {
            Validate.validState(!closed, "the lease on %s was closed", entry.version.path());
            return key;
        }

        /** Ends the lease (once; later calls do nothing). */
        @Override
        public void close() {
            synchronized (this) {
                if (closed) {
                    return;
                }
                closed = true;
            }
            release(entry);
        }
    }

    private final long capacityBytes;
    private final Map<Path, Entry> current = new HashMap<>();
    private final List<Entry> retired = new ArrayList<>();
    private final AtomicLong loads = new AtomicLong();
    private boolean closed;

    /** A store that keeps idle keys while all the keys it holds take at most capacityBytes. */
    public KeyStore(long capacityBytes) {
        Validate.isTrue(capacityBytes >= 0, "the capacity must not be negative: %d", capacityBytes);
        this.capacityBytes = capacityBytes;
    }

    /** A lease on the key of the file, read now unless this version of it is held already. */
    public Lease acquire(Path zkey) throws IOException {
        Objects.requireNonNull(zkey, "zkey");
        Version v = Version.of(zkey);
        Entry e;
        Entry replaced = null;
        synchronized (this) {
            Validate.validState(!closed, "the key store is closed");
            e = current.get(v.path());
            if (e == null || !e.version.equals(v)) {
                if (e != null) {
                    e.current = false;
                    retired.add(e);
                    replaced = e;
                }
                e = new Entry(v);
                current.put(v.path(), e);
            }
            e.leases++;
        }
        ProvingKey key;
        try {
            key = e.load();
        } catch (IOException | RuntimeException | Error ex) {
            release(e); // a failed read leaves no entry behind (the next acquire tries again)
            throw ex;
        }
        if (replaced != null) {
            closeIdle(); // the old version goes as soon as its last lease does
        }
        evict();
        return new Lease(e, key);
    }

    private void release(Entry e) {
        synchronized (this) {
            e.leases--;
            e.lastUsed = System.nanoTime();
            if (e.leases == 0 && e.loaded() == null && e.current) {
                current.remove(e.version.path(), e);
            }
        }
        closeIdle();
        evict();
    }

    /** Closes retired entries no lease holds any more. */
    private void closeIdle() {
        List<ProvingKey> close = new ArrayList<>();
        synchronized (this) {
            retired.removeIf(r -> {
                if (r.leases == 0) {
                    ProvingKey k = r.loaded();
                    if (k != null) {
                        close.add(k);
                    }
                    return true;
                }
                return false;
            });
        }
        close.forEach(ProvingKey::close);
    }

    /** Closes the least recently used idle keys while the keys held exceed the capacity. */
    private void evict() {
        List<ProvingKey> close = new ArrayList<>();
        synchronized (this) {
            long total = heldBytes();
            if (total <= capacityBytes) {
                return;
            }
            List<Entry> idle = new ArrayList<>();
            for (Entry e : current.values()) {
                if (e.leases == 0 && e.loaded() != null) {
                    idle.add(e);
                }
            }
            idle.sort(Comparator.comparingLong(e -> e.lastUsed));
            for (Entry e : idle) {
                if (total <= capacityBytes) {
                    break;
                }
                total -= e.loaded().byteSize();
                current.remove(e.version.path());
                close.add(e.loaded());
            }
        }
        close.forEach(ProvingKey::close);
    }

    private long heldBytes() {
        long total = 0;
        for (Entry e : current.values()) {
            ProvingKey k = e.loaded();
            total += k == null ? 0 : k.byteSize();
        }
        for (Entry e : retired) {
            ProvingKey k = e.loaded();
            total += k == null ? 0 : k.byteSize();
        }
        return total;
    }

    /** Off-heap bytes of the keys held (leased or idle). */
    public synchronized long residentBytes() {
        return heldBytes();
    }

    /** Keys held (leased or idle). */
    public synchronized int resident() {
        int n = 0;
        for (Entry e : current.values()) {
            n += e.loaded() != null ? 1 : 0;
        }
        for (Entry e : retired) {
            n += e.loaded() != null ? 1 : 0;
        }
        return n;
    }

    /** How many times a key file was read. */
    public long loads() {
        return loads.get();
    }

    /**
     * Closes the idle keys now and refuses new leases; a key still leased is closed when its last
     * lease ends.
     */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            for (Entry e : current.values()) {
                e.current = false;
                retired.add(e);
            }
            current.clear();
        }
        closeIdle();
    }
}
