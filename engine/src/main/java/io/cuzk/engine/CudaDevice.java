package io.cuzk.engine;

import io.cuzk.Backend;
import io.cuzk.CudaBackend;
import io.cuzk.cuda.Stream;
import io.cuzk.groth16.CudaGroth16;
import io.cuzk.groth16.Groth16Prover;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * A GPU as a device. {@link #start} runs on the calling worker: it uploads the partition's a, b, c
 * and witness on the worker's own stream, queues H and the G1 MSMs, starts the G2 MSM on CPU threads,
 * and returns; a completion thread waits for the kernels. The device counts as busy while any
 * partition's work is queued on it; its timeline is written by one bookkeeping thread only.
 */
final class CudaDevice implements ProvingDevice {
    private final CudaBackend gpu;
    private final DeviceTimeline timeline;
    private final ExecutorService completion;
    private final ExecutorService bookkeeping;
    private final ExecutorService g2;
    private final List<Stream> streams = new ArrayList<>();
    private final ThreadLocal<Stream> stream;
    private final AtomicInteger queued = new AtomicInteger();
    private final BooleanSupplier readyWork;
    private int inflight; // bookkeeping thread only

    CudaDevice(String name, CudaBackend gpu, int workers, BooleanSupplier readyWork) {
        this.gpu = gpu;
        this.timeline = new DeviceTimeline(name);
        this.readyWork = readyWork;
        this.completion = Executors.newFixedThreadPool(workers, Engine.daemon(name + "-completion"));
        this.bookkeeping = Executors.newSingleThreadExecutor(Engine.daemon(name + "-timeline"));
        this.g2 = Executors.newFixedThreadPool(1, Engine.daemon(name + "-g2"));
        this.stream = ThreadLocal.withInitial(() -> {
            Stream s = Stream.create(gpu.device());
            synchronized (streams) {
                streams.add(s);
            }
            return s;
        });
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
    public CompletableFuture<Groth16Prover.Msms> start(Partition p, Runnable abcTaken) {
        long t0 = System.nanoTime();
        p.deviceQueued = t0;
        p.deviceStart = t0;
        queued.incrementAndGet();
        bookkeeping.execute(() -> {
            if (inflight++ == 0) {
                timeline.begin(t0);
            }
        });
        CudaGroth16.Pending pending;
        try {
            pending = CudaGroth16.start(gpu, stream.get(), p.key, p.witness, p.a, p.b, p.c, abcTaken, Backend.cpu(), g2);
        } catch (RuntimeException e) {
            done(p);
            return CompletableFuture.failedFuture(e);
        } finally {
            queued.decrementAndGet();
        }
        return CompletableFuture.supplyAsync(() -> {
            try {
                return pending.finish();
            } finally {
                done(p);
            }
        }, completion);
    }

    private void done(Partition p) {
        long t1 = System.nanoTime();
        p.deviceEnd = t1;
        bookkeeping.execute(() -> {
            if (--inflight == 0) {
                timeline.end(t1, readyWork.getAsBoolean());
            }
        });
    }

    @Override
    public void close() {
        completion.shutdownNow();
        g2.shutdownNow();
        bookkeeping.shutdown();
        synchronized (streams) {
            streams.forEach(Stream::close);
        }
    }
}
