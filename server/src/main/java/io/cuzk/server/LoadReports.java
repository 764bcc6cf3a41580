package io.cuzk.server;

import io.cuzk.engine.Engine;
import io.cuzk.engine.EngineStatus;
import io.grpc.services.MetricRecorder;
import java.lang.management.ManagementFactory;
import java.util.ArrayDeque;

/**
 * The daemon's load as gRPC's ORCA backend metrics, which load-balancing clients (the
 * weighted_round_robin policy) read from the out-of-band service and from each call's trailers.
 * Sampled once a second by the daemon's ticker; figures over the last {@value #WINDOW_SECONDS} s:
 *
 * <ul>
 *   <li>qps: partitions proved per second (a thousandth while partitions are held and none
 *       is proved: the policy ignores a zero and would keep the daemon's last weight);
 *   <li>application utilization: the partitions the daemon held (accepted, not yet ended: queued,
 *       in synthesis, on a device, finalizing), on average over the window, per device worker. By
 *       Little's law a client's weight for this daemon, qps / utilization, is then its device
 *       workers over the time a partition spends in it: its speed as its clients see it, whatever
 *       share of the jobs it got, falling as a backlog builds up or as anything slows it (a slow
 *       device, CPU starved by neighbours, a lock), where the devices' busy share alone would not;
 *   <li>eps: partitions failed per second;
 *   <li>memory utilization: the engine's memory budget in use (1 - the free share);
 *   <li>cpu utilization: the daemon process's share of the machine's CPUs;
 *   <li>named utilizations: {@code device_busy} (the devices' busy share), {@code budget_used},
 *       {@code queue} (partitions held over the daemon's queue limit).
 * </ul>
 *
 * Only the ticker thread samples ({@link #sample} every second); the partitions held are integrated
 * exactly as they change ({@link HeldPartitions}); the recorder is safe to read from gRPC's threads.
 */
final class LoadReports {
    static final int WINDOW_SECONDS = 5;
    /** The qps reported while partitions are held and none is proved. */
    static final double STALLED_QPS = 1e-3;

    record Sample(long nanos, double busySeconds, long partitionsDone, long partitionsFailed, double heldSeconds) {}

    /** The figures last reported. */
    record Load(double busy, double qps, double eps, double applicationUtilization, double memoryUtilization, double cpu,
            long queuedPartitions, long freeBudgetBytes, double windowSeconds) {
        io.cuzk.api.v1.Load toProto() {
            return io.cuzk.api.v1.Load.newBuilder().setQps(qps).setApplicationUtilization(applicationUtilization).setDeviceBusy(busy)
                    .setEps(eps).setMemoryUtilization(memoryUtilization).setCpuUtilization(Math.max(0, cpu))
                    .setQueuedPartitions(queuedPartitions).setFreeBudgetBytes(Math.max(0, freeBudgetBytes)).setWindowSeconds(windowSeconds)
                    .build();
        }
    }

    final MetricRecorder recorder = MetricRecorder.newInstance();
    private final Engine engine;
    private final ProverService service;
    private final long maxQueued;
    private final int workers;
    private final ArrayDeque<Sample> samples = new ArrayDeque<>();
    private volatile Load last = new Load(0, 0, 0, 0, 0, 0, 0, 0, 0);

    LoadReports(Engine engine, ProverService service, long maxQueued, int workers) {
        this.engine = engine;
        this.service = service;
        this.maxQueued = maxQueued;
        this.workers = Math.max(1, workers);
    }

    Load last() {
        return last;
    }

    /** Takes a sample and updates the recorder; called once a second. */
    void sample() {
        EngineStatus s = engine.status();
        double busySeconds = 0;
        for (EngineStatus.Device d : s.devices()) {
            busySeconds += d.busySeconds();
        }
        int devices = Math.max(1, s.devices().size());
        Sample now = new Sample(System.nanoTime(), busySeconds, s.counters().partitionsDone(), s.counters().partitionsFailed(),
                service.held.seconds());
        samples.addLast(now);
        while (samples.size() > WINDOW_SECONDS + 1) {
            samples.removeFirst();
        }
        Sample first = samples.peekFirst();
        double seconds = (now.nanos() - first.nanos()) / 1e9;
        long queued = service.queuedPartitions();
        EngineStatus.Memory m = s.memory();
        double memory = m.budgetCapacity() > 0 ? Math.min(1, (double) m.budgetUsed() / m.budgetCapacity()) : 0;
        double cpu = processCpu();
        Load load;
        if (seconds < 0.5) {
            load = new Load(0, 0, 0, 0, memory, cpu, queued, m.budgetCapacity() - m.budgetUsed(), seconds);
        } else {
            long done = now.partitionsDone() - first.partitionsDone();
            double busy = Math.min(1, Math.max(0, (now.busySeconds() - first.busySeconds()) / (seconds * devices)));
            double qps = done / seconds;
            double eps = (now.partitionsFailed() - first.partitionsFailed()) / seconds;
            double util = (now.heldSeconds() - first.heldSeconds()) / seconds / workers;
            if (done == 0 && util > 0) {
                // partitions held and none proved in the window (a long partition, or a stuck
                // device): a weight near zero, where a zero would keep the last weight
                qps = STALLED_QPS;
            }
            load = new Load(busy, qps, eps, util, memory, cpu, queued, m.budgetCapacity() - m.budgetUsed(), seconds);
        }
        last = load;
        // zero figures are reported as such: the policy then keeps the weight it had (or gives
        // a daemon that has proved nothing yet the others' mean weight)
        recorder.setQpsMetric(load.qps());
        recorder.setEpsMetric(load.eps());
        recorder.setApplicationUtilizationMetric(load.applicationUtilization());
        recorder.setMemoryUtilizationMetric(load.memoryUtilization());
        if (cpu >= 0) {
            recorder.setCpuUtilizationMetric(cpu);
        }
        recorder.putUtilizationMetric("device_busy", load.busy());
        recorder.putUtilizationMetric("budget_used", load.memoryUtilization());
        recorder.putUtilizationMetric("queue", Math.min(1, (double) queued / Math.max(1, maxQueued)));
    }

    private static double processCpu() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            double v = os.getProcessCpuLoad();
            return v >= 0 ? Math.min(1, v) : -1;
        }
        return -1;
    }
}
