package io.cuzk.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cuzk.engine.PartitionTrace;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The engine's trace as Chrome trace-event JSON, which ui.perfetto.dev and chrome://tracing open:
 * one track per synthesis worker, device worker and finalizer, a slice per partition and phase with
 * its job, partition, key and priority, times in microseconds from the first submission. A device
 * worker's track shows, per partition, its handoff (taking it and queuing it on the device), a
 * device slice holding H and the MSMs as nested slices where the backend reports them apart, and
 * finish (collecting the results and handing them to a finalizer).
 */
public final class ChromeTrace {
    private ChromeTrace() {}

    /** The records as trace-event JSON (UTF-8). */
    public static byte[] of(List<PartitionTrace> records) {
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = json.createObjectNode();
        root.put("displayTimeUnit", "ms");
        ArrayNode events = root.putArray("traceEvents");
        long origin = records.stream().mapToLong(PartitionTrace::submitted).min().orElse(0);
        // tracks: synthesis workers, then device workers, then finalizers, each by name
        Map<String, Integer> kind = new LinkedHashMap<>(); // worker -> the stage it works in
        for (PartitionTrace r : records) {
            for (PartitionTrace.Interval i : r.intervals()) {
                kind.putIfAbsent(i.worker(), switch (i.phase()) {
                    case PartitionTrace.SYNTHESIS -> 0;
                    case PartitionTrace.FINALIZE -> 2;
                    default -> 1;
                });
            }
        }
        List<String> names = new ArrayList<>(kind.keySet());
        names.sort(Comparator.<String>comparingInt(kind::get).thenComparing(Comparator.naturalOrder()));
        Map<String, Integer> tid = new LinkedHashMap<>();
        metadata(events, "process_name", 0, "cuzk engine");
        for (String n : names) {
            tid.put(n, tid.size() + 1);
            metadata(events, "thread_name", tid.get(n), n);
            ObjectNode sort = metadata(events, "thread_sort_index", tid.get(n), null);
            sort.putObject("args").put("sort_index", tid.get(n));
        }
        for (PartitionTrace r : records) {
            for (PartitionTrace.Interval i : r.intervals()) {
                if (i.phase().equals(PartitionTrace.H)) { // the device slice that H and the MSMs nest in
                    slice(events, r, PartitionTrace.DEVICE, tid.get(i.worker()), r.deviceStart() - origin, r.deviceEnd() - r.deviceStart());
                }
                slice(events, r, i.phase(), tid.get(i.worker()), i.start() - origin, i.end() - i.start());
            }
        }
        try {
            return json.writerWithDefaultPrettyPrinter().writeValueAsBytes(root);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void slice(ArrayNode events, PartitionTrace r, String name, int tid, long startNanos, long durationNanos) {
        ObjectNode e = events.addObject().put("name", name).put("cat", "partition").put("ph", "X").put("pid", 1).put("tid", tid)
                .put("ts", startNanos / 1000.0).put("dur", durationNanos / 1000.0);
        e.putObject("args").put("job", r.job()).put("partition", r.partition()).put("key", r.key()).put("priority", r.priority().name());
    }

    private static ObjectNode metadata(ArrayNode events, String name, int tid, String value) {
        ObjectNode e = events.addObject().put("ph", "M").put("pid", 1).put("tid", tid).put("name", name);
        if (value != null) {
            e.putObject("args").put("name", value);
        }
        return e;
    }
}
