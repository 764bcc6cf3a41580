package io.cuzk.cli;

import java.io.PrintStream;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * A progress line on stderr for people watching long work: a ticker thread rewrites it in place
 * ({@code \r}) twice a second from {@code text}, and {@link #close} wipes it, so that what the
 * command prints next starts on a clean line. With {@code --progress auto} it shows only on a
 * terminal and only once the work has run a second; {@code always} shows it at once, anywhere.
 */
final class ProgressLine implements AutoCloseable {
    private static final long TICK_MILLIS = 500;
    private final PrintStream err;
    private final Supplier<String> text;
    private final Thread ticker;
    private volatile boolean running = true;
    private int shown; // characters on the line now; under this object's lock

    private ProgressLine(PrintStream err, Supplier<String> text, Duration firstAfter) {
        this.err = err;
        this.text = text;
        this.ticker = firstAfter == null ? null : Thread.ofPlatform().daemon().name("cuzk-progress").start(() -> tick(firstAfter));
    }

    /**
     * The mode of a {@code --progress auto|always|never} option: when to show the first line, or
     * null for never (--json output has no progress line either).
     */
    static Duration firstAfter(Main root, String mode, boolean json) {
        Duration first = switch (mode) {
            case "always" -> Duration.ZERO;
            case "never" -> null;
            case "auto" -> root.errIsTerminal() ? Duration.ofSeconds(1) : null;
            default -> throw new InvalidInputException("--progress " + mode + ": expected auto, always or never");
        };
        return json ? null : first;
    }

    /** A line from text, first shown after firstAfter; nothing at all if firstAfter is null. */
    static ProgressLine start(PrintStream err, Duration firstAfter, Supplier<String> text) {
        return new ProgressLine(err, text, firstAfter);
    }

    private void tick(Duration firstAfter) {
        try {
            Thread.sleep(firstAfter);
            while (running) {
                print();
                Thread.sleep(TICK_MILLIS);
            }
        } catch (InterruptedException stopped) {
            // closed
        }
    }

    private synchronized void print() {
        if (!running) {
            return;
        }
        String s = text.get();
        err.print("\r" + s + " ".repeat(Math.max(0, shown - s.length())));
        err.flush();
        shown = s.length();
    }

    /** Stops the ticker and wipes the line if one was shown. */
    @Override
    public void close() {
        running = false;
        if (ticker != null) {
            ticker.interrupt();
            try {
                ticker.join(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (this) {
            if (shown > 0) {
                err.print("\r" + " ".repeat(shown) + "\r");
                err.flush();
                shown = 0;
            }
        }
    }
}
