package io.cuzk.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.util.JsonFormat;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.cuzk.engine.Engine;
import io.cuzk.engine.EngineStatus;
import io.cuzk.engine.PartitionTrace;
import io.cuzk.engine.PartitionState;
import io.cuzk.engine.Phase;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * The daemon's HTTP side ({@code serve --http}): {@code /} (the status page, with its scripts under
 * {@code /static/}), {@code /metrics} (Prometheus text format),
 * {@code /api/status} (GetStatus as JSON), {@code /api/timeline?since=S} (each worker's intervals),
 * {@code /api/utilization?seconds=S} (each device's busy share per 0.2 s)
 * and {@code /trace?seconds=N} (the engine's recent
 * partitions as Chrome trace-event JSON, for ui.perfetto.dev). Served by the JDK's own HttpServer:
 * a few read-only endpoints need no framework, and it adds no dependency. The daemon's rules hold
 * here too: its bearer token, when it has one, on every request for data (the page's own files
 * carry none and are served without it); HTTPS with its certificate when it has TLS; an address
 * other than loopback only with one of TLS or --insecure.
 */
final class HttpEndpoints {
    private final HttpServer http;

    HttpEndpoints(String host, int port, Engine engine, ProverService service, KeyDirectory keys, String token,
            java.nio.file.Path tlsCert, java.nio.file.Path tlsKey) throws IOException {
        PrometheusRegistry registry = new PrometheusRegistry();
        Supplier<EngineStatus> status = memo(engine::status);
        register(registry, status, service, keys);
        JvmMetrics.builder().register(registry);
        PrometheusTextFormatWriter text = PrometheusTextFormatWriter.create();
        byte[] expected = token == null ? null : TokenCheck.digest("Bearer " + token);
        if (tlsCert != null) {
            com.sun.net.httpserver.HttpsServer https = com.sun.net.httpserver.HttpsServer.create(new InetSocketAddress(host, port), 16);
            https.setHttpsConfigurator(new com.sun.net.httpserver.HttpsConfigurator(sslContext(tlsCert, tlsKey)));
            http = https;
        } else {
            http = HttpServer.create(new InetSocketAddress(host, port), 16);
        }
        http.setExecutor(Executors.newFixedThreadPool(2, Thread.ofPlatform().daemon().name("cuzk-http-", 0).factory()));
        http.createContext("/metrics", x -> serve(x, expected, () -> {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            text.write(out, registry.scrape());
            return new Reply(200, text.getContentType(), out.toByteArray());
        }));
        http.createContext("/api/status", x -> serve(x, expected, () -> new Reply(200, "application/json",
                JsonFormat.printer().print(service.status()).getBytes(StandardCharsets.UTF_8))));
        http.createContext("/trace", x -> serve(x, expected, () -> {
            long now = System.nanoTime();
            Long since = since(x, "seconds", now);
            return since == null ? badSeconds(x, "seconds") : new Reply(200, "application/json", ChromeTrace.of(engine.trace(since)));
        }));
        http.createContext("/api/utilization", x -> serve(x, expected, () -> {
            Long since = since(x, "seconds", 0);
            if (since == null) {
                return badSeconds(x, "seconds");
            }
            int bins = (int) Math.max(1, Math.min(Math.round(-since / 1e9 / UTILIZATION_BIN_SECONDS), MAX_UTILIZATION_BINS));
            return new Reply(200, "application/json", utilization(engine.busyShares(
                    java.time.Duration.ofNanos((long) (UTILIZATION_BIN_SECONDS * 1e9)), bins)));
        }));
        http.createContext("/api/timeline", x -> serve(x, expected, () -> {
            long now = System.nanoTime();
            Long since = since(x, "since", now);
            return since == null ? badSeconds(x, "since") : new Reply(200, "application/json",
                    timeline(engine.trace(since), now, status.get().devices().stream().map(EngineStatus.Device::name).toList()));
        }));
        // the status page and its scripts hold no data (they fetch it from /api/, with the token the
        // page asks for when the daemon has one), so they are served without the token
        http.createContext("/", x -> serve(x, null, () -> x.getRequestURI().getPath().equals("/")
                ? new Reply(200, "text/html; charset=utf-8", PAGE.get("index.html"))
                : new Reply(404, "text/plain", "not found\n".getBytes(StandardCharsets.UTF_8))));
        http.createContext("/static/", x -> serve(x, null, () -> {
            String name = x.getRequestURI().getPath().substring("/static/".length());
            byte[] body = PAGE.get(name);
            return body == null ? new Reply(404, "text/plain", "not found\n".getBytes(StandardCharsets.UTF_8))
                    : new Reply(200, name.endsWith(".js") ? "text/javascript; charset=utf-8" : "text/css; charset=utf-8", body);
        }));
        http.start();
    }

    /**
     * Per worker, the intervals of each phase of the partitions given, in seconds before now (negative
     * numbers: the page plots the last minutes), and per device the workers that feed it:
     * {"workers": {"device-0-worker-0": [{"phase": "MSMs", "device": true, "job": 3, "partition": 1,
     * "start": -2.51, "end": -2.48}, ...], ...}, "devices": {"device-0-cpu": ["device-0-worker-0",
     * ...]}}. "device" marks the device's own work (H, MSMs, or device where the backend does not
     * split them): the union of those over a device's workers is the time it was busy.
     */
    static byte[] timeline(List<PartitionTrace> records, long now, List<String> deviceNames) {
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = json.createObjectNode();
        ObjectNode workers = root.putObject("workers");
        for (PartitionTrace r : records) {
            for (PartitionTrace.Interval i : r.intervals()) {
                ArrayNode list = workers.has(i.worker()) ? (ArrayNode) workers.get(i.worker()) : workers.putArray(i.worker());
                list.addObject().put("phase", i.phase()).put("device", i.onDevice()).put("job", r.job()).put("partition", r.partition())
                        .put("start", (i.start() - now) / 1e9).put("end", (i.end() - now) / 1e9);
            }
        }
        ObjectNode devices = root.putObject("devices");
        for (int d = 0; d < deviceNames.size(); d++) {
            ArrayNode list = devices.putArray(deviceNames.get(d));
            String prefix = "device-" + d + "-worker-"; // the engine's names of device d's workers
            workers.properties().stream().map(Map.Entry::getKey).filter(w -> w.startsWith(prefix)).sorted().forEach(list::add);
        }
        try {
            return json.writeValueAsBytes(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The utilization graph's resolution: the seed's dashboard showed 0.2 s. */
    static final double UTILIZATION_BIN_SECONDS = 0.2;
    /** Ten minutes of bins, what the devices' interval rings hold at some 27 partitions a second. */
    static final int MAX_UTILIZATION_BINS = 3000;

    /**
     * {"step": 0.2, "devices": {"device-0-cpu": [0.93, 1.0, ...]}}: each device's busy share per bin,
     * oldest first, the last bin ending now.
     */
    static byte[] utilization(Map<String, double[]> shares) {
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = json.createObjectNode().put("step", UTILIZATION_BIN_SECONDS);
        ObjectNode devices = root.putObject("devices");
        shares.forEach((name, bins) -> {
            ArrayNode a = devices.putArray(name);
            for (double b : bins) {
                a.add(Math.round(b * 1e4) / 1e4);
            }
        });
        try {
            return json.writeValueAsBytes(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The status page's files: index.html, status.js and status.css of this package, and uPlot's
     * script and style from its webjar (served from the jar: the page works offline).
     */
    private static final Map<String, byte[]> PAGE = page();

    private static Map<String, byte[]> page() {
        try {
            Map<String, byte[]> files = new java.util.HashMap<>();
            for (String name : List.of("index.html", "status.js", "status.css")) {
                files.put(name, resource(HttpEndpoints.class.getResourceAsStream("status/" + name), "status/" + name));
            }
            ClassLoader loader = HttpEndpoints.class.getClassLoader();
            java.util.Properties uplot = new java.util.Properties();
            try (java.io.InputStream in = loader.getResourceAsStream("META-INF/maven/org.webjars.npm/uplot/pom.properties")) {
                if (in == null) {
                    throw new IllegalStateException("uPlot's webjar (org.webjars.npm:uplot) is not on the class path");
                }
                uplot.load(in);
            }
            String dist = "META-INF/resources/webjars/uplot/" + uplot.getProperty("version") + "/dist/";
            files.put("uPlot.iife.min.js", resource(loader.getResourceAsStream(dist + "uPlot.iife.min.js"), dist + "uPlot.iife.min.js"));
            files.put("uPlot.min.css", resource(loader.getResourceAsStream(dist + "uPlot.min.css"), dist + "uPlot.min.css"));
            return Map.copyOf(files);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static byte[] resource(java.io.InputStream in, String name) throws IOException {
        if (in == null) {
            throw new IllegalStateException("the status page's " + name + " is missing from the daemon's jars");
        }
        try (in) {
            return in.readAllBytes();
        }
    }

    /** A TLS context serving the daemon's certificate chain and PKCS#8 private key (PEM), as its gRPC side does. */
    static javax.net.ssl.SSLContext sslContext(java.nio.file.Path certFile, java.nio.file.Path keyFile) throws IOException {
        try {
            java.util.Collection<? extends java.security.cert.Certificate> chain;
            try (java.io.InputStream in = java.nio.file.Files.newInputStream(certFile)) {
                chain = java.security.cert.CertificateFactory.getInstance("X.509").generateCertificates(in);
            }
            String pem = java.nio.file.Files.readString(keyFile, StandardCharsets.US_ASCII);
            if (!pem.contains("-----BEGIN PRIVATE KEY-----")) {
                throw new IOException(keyFile + ": the TLS key must be PKCS#8 PEM (BEGIN PRIVATE KEY; openssl pkcs8 -topk8 -nocrypt converts)");
            }
            byte[] der = java.util.Base64.getMimeDecoder().decode(pem.substring(pem.indexOf("-----BEGIN PRIVATE KEY-----") + 27,
                    pem.indexOf("-----END PRIVATE KEY-----")));
            java.security.spec.PKCS8EncodedKeySpec spec = new java.security.spec.PKCS8EncodedKeySpec(der);
            java.security.PrivateKey key = null;
            for (String alg : List.of("EC", "RSA", "Ed25519")) {
                try {
                    key = java.security.KeyFactory.getInstance(alg).generatePrivate(spec);
                    break;
                } catch (java.security.spec.InvalidKeySpecException notThisOne) {
                    // the next algorithm
                }
            }
            if (key == null) {
                throw new IOException(keyFile + ": not an EC, RSA or Ed25519 private key");
            }
            java.security.KeyStore ks = java.security.KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            ks.setKeyEntry("cuzk", key, new char[0], chain.toArray(new java.security.cert.Certificate[0]));
            javax.net.ssl.KeyManagerFactory kmf = javax.net.ssl.KeyManagerFactory.getInstance(javax.net.ssl.KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, new char[0]);
            javax.net.ssl.SSLContext ctx = javax.net.ssl.SSLContext.getInstance("TLS");
            ctx.init(kmf.getKeyManagers(), null, null);
            return ctx;
        } catch (java.security.GeneralSecurityException e) {
            throw new IOException("the TLS certificate or key cannot be used: " + e.getMessage(), e);
        }
    }

    /** ?name=S: S seconds before now (default 60, at most a day) as a nanoTime, or null if S is no number. */
    private static Long since(HttpExchange x, String name, long now) {
        double seconds = 60;
        String q = x.getRequestURI().getQuery();
        if (q != null && q.startsWith(name + "=")) {
            try {
                seconds = Double.parseDouble(q.substring(name.length() + 1));
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return now - (long) (Math.max(0, Math.min(seconds, 86_400)) * 1e9);
    }

    private static Reply badSeconds(HttpExchange x, String name) {
        return new Reply(400, "text/plain", (x.getRequestURI().getQuery() + ": " + name + " must be a number of seconds\n")
                .getBytes(StandardCharsets.UTF_8));
    }

    int port() {
        return http.getAddress().getPort();
    }

    void stop() {
        http.stop(0);
        ((java.util.concurrent.ExecutorService) http.getExecutor()).shutdownNow();
    }

    private record Reply(int code, String type, byte[] body) {}

    private interface Body {
        Reply get() throws IOException;
    }

    private static void serve(HttpExchange x, byte[] expected, Body body) throws IOException {
        try (x) {
            Reply r;
            if (!x.getRequestMethod().equals("GET") && !x.getRequestMethod().equals("HEAD")) {
                r = new Reply(405, "text/plain", "only GET\n".getBytes(StandardCharsets.UTF_8));
            } else if (expected != null && !authorized(x, expected)) {
                r = new Reply(401, "text/plain", "this daemon needs its bearer token (authorization: Bearer ...)\n"
                        .getBytes(StandardCharsets.UTF_8));
            } else {
                try {
                    r = body.get();
                } catch (IOException | RuntimeException e) {
                    r = new Reply(500, "text/plain", ("cuzk serve: " + e + "\n").getBytes(StandardCharsets.UTF_8));
                }
            }
            x.getResponseHeaders().set("Content-Type", r.type());
            x.getResponseHeaders().set("Cache-Control", "no-store");
            x.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
            if (r.type().startsWith("text/html")) { // the page runs its own scripts and talks to this daemon only
                x.getResponseHeaders().set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'");
            }
            boolean head = x.getRequestMethod().equals("HEAD");
            x.sendResponseHeaders(r.code(), head ? -1 : r.body().length);
            if (!head) {
                try (OutputStream out = x.getResponseBody()) {
                    out.write(r.body());
                }
            }
        }
    }

    private static boolean authorized(HttpExchange x, byte[] expected) {
        String given = x.getRequestHeaders().getFirst("Authorization");
        return given != null && MessageDigest.isEqual(expected, TokenCheck.digest(given));
    }

    /** One engine snapshot per scrape: the callbacks of one scrape run within a few milliseconds. */
    private static Supplier<EngineStatus> memo(Supplier<EngineStatus> s) {
        return new Supplier<>() {
            private EngineStatus last;
            private long at;

            @Override
            public synchronized EngineStatus get() {
                long now = System.nanoTime();
                if (last == null || now - at > 100_000_000L) {
                    last = s.get();
                    at = now;
                }
                return last;
            }
        };
    }

    /** A classic Prometheus histogram (seconds) of the engine's distributions, one series per label value. */
    static io.prometheus.metrics.model.snapshots.HistogramSnapshot histogram(String name, String help, String label,
            List<Map.Entry<String, EngineStatus.Percentiles>> series) {
        double[] boundsMs = EngineStatus.Percentiles.BOUNDS_MS;
        double[] bounds = new double[boundsMs.length + 1];
        for (int i = 0; i < boundsMs.length; i++) {
            bounds[i] = boundsMs[i] / 1e3;
        }
        bounds[boundsMs.length] = Double.POSITIVE_INFINITY;
        io.prometheus.metrics.model.snapshots.HistogramSnapshot.Builder b = io.prometheus.metrics.model.snapshots.HistogramSnapshot.builder()
                .name(name).help(help);
        for (Map.Entry<String, EngineStatus.Percentiles> e : series) {
            b.dataPoint(io.prometheus.metrics.model.snapshots.HistogramSnapshot.HistogramDataPointSnapshot.builder()
                    .labels(io.prometheus.metrics.model.snapshots.Labels.of(label, e.getKey()))
                    .classicHistogramBuckets(io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets.of(bounds, e.getValue().buckets()))
                    .sum(e.getValue().sumMs() / 1e3).build());
        }
        return b.build();
    }

    private static void register(PrometheusRegistry r, Supplier<EngineStatus> status, ProverService service, KeyDirectory keys) {
        GaugeWithCallback.builder().name("cuzk_device_utilization").help("busy share of the time work waited for the device, since start")
                .labelNames("device").callback(cb -> status.get().devices().forEach(d -> cb.call(d.utilization(), d.name()))).register(r);
        GaugeWithCallback.builder().name("cuzk_device_recent_utilization").help("busy share over the last 10 seconds")
                .labelNames("device").callback(cb -> status.get().devices().forEach(d -> cb.call(d.recentUtilization(), d.name())))
                .register(r);
        CounterWithCallback.builder().name("cuzk_device_busy_seconds").help("seconds the device ran kernels").labelNames("device")
                .callback(cb -> status.get().devices().forEach(d -> cb.call(d.busySeconds(), d.name()))).register(r);
        CounterWithCallback.builder().name("cuzk_device_partitions").help("partitions the device proved").labelNames("device")
                .callback(cb -> status.get().devices().forEach(d -> cb.call(d.partitions(), d.name()))).register(r);
        // what the daemon reports to balancing clients through ORCA, as last sampled
        GaugeWithCallback.builder().name("cuzk_reported_load").help("the load reported to balancing clients (ORCA), over the last "
                + LoadReports.WINDOW_SECONDS + " s: qps (partitions proved per second), utilization (partitions held per device worker; "
                + "clients weigh the daemon qps / utilization), device_busy, memory, eps").labelNames("figure")
                .callback(cb -> {
                    LoadReports l = service.load;
                    if (l != null) {
                        LoadReports.Load x = l.last();
                        cb.call(x.qps(), "qps");
                        cb.call(x.applicationUtilization(), "utilization");
                        cb.call(x.busy(), "device_busy");
                        cb.call(x.memoryUtilization(), "memory");
                        cb.call(x.eps(), "eps");
                    }
                }).register(r);
        GaugeWithCallback.builder().name("cuzk_device_longest_chain").help("most partitions run back to back (gaps under 1 ms)")
                .labelNames("device").callback(cb -> status.get().devices().forEach(d -> cb.call(d.longestChain(), d.name()))).register(r);
        r.register(() -> histogram("cuzk_device_idle_gap_seconds", "idle gaps of the device while work waited", "device",
                status.get().devices().stream().map(d -> Map.entry(d.name(), d.gapsMs())).toList()));
        GaugeWithCallback.builder().name("cuzk_device_idle_gap_quantile_seconds")
                .help("idle gaps of the device while work waited: their 50th and 99th percentile and maximum").labelNames("device", "percentile")
                .callback(cb -> status.get().devices().forEach(d -> {
                    cb.call(d.gapsMs().p50() / 1e3, d.name(), "50");
                    cb.call(d.gapsMs().p99() / 1e3, d.name(), "99");
                    cb.call(d.gapsMs().max() / 1e3, d.name(), "100");
                })).register(r);
        GaugeWithCallback.builder().name("cuzk_partitions").help("partitions in each state now").labelNames("state")
                .callback(cb -> {
                    for (Map.Entry<PartitionState, Integer> q : status.get().queues().entrySet()) {
                        cb.call(q.getValue(), q.getKey().name().toLowerCase(Locale.ROOT));
                    }
                }).register(r);
        CounterWithCallback.builder().name("cuzk_partitions_ended").help("partitions ended, by outcome").labelNames("outcome")
                .callback(cb -> {
                    EngineStatus.Counters c = status.get().counters();
                    cb.call(c.partitionsDone(), "done");
                    cb.call(c.partitionsFailed(), "failed");
                    cb.call(c.partitionsCancelled(), "cancelled");
                }).register(r);
        CounterWithCallback.builder().name("cuzk_self_checks").help("proofs verified before they were handed out (serve --self-check), by "
                + "outcome").labelNames("outcome").callback(cb -> {
                    EngineStatus.Counters c = status.get().counters();
                    cb.call(c.selfChecks() - c.selfCheckFailures(), "valid");
                    cb.call(c.selfCheckFailures(), "invalid");
                }).register(r);
        CounterWithCallback.builder().name("cuzk_self_check_seconds").help("time the self-checks took, in the finalizers")
                .callback(cb -> cb.call(status.get().counters().selfCheckSeconds())).register(r);
        CounterWithCallback.builder().name("cuzk_jobs_submitted").help("jobs accepted")
                .callback(cb -> cb.call(status.get().counters().jobsSubmitted())).register(r);
        CounterWithCallback.builder().name("cuzk_jobs_ended").help("jobs ended, by outcome").labelNames("outcome")
                .callback(cb -> {
                    EngineStatus.Counters c = status.get().counters();
                    cb.call(c.jobsDone(), "done");
                    cb.call(c.jobsFailed(), "failed");
                    cb.call(c.jobsCancelled(), "cancelled");
                }).register(r);
        r.register(() -> histogram("cuzk_partition_phase_seconds", "time partitions spent in each phase; phase=\"total\" is a proof's"
                + " latency from submission to its proof", "phase", status.get().phasesMs().entrySet().stream()
                        .map(e -> Map.entry(e.getKey().label(), e.getValue())).toList()));
        GaugeWithCallback.builder().name("cuzk_phase_quantile_seconds")
                .help("time partitions spent in each phase: 50th and 99th percentile and maximum since start").labelNames("phase", "percentile")
                .callback(cb -> {
                    for (Map.Entry<Phase, EngineStatus.Percentiles> e : status.get().phasesMs().entrySet()) {
                        cb.call(e.getValue().p50() / 1e3, e.getKey().label(), "50");
                        cb.call(e.getValue().p99() / 1e3, e.getKey().label(), "99");
                        cb.call(e.getValue().max() / 1e3, e.getKey().label(), "100");
                    }
                }).register(r);
        GaugeWithCallback.builder().name("cuzk_memory_bytes").help("the memory budget and the slab pool, in bytes").labelNames("kind")
                .callback(cb -> {
                    EngineStatus.Memory m = status.get().memory();
                    cb.call(m.budgetCapacity(), "budget");
                    cb.call(m.budgetUsed(), "budget_used");
                    cb.call(m.budgetPeak(), "budget_peak");
                    cb.call(m.poolAllocated(), "pool");
                    cb.call(m.poolInUse(), "pool_in_use");
                    cb.call(m.poolIdle(), "pool_idle");
                    cb.call(m.poolPeak(), "pool_peak");
                    cb.call(m.pinned(), "pinned");
                }).register(r);
        CounterWithCallback.builder().name("cuzk_pool_returned_bytes").help("idle pool memory given back to the system")
                .callback(cb -> cb.call(status.get().memory().poolReturnedBytes())).register(r);
        GaugeWithCallback.builder().name("cuzk_lookahead").help("partitions admitted ahead of the devices: the bound and now")
                .labelNames("kind").callback(cb -> {
                    EngineStatus.Lookahead l = status.get().lookahead();
                    cb.call(l.limit(), "limit");
                    cb.call(l.admitted(), "admitted");
                }).register(r);
        GaugeWithCallback.builder().name("cuzk_keys_resident").help("proving keys read into memory")
                .callback(cb -> cb.call(keys.resident().size())).register(r);
        CounterWithCallback.builder().name("cuzk_key_loads").help("proving keys read from the key folder, by outcome").labelNames("outcome")
                .callback(cb -> {
                    cb.call(keys.loads.sum(), "done");
                    cb.call(keys.loadFailures.sum(), "failed");
                }).register(r);
        CounterWithCallback.builder().name("cuzk_key_load_seconds").help("time spent reading proving keys")
                .callback(cb -> cb.call(keys.loadSeconds.sum())).register(r);
        GaugeWithCallback.builder().name("cuzk_draining").help("1 while the daemon drains for shutdown")
                .callback(cb -> cb.call(service.draining() ? 1 : 0)).register(r);
    }
}
