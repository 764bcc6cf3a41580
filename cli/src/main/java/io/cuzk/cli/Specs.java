package io.cuzk.cli;

import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.TypeConversionException;

/**
 * The command line's options, declared through picocli's model API: picocli parses them and writes
 * every help text from them. Not through annotations: reading those reflectively makes the JDK
 * generate a proxy class per annotation type at every start (about 40 ms of a 0.1 s proof command,
 * which the ahead-of-time cache cannot keep).
 */
final class Specs {
    private Specs() {}

    /**
     * Paths are converted here: picocli's own converter for them calls Paths.get reflectively,
     * whose first use makes the JDK generate a method accessor (several ms of a start). An empty
     * one is refused (Path.of would make it the working folder).
     */
    private static final ITypeConverter<Path> PATH = Specs::path;

    /** A file to be written: a path, and not one ending in / (which names a folder). */
    private static final ITypeConverter<Path> OUTPUT_FILE = s -> {
        Path p = path(s);
        if (s.endsWith("/")) {
            throw new TypeConversionException("'".concat(s).concat("' ends with /, which names a folder: expected a file's name"));
        }
        return p;
    };

    private static Path path(String s) {
        if (s.isEmpty()) {
            throw new TypeConversionException("an empty path");
        }
        return Path.of(s);
    }

    /** The builder's converters for its type: ours for paths, picocli's for the rest. */
    private static OptionSpec.Builder converted(OptionSpec.Builder b, Class<?> type) {
        return type == Path.class ? b.converters(PATH) : b;
    }

    private static PositionalParamSpec.Builder converted(PositionalParamSpec.Builder b, Class<?> type) {
        return type == Path.class ? b.converters(PATH) : b;
    }

    /**
     * Appended to the description of an option with a default; picocli fills the value in when it
     * writes the help. (Here and below, String.concat rather than +: a concatenation's first run
     * makes the JDK generate a class for its shape, which the ahead-of-time cache does not keep.)
     */
    private static final String SHOW_DEFAULT = " (default: ${DEFAULT-VALUE})";

    /** A command with -h/--help and -V/--version, its description one paragraph. */
    static CommandSpec command(String name, String description) {
        CommandSpec spec = CommandSpec.create().name(name);
        spec.usageMessage().description(description).sortOptions(false).autoWidth(true);
        spec.addOption(OptionSpec.builder("-h", "--help").usageHelp(true).description("Show this help message and exit.").build());
        spec.addOption(OptionSpec.builder("-V", "--version").versionHelp(true).description("Print version information and exit.")
                .build());
        return spec;
    }

    /** An option taking a value of type, with its default (null: none) shown in the help. */
    static OptionSpec option(String name, String label, Class<?> type, String defaultValue, String description) {
        OptionSpec.Builder b = converted(OptionSpec.builder(name).paramLabel(label).type(type), type)
                .description(defaultValue == null ? description : description.concat(SHOW_DEFAULT));
        if (defaultValue != null) {
            b.defaultValue(defaultValue);
        }
        return b.build();
    }

    /** A required option. */
    static OptionSpec required(String name, String label, Class<?> type, String description) {
        return converted(OptionSpec.builder(name).paramLabel(label).type(type), type).required(true).description(description).build();
    }

    /** An option that may be given several times; its values in order. */
    static OptionSpec repeated(String name, String label, Class<?> type, boolean required, String description) {
        return converted(OptionSpec.builder(name).paramLabel(label).type(List.class).auxiliaryTypes(type), type).required(required)
                .description(description).build();
    }

    /** A comma-separated list of values. */
    static OptionSpec list(String name, String label, Class<?> type, String defaultValue, String description) {
        return OptionSpec.builder(name).paramLabel(label).type(List.class).auxiliaryTypes(type).splitRegex(",")
                .defaultValue(defaultValue).description(description.concat(SHOW_DEFAULT)).build();
    }

    /** An option with a converter of its own (whose messages are the usage errors). */
    static OptionSpec converted(String name, String label, Class<?> type, ITypeConverter<?> converter, String defaultValue,
            String description) {
        OptionSpec.Builder b = OptionSpec.builder(name).paramLabel(label).type(type).converters(converter)
                .required(defaultValue == null).description(defaultValue == null ? description : description.concat(SHOW_DEFAULT));
        if (defaultValue != null) {
            b.defaultValue(defaultValue);
        }
        return b.build();
    }

    /** A flag: no value, true when given. */
    static OptionSpec flag(String name, String description) {
        return OptionSpec.builder(name).type(boolean.class).arity("0").defaultValue("false").description(description).build();
    }

    /** A flag with a short name too. */
    static OptionSpec flag(String shortName, String name, String description) {
        return OptionSpec.builder(shortName, name).type(boolean.class).arity("0").defaultValue("false").description(description).build();
    }

    /** A flag every subcommand inherits from the root. */
    static OptionSpec inheritedFlag(String name, String description) {
        return OptionSpec.builder(name).type(boolean.class).arity("0").defaultValue("false").scopeType(ScopeType.INHERIT)
                .description(description).build();
    }

    /** The positional parameter at index, required. */
    static PositionalParamSpec positional(int index, String label, Class<?> type, String description) {
        return converted(PositionalParamSpec.builder().index(Integer.toString(index)).arity("1").required(true).paramLabel(label)
                .type(type), type)
                .description(description).build();
    }

    /** The positional parameter at index, required: a file the command writes. */
    static PositionalParamSpec outputFile(int index, String label, String description) {
        return PositionalParamSpec.builder().index(Integer.toString(index)).arity("1").required(true).paramLabel(label).type(Path.class)
                .converters(OUTPUT_FILE).description(description).build();
    }

    /** An option naming a file the command writes (no default): as {@link #outputFile}. */
    static OptionSpec outputFileOption(String name, String label, String description) {
        return OptionSpec.builder(name).paramLabel(label).type(Path.class).converters(OUTPUT_FILE).description(description).build();
    }

    /** Optional positional paths from index on, as many as given (their value: a list, or null when none). */
    static PositionalParamSpec positionalPaths(int index, String label, String description) {
        return PositionalParamSpec.builder().index(Integer.toString(index).concat("..*")).arity("0..*").paramLabel(label)
                .type(List.class).auxiliaryTypes(Path.class).converters(PATH).description(description).build();
    }

    /** The value of an option (its default when not given). */
    @SuppressWarnings("unchecked")
    static <T> T value(ParseResult parsed, String option) {
        ArgSpec a = parsed.commandSpec().findOption(option);
        return (T) a.getValue();
    }

    /** The value of the positional parameter at index. */
    @SuppressWarnings("unchecked")
    static <T> T positional(ParseResult parsed, int index) {
        return (T) parsed.commandSpec().positionalParameters().get(index).getValue();
    }

    /** An int option's value, refused as a usage error outside min..max. */
    static int intValue(ParseResult parsed, String option, int min, int max) {
        int v = Specs.<Integer>value(parsed, option);
        return inRange(parsed, option, v, min, max);
    }

    /** A value out of range is a usage error of the command. */
    static int inRange(ParseResult parsed, String option, int v, int min, int max) {
        if (v < min || v > max) {
            throw new ParameterException(parsed.commandSpec().commandLine(), "option " + option + " must be in " + min + ".." + max
                    + ", not " + v);
        }
        return v;
    }
}
