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
    private final List<String> positional;

    private Options(Map<String, String> values, List<String> positional) {
        this.values = values;
        this.positional = positional;
    }

    /** Options only: any other argument is a usage error. */
    static Options parse(String[] args, Set<String> accepted) {
        return parse(args, accepted, 0);
    }

    /** Options and exactly {@code positionals} other arguments, in any order. */
    static Options parse(String[] args, Set<String> accepted, int positionals) {
        Map<String, String> values = new HashMap<>();
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
            } else {
                if (i + 1 >= args.length) {
                    throw new UsageException("option --" + name + " needs a value");
                }
                value = args[++i];
            }
            if (!accepted.contains(name)) {
                throw new UsageException("unknown option --" + name + " (accepted: --" + String.join(", --", accepted) + ")");
            }
            if (values.put(name, value) != null) {
                throw new UsageException("option --" + name + " given twice");
            }
        }
        if (positional.size() != positionals) {
            throw new UsageException("expected " + positionals + " arguments, got " + positional.size());
        }
        return new Options(values, List.copyOf(positional));
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
