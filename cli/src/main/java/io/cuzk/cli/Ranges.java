package io.cuzk.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** Range checks of option values: a value out of range is a usage error of the command. */
final class Ranges {
    private Ranges() {}

    static int check(CommandSpec command, String option, int value, int min, int max) {
        if (value < min || value > max) {
            throw new ParameterException(command.commandLine(), "option " + option + " must be in " + min + ".." + max + ", not " + value);
        }
        return value;
    }
}
