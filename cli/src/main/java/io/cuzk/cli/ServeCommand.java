package io.cuzk.cli;

import io.cuzk.Backend;
import io.cuzk.engine.Config;
import io.cuzk.engine.TrackerMode;
import io.cuzk.server.CuzkServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/**
 * {@code cuzk serve --keys DIR}: the proving daemon. Runs until SIGTERM or SIGINT, then drains:
 * no new jobs, accepted ones finish within --drain-timeout-s, the rest are cancelled and their
 * clients told so.
 */
final class ServeCommand implements CliCommand {
    @Override
    public CommandSpec spec() {
        CommandSpec spec = Specs.command("serve", "The proving daemon: a gRPC API (cuzk.v1.Prover, health, reflection) through "
                + "which provers submit jobs against the keys of one folder. Listens on 127.0.0.1 unless told otherwise; SIGTERM "
                + "drains it. See docs/daemon.md.");
        spec.addOption(Specs.required("--keys", "DIR", Path.class, "the folder whose .zkey files the daemon serves, named by file name"));
        spec.addOption(Specs.option("--listen", "HOST:PORT", String.class, "127.0.0.1:7878",
                "where to listen; an address other than loopback needs --tls-cert and --tls-key, or --insecure"));
        spec.addOption(Specs.flag("--preload", "read every key at start instead of at its first job"));
        spec.addOption(Specs.option("--name", "NAME", String.class, null, "the daemon's name in its status and its jobs' results "
                + "(default: HOST:PORT listened on, the host's name for a wildcard address)"));
        spec.addOption(Specs.option("--http", "HOST:PORT", String.class, null,
                "also serve the status page (/), /metrics (Prometheus), /api/status, /api/utilization, /api/timeline and "
                        + "/trace?seconds=N here: HTTPS with --tls-cert; an address other than loopback needs TLS or --insecure"));
        spec.addOption(Specs.option("--tls-cert", "FILE", Path.class, null, "TLS: the certificate chain (PEM)"));
        spec.addOption(Specs.option("--tls-key", "FILE", Path.class, null, "TLS: its private key (PEM, PKCS#8)"));
        spec.addOption(Specs.flag("--insecure", "allow plaintext on an address other than loopback"));
        spec.addOption(Specs.option("--token-file", "FILE", Path.class, null,
                "require this bearer token (the file's first line) on every call but health"));
        spec.addOption(Specs.option("--drain-timeout-s", "S", int.class, "60", "on SIGTERM, how long accepted jobs may take to finish"));
        spec.addOption(Specs.option("--result-ttl-s", "S", int.class, "600", "how long a finished job's proofs stay retrievable"));
        spec.addOption(Specs.option("--max-witness-mib", "M", int.class, "1024", "the witnesses of one job, in MiB, at most (up to 2047)"));
        spec.addOption(Specs.option("--max-queued", "P", int.class, "10000", "partitions accepted and not yet proved, at most"));
        spec.addOption(Specs.option("--max-receiving-mib", "M", Integer.class, null, "witness bytes of submissions still streaming "
                + "in, over all of them, at most (default: half the Java heap)"));
        spec.addOption(Specs.option("--max-message-mib", "M", int.class, "8",
                "the largest gRPC message accepted (Prove's witnesses travel in one)"));
        spec.addOption(Specs.option("--budget-mib", "M", Integer.class, null, "the engine's memory budget in MiB (default: half the "
                + "physical memory)"));
        spec.addOption(Specs.option("--workers-per-device", "K", int.class, "2", "device workers per device"));
        spec.addOption(Specs.flag("--self-check", "verify every proof in the finalizers before it is handed out; one that does not "
                + "verify fails its job with a clear reason"));
        spec.addOption(Specs.option("--tracker", "lockfree|contended", TrackerMode.class, "lockfree",
                "the engine's lock-free status tracker, or the contended baseline it replaces (to show its idle gaps; never for production)"));
        spec.addOption(Specs.option("--stall-ms", "MS", int.class, "200", "with --tracker contended: the finalizers' stall under the lock"));
        spec.addOption(Specs.outputFileOption("--port-file", "FILE",
                "write the port listened on into FILE once serving (useful with port 0)"));
        Backends.addOptions(spec);
        return spec;
    }

    static String host(String option, String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        if (colon < 0) {
            throw new InvalidInputException(option + " " + hostPort + ": expected HOST:PORT");
        }
        String host = hostPort.substring(0, colon);
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    static int port(String option, String hostPort) {
        host(option, hostPort);
        try {
            return Integer.parseInt(hostPort.substring(hostPort.lastIndexOf(':') + 1));
        } catch (NumberFormatException e) {
            throw new InvalidInputException(option + " " + hostPort + ": the port is not a number");
        }
    }

    @Override
    public int run(Main root, ParseResult parsed) {
        Path keys = Specs.value(parsed, "--keys");
        String listen = Specs.value(parsed, "--listen");
        String host = host("--listen", listen);
        int port = port("--listen", listen);
        Path tokenFile = Specs.value(parsed, "--token-file");
        String token = null;
        if (tokenFile != null) {
            try {
                token = Files.readString(tokenFile, StandardCharsets.UTF_8).lines().findFirst().orElse("").strip();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            if (token.isEmpty()) {
                throw new InvalidInputException(tokenFile + ": the token file is empty");
            }
        }
        Integer budgetMib = Specs.value(parsed, "--budget-mib");
        Backend backend = Backends.backend(parsed, root.err);
        Config.Builder cfg = Config.builder().devices(List.of(backend)).selfCheck(Specs.value(parsed, "--self-check"))
                .workersPerDevice(Specs.intValue(parsed, "--workers-per-device", 1, 64));
        if (budgetMib != null) {
            cfg.memoryBudgetBytes((long) Specs.inRange(parsed, "--budget-mib", budgetMib, 1, Integer.MAX_VALUE) << 20);
        }
        Path cert = Specs.value(parsed, "--tls-cert"), key = Specs.value(parsed, "--tls-key");
        CuzkServer.Builder b = CuzkServer.builder().listen(host, port).name(Specs.value(parsed, "--name")).keys(keys).preload(Specs.value(parsed, "--preload"))
                .insecure(Specs.value(parsed, "--insecure")).token(token).engine(cfg.build())
                .drainTimeout(Duration.ofSeconds(Specs.intValue(parsed, "--drain-timeout-s", 0, 86_400)))
                .resultTtl(Duration.ofSeconds(Specs.intValue(parsed, "--result-ttl-s", 0, 30 * 86_400)))
                .maxWitnessBytes((long) Specs.intValue(parsed, "--max-witness-mib", 1, 2047) << 20)
                .maxQueuedPartitions(Specs.intValue(parsed, "--max-queued", 1, Integer.MAX_VALUE))
                .maxMessageBytes(Specs.intValue(parsed, "--max-message-mib", 1, 1024) << 20);
        if (cert != null || key != null) {
            b.tls(cert, key);
        }
        if (Specs.<TrackerMode>value(parsed, "--tracker") == TrackerMode.CONTENDED) {
            b.contendedBaseline(Duration.ofMillis(Specs.intValue(parsed, "--stall-ms", 0, 600_000)));
        }
        Integer receiving = Specs.value(parsed, "--max-receiving-mib");
        if (receiving != null) {
            b.maxReceivingBytes((long) Specs.inRange(parsed, "--max-receiving-mib", receiving, 1, 1 << 24) << 20);
        }
        String http = Specs.value(parsed, "--http");
        if (http != null) {
            b.http(host("--http", http), port("--http", http));
        }
        CuzkServer server;
        try {
            server = b.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        CountDownLatch stopped = new CountDownLatch(1);
        // SIGTERM and SIGINT run the shutdown hooks: drain there, and let main return afterwards
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            root.err.println("cuzk serve: stopping: draining accepted jobs");
            int cancelled = server.drain(Duration.ofSeconds(Specs.intValue(parsed, "--drain-timeout-s", 0, 86_400)));
            root.err.println("cuzk serve: stopped" + (cancelled > 0 ? " (" + cancelled + " jobs cancelled at the drain time)" : ""));
            stopped.countDown();
        }, "cuzk-serve-shutdown"));
        String where = (host.contains(":") ? "[" + host + "]" : host) + ":" + server.port();
        if (server.httpPort() >= 0) {
            String h = host("--http", http);
            root.out.println("cuzk serve: status page, metrics and traces on http://" + (h.contains(":") ? "[" + h + "]" : h) + ":"
                    + server.httpPort() + "/");
        }
        root.out.println("cuzk serve: listening on " + where + " with " + server.keyCount() + " keys from " + keys + " on "
                + backend.name() + (token != null ? ", bearer token required" : "") + (cert != null ? ", TLS" : ""));
        root.out.flush();
        Path portFile = Specs.value(parsed, "--port-file");
        if (portFile != null) {
            try {
                Path tmp = portFile.resolveSibling(portFile.getFileName() + ".tmp");
                Files.writeString(tmp, server.port() + "\n");
                Files.move(tmp, portFile, java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException e) {
                server.drain(Duration.ZERO);
                throw new UncheckedIOException(e);
            }
        }
        try {
            server.awaitTermination();
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return Main.OK;
    }
}
