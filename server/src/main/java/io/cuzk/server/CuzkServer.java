package io.cuzk.server;

import io.cuzk.engine.Config;
import io.cuzk.engine.Engine;
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.ServerCredentials;
import io.grpc.ServerInterceptors;
import io.grpc.TlsServerCredentials;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.protobuf.services.ProtoReflectionServiceV1;
import io.grpc.ServerBuilder;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The proving daemon: the cuzk.v1.Prover service, gRPC health and server reflection over one
 * engine and one key folder. Listens on 127.0.0.1 unless told otherwise; any other address needs
 * TLS or an explicit insecure choice. {@link #close()} drains: no new jobs (health NOT_SERVING,
 * Submit UNAVAILABLE), accepted jobs finish within the drain time, the rest are cancelled and their
 * waiting clients told why; then the server and the engine stop.
 */
public final class CuzkServer implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("io.cuzk.server");
    static final String SERVICE = "cuzk.v1.Prover";

    private final Server server;
    private final Engine engine;
    private final KeyDirectory keys;
    private final ProverService service;
    private final HealthStatusManager health;
    private final ScheduledExecutorService ticker;
    private final ExecutorService completions;
    private final Duration drainTimeout;
    private final HttpEndpoints http;
    private final LoadReports load;
    private final AtomicBoolean closed = new AtomicBoolean();

    private CuzkServer(Builder b, KeyDirectory keys) throws IOException {
        this.keys = keys;
        this.drainTimeout = b.drainTimeout;
        this.completions = Executors.newFixedThreadPool(2, Thread.ofPlatform().daemon().name("cuzk-serve-results-", 0).factory());
        this.ticker = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name("cuzk-serve-ticker").factory());
        this.engine = b.contendedStall == null ? Engine.start(b.engine) : io.cuzk.engine.ContendedBaseline.start(b.engine, b.contendedStall);
        try {
            // after the drain, late completions (a cancelled job's release) run on the caller's thread
            java.util.concurrent.Executor results = r -> {
                try {
                    completions.execute(r);
                } catch (java.util.concurrent.RejectedExecutionException stopped) {
                    r.run();
                }
            };
            this.service = new ProverService(b.name != null ? b.name : defaultName(b, b.port), engine, keys, new ServerLimits(b.maxWitnessBytes, b.maxQueuedPartitions, b.maxReceivingBytes, b.resultTtl),
                    results);
            this.health = new HealthStatusManager();
            ServerBuilder<?> sb;
            if (b.inProcessName != null) {
                sb = InProcessServerBuilder.forName(b.inProcessName);
            } else {
                ServerCredentials creds = b.tlsCert != null ? TlsServerCredentials.create(b.tlsCert.toFile(), b.tlsKey.toFile())
                        : InsecureServerCredentials.create();
                // pings find a client that vanished without closing its connection (its host down, the
                // network cut): its calls end, and a Run's job with them; clients may ping every 10 s
                sb = NettyServerBuilder.forAddress(new InetSocketAddress(b.host, b.port), creds).keepAliveTime(30, TimeUnit.SECONDS)
                        .keepAliveTimeout(10, TimeUnit.SECONDS).permitKeepAliveTime(10, TimeUnit.SECONDS);
            }
            sb.maxInboundMessageSize(b.maxMessageBytes);
            this.load = new LoadReports(engine, service, b.maxQueuedPartitions, b.engine.devices().size() * b.engine.workersPerDevice());
            service.load = load;
            // every Prover call's trailers carry the load too (clients balancing without the
            // out-of-band stream read it there)
            io.grpc.ServerInterceptor orcaTrailers = io.grpc.xds.orca.OrcaMetricReportingServerInterceptor.create(load.recorder);
            if (b.token != null) {
                TokenCheck check = new TokenCheck(b.token);
                sb.addService(ServerInterceptors.intercept(service, orcaTrailers, check));
                sb.addService(ServerInterceptors.intercept(ProtoReflectionServiceV1.newInstance(), check));
            } else {
                sb.addService(ServerInterceptors.intercept(service, orcaTrailers));
                sb.addService(ProtoReflectionServiceV1.newInstance());
            }
            // health and the load reports need no token, as a balancing client's channel asks for
            // them on each connection without the caller's credentials; they tell no job's data
            sb.addService(health.getHealthService());
            sb.addService(io.grpc.xds.orca.OrcaServiceImpl.createService(ticker, load.recorder, 1, TimeUnit.SECONDS));
            this.server = sb.build().start();
            if (b.name == null && b.inProcessName == null) {
                service.name = defaultName(b, server.getPort()); // the port chosen, when asked for port 0
            }
            try {
                this.http = b.httpHost == null ? null : new HttpEndpoints(b.httpHost, b.httpPort, engine, service, keys, b.token, b.tlsCert,
                        b.tlsKey);
            } catch (IOException | RuntimeException e) {
                server.shutdownNow();
                throw e;
            }
            health.setStatus("", ServingStatus.SERVING);
            health.setStatus(SERVICE, ServingStatus.SERVING);
            ticker.scheduleWithFixedDelay(this::tick, 100, 100, TimeUnit.MILLISECONDS);
            ticker.scheduleAtFixedRate(this::sampleLoad, 0, 1, TimeUnit.SECONDS);
        } catch (IOException | RuntimeException e) {
            engine.shutdownNow();
            completions.shutdownNow();
            ticker.shutdownNow();
            throw e;
        }
    }

    private void sampleLoad() {
        try {
            load.sample();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "cuzk serve: load report: " + e);
        }
    }

    /** The daemon's name when not given: the address it listens on, with the host's name for a wildcard address. */
    private static String defaultName(Builder b, int port) {
        if (b.inProcessName != null) {
            return b.inProcessName;
        }
        String host = b.host;
        try {
            if (InetAddress.getByName(host).isAnyLocalAddress()) {
                host = InetAddress.getLocalHost().getHostName();
            }
        } catch (IOException e) {
            // the listening address as given
        }
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    private void tick() {
        try {
            service.tick();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "cuzk serve: " + e);
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    public static final class Builder {
        private String host = "127.0.0.1";
        private int port = 7878;
        private String inProcessName;
        private Path keyDir;
        private boolean preload;
        private Config engine;
        private Duration contendedStall;
        private Path tlsCert, tlsKey;
        private boolean insecure;
        private String token;
        private Duration drainTimeout = Duration.ofSeconds(60);
        private Duration resultTtl = Duration.ofMinutes(10);
        private long maxWitnessBytes = 1L << 30;
        // witnesses stream into the Java heap until their job is accepted: half of it at most
        private long maxReceivingBytes = Runtime.getRuntime().maxMemory() / 2;
        private long maxQueuedPartitions = 10_000;
        private int maxMessageBytes = 8 << 20;
        private String httpHost;
        private int httpPort;
        private String name;

        /** The daemon's name in its status and its jobs' events (default: host:port listened on). */
        public Builder name(String name) {
            this.name = name == null || name.isBlank() ? null : name.strip();
            return this;
        }

        /** Also serve /metrics, /api/status, /api/timeline and /trace here: HTTPS with TLS; off loopback only with TLS or insecure. */
        public Builder http(String host, int port) {
            this.httpHost = host;
            this.httpPort = port;
            return this;
        }

        /** Where to listen: 127.0.0.1:7878 by default; port 0 picks a free port ({@link #port()} says which). */
        public Builder listen(String host, int port) {
            this.host = Objects.requireNonNull(host, "host");
            this.port = port;
            return this;
        }

        /** An in-process server of that name instead of a socket (tests). */
        public Builder inProcess(String name) {
            this.inProcessName = name;
            return this;
        }

        /** The folder whose .zkey files the daemon serves. */
        public Builder keys(Path dir) {
            this.keyDir = dir;
            return this;
        }

        /** Read every key at start instead of at its first job. */
        public Builder preload(boolean v) {
            this.preload = v;
            return this;
        }

        public Builder engine(Config config) {
            this.engine = config;
            return this;
        }

        /**
         * Runs the engine with the contended status tracker it replaces (finalizers holding its lock
         * across a stall of this length), to show that design's idle gaps on the status page and in
         * traces; never for production. Null: the engine's own lock-free tracker (the default).
         */
        public Builder contendedBaseline(Duration stall) {
            this.contendedStall = stall;
            return this;
        }

        /** TLS with this certificate chain and private key (PEM). */
        public Builder tls(Path cert, Path key) {
            this.tlsCert = cert;
            this.tlsKey = key;
            return this;
        }

        /** Allows plaintext on an address other than loopback. */
        public Builder insecure(boolean v) {
            this.insecure = v;
            return this;
        }

        /** A bearer token every call but health must carry. */
        public Builder token(String token) {
            this.token = token == null || token.isBlank() ? null : token.strip();
            return this;
        }

        public Builder drainTimeout(Duration d) {
            this.drainTimeout = d;
            return this;
        }

        public Builder resultTtl(Duration d) {
            this.resultTtl = d;
            return this;
        }

        /** Witness bytes of submissions still streaming in, over all of them, at most (default: half the Java heap). */
        public Builder maxReceivingBytes(long v) {
            this.maxReceivingBytes = v;
            return this;
        }

        public Builder maxWitnessBytes(long v) {
            this.maxWitnessBytes = v;
            return this;
        }

        public Builder maxQueuedPartitions(long v) {
            this.maxQueuedPartitions = v;
            return this;
        }

        public Builder maxMessageBytes(int v) {
            this.maxMessageBytes = v;
            return this;
        }

        /** Checks the settings, scans the keys and starts serving. */
        public CuzkServer start() throws IOException {
            if (keyDir == null) {
                throw new IllegalArgumentException("the daemon needs a key folder (--keys DIR)");
            }
            if ((tlsCert == null) != (tlsKey == null)) {
                throw new IllegalArgumentException("TLS needs both a certificate (--tls-cert) and its key (--tls-key)");
            }
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("the port must be 0..65535: " + port);
            }
            if (maxWitnessBytes <= 0 || maxQueuedPartitions <= 0 || maxReceivingBytes <= 0 || maxMessageBytes < 1 << 20) {
                throw new IllegalArgumentException("the limits must be positive and messages at least 1 MiB");
            }
            if (maxWitnessBytes > 2047L << 20) {
                throw new IllegalArgumentException("a job's witnesses may be at most 2047 MiB (one partition's bytes are one array)");
            }
            if (drainTimeout.isNegative() || resultTtl.isNegative()) {
                throw new IllegalArgumentException("the drain and result times must not be negative");
            }
            if (inProcessName == null && tlsCert == null && !insecure && !loopback(host)) {
                throw new IllegalArgumentException("listening on " + host + ", which is not a loopback address, needs TLS"
                        + " (--tls-cert and --tls-key) or an explicit --insecure");
            }
            if (httpHost != null && tlsCert == null && !insecure && !loopback(httpHost)) {
                throw new IllegalArgumentException("HTTP on " + httpHost + ", which is not a loopback address, needs TLS"
                        + " (--tls-cert and --tls-key: it is then HTTPS) or an explicit --insecure");
            }
            if (httpHost != null && (httpPort < 0 || httpPort > 65535)) {
                throw new IllegalArgumentException("the HTTP port must be 0..65535: " + httpPort);
            }
            if (engine == null) {
                engine = Config.builder().build();
            }
            KeyDirectory keys = KeyDirectory.scan(keyDir);
            try {
                if (preload) {
                    keys.preload();
                }
                return new CuzkServer(this, keys);
            } catch (IOException | RuntimeException e) {
                keys.close();
                throw e;
            }
        }
    }

    static boolean loopback(String host) {
        try {
            for (InetAddress a : InetAddress.getAllByName(host)) {
                if (!a.isLoopbackAddress()) {
                    return false;
                }
            }
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** The port listened on (the one chosen when asked for port 0); -1 in process. */
    public int port() {
        return server.getPort();
    }

    /** The HTTP port (the one chosen when asked for port 0), or -1 without HTTP. */
    public int httpPort() {
        return http == null ? -1 : http.port();
    }

    /** How many keys the folder holds. */
    public int keyCount() {
        return keys.size();
    }

    public Path keyFolder() {
        return keys.dir();
    }

    /** Waits until the server has stopped. */
    public void awaitTermination() throws InterruptedException {
        server.awaitTermination();
    }

    /** Submissions being accepted (their witnesses read or calculated): for tests. */
    int accepting() {
        return service.accepting();
    }

    static String version() {
        String v = CuzkServer.class.getPackage().getImplementationVersion();
        return v != null ? v : "0.1.0-SNAPSHOT";
    }

    /**
     * Stops accepting jobs, lets the accepted ones finish for up to timeout, cancels the rest
     * (their clients get CANCELLED with the reason), then stops the server and the engine. Returns
     * how many jobs it had to cancel. An interrupt ends the wait early (the rest is cancelled) and
     * is kept for the caller to see. Only the first call drains; later ones return 0.
     */
    public int drain(Duration timeout) {
        if (!closed.compareAndSet(false, true)) {
            return 0;
        }
        boolean interrupted = false;
        service.drain();
        health.setStatus("", ServingStatus.NOT_SERVING);
        health.setStatus(SERVICE, ServingStatus.NOT_SERVING);
        long deadline = System.nanoTime() + timeout.toNanos();
        // a Submit past its draining check becomes a job a moment later: wait for those too
        while ((service.accepting() > 0 || !service.running().isEmpty()) && System.nanoTime() < deadline && !interrupted) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        // past the drain time, an accept still in progress (a key being read) is waited for, so
        // that no job the engine accepted escapes the cancellation below; one calculating the
        // witnesses of its inputs stops at the next
        service.drainTimeOver();
        while (service.accepting() > 0) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        List<ServerJob> left = service.running();
        int cancelled = 0;
        for (ServerJob j : left) {
            j.cancelReason = "the daemon shut down before the job finished (drain time " + timeout.toSeconds() + " s)";
            j.shutDown = true;
            if (j.handle.cancel()) {
                cancelled++;
            }
        }
        for (ServerJob j : left) {
            try {
                j.done.get(10, TimeUnit.SECONDS); // its watchers have been told
            } catch (InterruptedException e) {
                interrupted = true;
            } catch (java.util.concurrent.ExecutionException | TimeoutException e) {
                LOG.log(System.Logger.Level.WARNING, "cuzk serve: job " + j.id + " did not end after its cancellation: " + e);
            }
        }
        service.tick(); // final events to any watcher still attached
        health.enterTerminalState();
        server.shutdown();
        try {
            if (!server.awaitTermination(5, TimeUnit.SECONDS)) {
                server.shutdownNow();
            }
        } catch (InterruptedException e) {
            interrupted = true;
            server.shutdownNow();
        }
        ticker.shutdownNow();
        if (http != null) {
            http.stop();
        }
        engine.close();
        completions.shutdown();
        // the keys go only once the engine released every job: a kernel it could not stop may
        // still read its key, and then the key stays for the process's exit to reclaim
        long keysDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (service.unreleased.get() > 0 && System.nanoTime() < keysDeadline) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                interrupted = true;
                break;
            }
        }
        if (service.unreleased.get() == 0) {
            try {
                keys.close();
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "cuzk serve: a key could not be closed: " + e);
            }
        } else {
            LOG.log(System.Logger.Level.WARNING, "cuzk serve: " + service.unreleased.get() + " jobs still held by the engine;"
                    + " their keys are left to the process's exit");
        }
        if (cancelled > 0) {
            LOG.log(System.Logger.Level.WARNING, "cuzk serve: cancelled " + cancelled + " jobs that did not finish within the drain time");
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return cancelled;
    }

    /** Drains for the configured drain time ({@link #drain}). */
    @Override
    public void close() {
        drain(drainTimeout);
    }
}
