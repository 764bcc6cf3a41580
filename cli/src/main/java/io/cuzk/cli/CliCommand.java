package io.cuzk.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/** A subcommand of cuzk: its options, and what it does with them. */
interface CliCommand {
    /** The command's name, options and help. */
    CommandSpec spec();

    /** Runs with the parsed options; returns the exit status. */
    int run(Main root, ParseResult parsed);
}
