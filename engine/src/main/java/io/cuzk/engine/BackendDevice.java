package io.cuzk.engine;

import io.cuzk.Backend;
import io.cuzk.Groth16Inputs;
import io.cuzk.groth16.ProvingKey;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * A backend as a device: one lane per device worker (a CUDA stream of its own; on the CPU, lanes
 * feeding the backend's one queue, so that the workers' partitions run back to back), the keys
 * made resident on it, and its timeline. The device counts as busy while any of its partitions
 * runs; the timeline is written by one bookkeeping thread only, from events that carry their own
 * timestamps, so no lane waits for another.
 */
final class BackendDevice implements ProvingDevice {
    private final Backend backend;
    private final DeviceTimeline timeline;
    private final Backend.Lane[] lanes;
    private final ExecutorService bookkeeping;
    private final AtomicInteger queued = new AtomicInteger();
    private final BooleanSupplier readyWork;
    private final ConcurrentHashMap<ProvingKey, ResidentKey> residents = new ConcurrentHashMap<>();
    private int inflight; // bookkeeping thread only

    BackendDevice(String name, Backend backend, int lanes, BooleanSupplier readyWork) {
        this.backend = backend;
        this.timeline = new DeviceTimeline(name);
        this.readyWork = readyWork;
        this.bookkeeping = Executors.newSingleThreadExecutor(Engine.daemon(name + "-timeline"));
        this.lanes = new Backend.Lane[lanes];
        for (int i = 0; i < lanes; i++) {
            this.lanes[i] = backend.openLane();
        }
    }

    /**
     * A key's points on this device, made resident by the first partition that needs them, outside
     * the map's lock (only the holder is made under it), and freed by the device when the key is
     * closed (the key store closes a key only when no job holds it).
     */
    private final class ResidentKey {
        private final ProvingKey key;
        private Backend.Resident resident; // under this holder's lock
        private boolean closed;

        ResidentKey(ProvingKey key) {
            this.key = key;
        }

        synchronized Backend.Resident get() {
            if (closed) {
                throw new IllegalStateException(key.name() + " was closed");
            }
            if (resident == null) {
                resident = backend.resident(key.bases());
            }
            return resident;
        }

        synchronized void close() {
            closed = true;
            if (resident != null) {
                resident.close();
                resident = null;
            }
        }
    }

    private Backend.Resident resident(ProvingKey key) {
        ResidentKey holder = residents.computeIfAbsent(key, k -> {
            ResidentKey h = new ResidentKey(k);
            k.onClose(() -> {
                residents.remove(k, h);
                h.close();
            });
            return h;
        });
        return holder.get();
    }

    @Override
    public String name() {
        return timeline.name;
    }

    @Override
    public DeviceTimeline timeline() {
        return timeline;
    }

    @Override
    public int queued() {
        return queued.get();
    }

    @Override
    public Backend.Pending start(int lane, Partition p, Runnable abcTaken) {
        p.deviceQueued = System.nanoTime();
        Backend.Resident bases = resident(p.key);
        queued.incrementAndGet();
        AtomicBoolean began = new AtomicBoolean();
        Backend.Events events = new Backend.Events() {
            @Override
            public void started(long nanos) {
                began.set(true);
                queued.decrementAndGet();
                p.deviceStart = nanos;
                bookkeeping.execute(() -> {
                    if (inflight++ == 0) {
                        timeline.begin(nanos);
                    }
                });
            }

            @Override
            public void hComputed(long nanos) {
                p.hComputed = nanos;
            }

            @Override
            public void abcTaken() {
                abcTaken.run();
            }

            @Override
            public void ended(long nanos) {
                p.deviceEnd = nanos;
                boolean backlog = queued.get() > 0 || readyWork.getAsBoolean();
                bookkeeping.execute(() -> {
                    if (--inflight == 0) {
                        timeline.end(nanos, backlog);
                    }
                });
            }
        };
        try {
            return lanes[lane].start(bases, new Groth16Inputs(p.witness, p.a, p.b, p.c, p.arena), events);
        } catch (RuntimeException | Error e) {
            if (!began.get()) {
                queued.decrementAndGet();
            }
            throw e;
        }
    }

    @Override
    public void close() {
        for (Backend.Lane l : lanes) {
            l.close();
        }
        residents.values().forEach(ResidentKey::close);
        residents.clear();
        bookkeeping.shutdown();
    }
}
