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
        List<String> names = new ArrayList<>();
        for (PartitionTrace r : records) {
            for (String w : new String[] {r.synthesisWorker(), r.deviceWorker(), r.finalizer()}) {
                if (w != null && !names.contains(w)) {
                    names.add(w);
                }
            }
        }
        Map<String, Integer> kind = new LinkedHashMap<>();
        for (PartitionTrace r : records) {
            kind.putIfAbsent(r.synthesisWorker(), 0);
            kind.putIfAbsent(r.deviceWorker(), 1);
            kind.putIfAbsent(r.finalizer(), 2);
        }
        names.sort(Comparator.<String>comparingInt(n -> kind.getOrDefault(n, 3)).thenComparing(Comparator.naturalOrder()));
        Map<String, Integer> tid = new LinkedHashMap<>();
        metadata(events, "process_name", 0, "cuzk engine");
        for (String n : names) {
            tid.put(n, tid.size() + 1);
            metadata(events, "thread_name", tid.get(n), n);
            ObjectNode sort = metadata(events, "thread_sort_index", tid.get(n), null);
            sort.putObject("args").put("sort_index", tid.get(n));
        }
        for (PartitionTrace r : records) {
            slice(events, "synthesis", tid.get(r.synthesisWorker()), r.synthesisStart(), r.synthesisEnd(), origin, r);
            slice(events, "device", tid.get(r.deviceWorker()), r.deviceStart(), r.deviceEnd(), origin, r);
            slice(events, "finalize", tid.get(r.finalizer()), r.finalizeStart(), r.finalizeEnd(), origin, r);
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

    private static void slice(ArrayNode events, String phase, Integer tid, long start, long end, long origin, PartitionTrace r) {
        if (tid == null || start == 0 || end < start) {
            return; // a phase it did not go through
        }
        ObjectNode e = events.addObject().put("name", phase).put("cat", "partition").put("ph", "X").put("pid", 1).put("tid", tid)
                .put("ts", (start - origin) / 1000.0).put("dur", (end - start) / 1000.0);
        e.putObject("args").put("job", r.job()).put("partition", r.partition()).put("key", r.key()).put("priority", r.priority().name());
    }
}
