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
 * one track per synthesis worker, device worker and finalizer, a slice per partition and phase
 * (synthesis, device: H and the MSMs, finalize) with its job, partition, key and priority, times in
 * microseconds from the first submission.
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
        List<String> stages = List.of("synthesis", "device", "finalize");
        Map<String, Integer> kind = new LinkedHashMap<>(); // worker -> the stage it works in
        for (PartitionTrace r : records) {
            for (PartitionTrace.Interval i : r.intervals()) {
                kind.putIfAbsent(i.worker(), stages.indexOf(i.phase()));
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
                ObjectNode e = events.addObject().put("name", i.phase()).put("cat", "partition").put("ph", "X").put("pid", 1)
                        .put("tid", tid.get(i.worker())).put("ts", (i.start() - origin) / 1000.0).put("dur", (i.end() - i.start()) / 1000.0);
                e.putObject("args").put("job", r.job()).put("partition", r.partition()).put("key", r.key())
                        .put("priority", r.priority().name());
            }
        }
        try {
            return json.writerWithDefaultPrettyPrinter().writeValueAsBytes(root);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ObjectNode metadata(ArrayNode events, String name, int tid, String value) {
        ObjectNode e = events.addObject().put("ph", "M").put("pid", 1).put("tid", tid).put("name", name);
        if (value != null) {
            e.putObject("args").put("name", value);
        }
        return e;
    }
}
