package io.cuzk.cli;

import io.cuzk.Curve;
import io.cuzk.Group;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.commons.lang3.StringUtils;
import org.apache.commons.lang3.math.NumberUtils;

/** {@code --name value} options of one command, checked against the names it accepts. */
final class Options {
    private final Map<String, String> values;
    private final Map<String, List<String>> repeated;
    private final List<String> positional;

    private Options(Map<String, String> values, Map<String, List<String>> repeated, List<String> positional) {
        this.values = values;
        this.repeated = repeated;
        this.positional = positional;
    }

    /** Options only: any other argument is a usage error. */
    static Options parse(String[] args, Set<String> accepted) {
        return parse(args, accepted, 0);
    }

    /** Options and exactly {@code positionals} other arguments, in any order. */
    static Options parse(String[] args, Set<String> accepted, int positionals) {
        return parse(args, accepted, positionals, Set.of(), Set.of());
    }

    /**
     * As above; the options named in {@code multi} may be given several times, those in
     * {@code flags} take no value.
     */
    static Options parse(String[] args, Set<String> accepted, int positionals, Set<String> multi, Set<String> flags) {
        Map<String, String> values = new HashMap<>();
        Map<String, List<String>> repeated = new HashMap<>();
        List<String> positional = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("--")) {
                if (positional.size() == positionals) {
                    throw new UsageException("unexpected argument '" + a + "'");
                }
                positional.add(a);
                continue;
            }
            String name = a.substring(2);
            String value;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            } else if (flags.contains(name)) {
                value = "true";
            } else {
                if (i + 1 >= args.length) {
                    throw new UsageException("option --" + name + " needs a value");
                }
                value = args[++i];
            }
            if (!accepted.contains(name)) {
                throw new UsageException("unknown option --" + name + " (accepted: --" + String.join(", --", accepted) + ")");
            }
            if (multi.contains(name)) {
                repeated.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
            } else if (values.put(name, value) != null) {
                throw new UsageException("option --" + name + " given twice");
            }
        }
        if (positional.size() != positionals) {
            throw new UsageException("expected " + positionals + " arguments, got " + positional.size());
        }
        return new Options(values, repeated, List.copyOf(positional));
    }

    /** Every value of a repeatable option, in order (empty if absent). */
    List<String> all(String name) {
        return List.copyOf(repeated.getOrDefault(name, List.of()));
    }

    boolean flag(String name) {
        return values.containsKey(name);
    }

    List<String> positional() {
        return positional;
    }

    String get(String name, String fallback) {
        return values.getOrDefault(name, fallback);
    }

    String require(String name) {
        String v = values.get(name);
        if (StringUtils.isBlank(v)) {
            throw new UsageException("option --" + name + " is required");
        }
        return v;
    }

    Curve curve(String fallback) {
        String v = fallback == null ? require("curve") : get("curve", fallback);
        try {
            return Curve.parse(v);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    Group group(String fallback) {
        String v = fallback == null ? require("group") : get("group", fallback);
        try {
            return Group.parse(v);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    int getInt(String name, int fallback, int min, int max) {
        String v = values.get(name);
        if (v == null) {
            return fallback;
        }
        if (!NumberUtils.isDigits(v)) {
            throw new UsageException("option --" + name + " needs a whole number, not '" + v + "'");
        }
        int n = NumberUtils.toInt(v, Integer.MAX_VALUE);
        if (n < min || n > max) {
            throw new UsageException("option --" + name + " must be in " + min + ".." + max + ", not " + v);
        }
        return n;
    }
}
