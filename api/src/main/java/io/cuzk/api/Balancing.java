package io.cuzk.api;

import io.grpc.Attributes;
import io.grpc.EquivalentAddressGroup;
import io.grpc.LoadBalancer;
import io.grpc.LoadBalancerProvider;
import io.grpc.LoadBalancerRegistry;
import io.grpc.NameResolver;
import io.grpc.NameResolverProvider;
import io.grpc.NameResolverRegistry;
import io.grpc.Status;
import io.grpc.protobuf.services.HealthCheckingLoadBalancerUtil;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * How a {@link CuzkClient} spreads jobs over several daemons, with gRPC's own parts only: the
 * {@code weighted_round_robin} policy, weighted by the load each daemon reports (ORCA, out of
 * band, every second), with gRPC's client-side health checking so that a daemon whose health
 * says NOT_SERVING (draining) gets no new call, selected by the channel's service config (no xDS
 * control plane). Daemons come from DNS ({@code dns:///name:port}, e.g. a Kubernetes headless
 * Service) or from a fixed list {@code host1:port,host2:port} through a small name resolver.
 */
final class Balancing {
    private Balancing() {}

    /** The scheme of the fixed-list resolver: {@code cuzk-list:///host1:port,host2:port}. */
    static final String LIST_SCHEME = "cuzk-list";
    static final String POLICY = "weighted_round_robin";

    /**
     * The service config: weighted round robin on out-of-band load reports each second, a new
     * weight used after 2 s (not 10 s: a farm's daemons change load in seconds), weights expiring
     * after a minute without reports; health checked against the Prover service.
     */
    static Map<String, ?> serviceConfig() {
        Map<String, Object> wrr = Map.of("enableOobLoadReport", true, "oobReportingPeriod", "1s", "blackoutPeriod", "2s",
                "weightUpdatePeriod", "1s", "weightExpirationPeriod", "60s");
        return Map.of("loadBalancingConfig", List.of(Map.of(POLICY, wrr)), "healthCheckConfig", Map.of("serviceName", "cuzk.v1.Prover"));
    }

    private static boolean registered;

    /**
     * Registers, once per JVM, the list resolver and weighted round robin with health checking.
     * gRPC checks health only for policies that ask for it (round_robin does, through
     * grpc-services); this wraps the weighted_round_robin of grpc-xds the same way and takes its
     * name at a higher priority, so the service config names the policy gRPC documents.
     */
    static synchronized void register() {
        if (registered) {
            return;
        }
        LoadBalancerProvider wrr = LoadBalancerRegistry.getDefaultRegistry().getProvider(POLICY);
        if (wrr == null) {
            throw new IllegalStateException("gRPC's " + POLICY + " policy is not on the class path (grpc-xds)");
        }
        LoadBalancerRegistry.getDefaultRegistry().register(new HealthChecked(wrr));
        NameResolverRegistry.getDefaultRegistry().register(new ListResolverProvider());
        registered = true;
    }

    /** Whether a target names several daemons or a name that may resolve to several: balanced by default. */
    static boolean several(String target) {
        return target.contains(",") || target.startsWith("dns:") || target.startsWith(LIST_SCHEME + ":");
    }

    /** A fixed list "host1:port,host2:port" as a target of the list resolver (IPv6 hosts in brackets). */
    static String listTarget(String list) {
        if (list.startsWith(LIST_SCHEME + ":")) {
            return list;
        }
        parse(list); // refused here, with the entry named, rather than later by the channel
        return LIST_SCHEME + ":///" + list.replace(" ", "").replace("[", "%5B").replace("]", "%5D");
    }

    record Daemon(String host, int port) {
        String authority() {
            return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
        }
    }

    static List<Daemon> parse(String list) {
        List<Daemon> out = new ArrayList<>();
        for (String entry : list.split(",")) {
            String e = entry.strip();
            if (e.isEmpty()) {
                continue;
            }
            int colon = e.lastIndexOf(':');
            if (colon <= 0 || colon == e.length() - 1) {
                throw new IllegalArgumentException("daemon " + e + ": expected HOST:PORT");
            }
            String host = e.substring(0, colon);
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            int port;
            try {
                port = Integer.parseInt(e.substring(colon + 1));
            } catch (NumberFormatException x) {
                throw new IllegalArgumentException("daemon " + e + ": the port is not a number");
            }
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("daemon " + e + ": the port must be 1..65535");
            }
            out.add(new Daemon(host, port));
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no daemon in the list \"" + list + "\"");
        }
        return out;
    }

    private static final class HealthChecked extends LoadBalancerProvider {
        private final LoadBalancerProvider wrr;

        HealthChecked(LoadBalancerProvider wrr) {
            this.wrr = wrr;
        }

        @Override
        public boolean isAvailable() {
            return wrr.isAvailable();
        }

        @Override
        public int getPriority() {
            return wrr.getPriority() + 1;
        }

        @Override
        public String getPolicyName() {
            return wrr.getPolicyName();
        }

        @Override
        public LoadBalancer newLoadBalancer(LoadBalancer.Helper helper) {
            return HealthCheckingLoadBalancerUtil.newHealthCheckingLoadBalancer(wrr, helper);
        }

        @Override
        public NameResolver.ConfigOrError parseLoadBalancingPolicyConfig(Map<String, ?> raw) {
            return wrr.parseLoadBalancingPolicyConfig(raw);
        }
    }

    /** The fixed-list resolver; each daemon one endpoint, its host names looked up again on every refresh. */
    private static final class ListResolverProvider extends NameResolverProvider {
        @Override
        protected boolean isAvailable() {
            return true;
        }

        @Override
        protected int priority() {
            return 4; // below dns (5): never the default scheme
        }

        @Override
        public String getDefaultScheme() {
            return LIST_SCHEME;
        }

        @Override
        public Collection<Class<? extends SocketAddress>> getProducedSocketAddressTypes() {
            return List.of(InetSocketAddress.class);
        }

        @Override
        public NameResolver newNameResolver(URI target, NameResolver.Args args) {
            if (!LIST_SCHEME.equals(target.getScheme())) {
                return null;
            }
            String path = target.getPath() == null ? "" : target.getPath();
            return new ListResolver(parse(path.startsWith("/") ? path.substring(1) : path), args);
        }
    }

    private static final class ListResolver extends NameResolver {
        private final List<Daemon> daemons;
        private final NameResolver.Args args;
        private Listener2 listener;
        private boolean resolving;
        private volatile boolean shutdown;

        ListResolver(List<Daemon> daemons, NameResolver.Args args) {
            this.daemons = daemons;
            this.args = args;
        }

        @Override
        public String getServiceAuthority() {
            return daemons.get(0).authority();
        }

        @Override
        public void start(Listener2 listener) {
            this.listener = listener;
            resolve();
        }

        @Override
        public void refresh() {
            resolve();
        }

        /** Looks the hosts up off the channel's thread (a name lookup may block), then tells the channel. */
        private void resolve() {
            if (resolving || shutdown) {
                return;
            }
            resolving = true;
            Runnable lookup = () -> {
                List<EquivalentAddressGroup> groups = new ArrayList<>();
                List<String> failed = new ArrayList<>();
                for (Daemon d : daemons) {
                    try {
                        List<SocketAddress> addrs = new ArrayList<>();
                        for (InetAddress a : InetAddress.getAllByName(d.host())) {
                            addrs.add(new InetSocketAddress(a, d.port()));
                        }
                        // TLS checks each daemon's certificate against its own name, not the list's first
                        groups.add(new EquivalentAddressGroup(addrs,
                                Attributes.newBuilder().set(EquivalentAddressGroup.ATTR_AUTHORITY_OVERRIDE, d.authority()).build()));
                    } catch (UnknownHostException e) {
                        failed.add(d.authority());
                    }
                }
                args.getSynchronizationContext().execute(() -> {
                    resolving = false;
                    if (shutdown) {
                        return;
                    }
                    if (groups.isEmpty()) {
                        listener.onError(Status.UNAVAILABLE.withDescription("no daemon of the list resolves: " + failed));
                    } else {
                        listener.onResult2(ResolutionResult.newBuilder().setAddressesOrError(io.grpc.StatusOr.fromValue(groups)).build());
                    }
                });
            };
            java.util.concurrent.Executor offload = args.getOffloadExecutor();
            if (offload != null) {
                offload.execute(lookup);
            } else {
                lookup.run();
            }
        }

        @Override
        public void shutdown() {
            shutdown = true;
        }

        @Override
        public String toString() {
            return "ListResolver" + Arrays.toString(daemons.toArray());
        }
    }
}
