package io.cuzk.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README stays true: its Java examples are what the consumer project (tests/consumer, built
 * against the installed artifacts by this module's invoker run) executes, statement for statement,
 * and its two set-up commands are there.
 */
class ReadmeTest {
    static final Path REPO = Path.of(System.getProperty("cuzk.repo.dir", ".."));

    /** The lines of a Java block that the consumer must hold: not imports, not placeholders ("..."). */
    static List<String> statements(String block) {
        List<String> out = new ArrayList<>();
        for (String line : block.split("\n")) {
            String t = line.strip();
            if (t.isEmpty() || t.startsWith("import ") || t.contains("...")) {
                continue;
            }
            out.add(t);
        }
        return out;
    }

    @Test
    void everyJavaExampleIsRunByTheConsumerProject() throws IOException {
        String readme = Files.readString(REPO.resolve("README.md"));
        String consumer = Files.readString(REPO.resolve("tests/consumer/src/test/java/com/example/prover/ReadmeExamplesTest.java"));
        List<String> consumerLines = consumer.lines().map(String::strip).toList();
        Matcher m = Pattern.compile("```java\n(.*?)```", Pattern.DOTALL).matcher(readme);
        int blocks = 0;
        while (m.find()) {
            blocks++;
            int at = 0;
            for (String s : statements(m.group(1))) {
                int found = consumerLines.subList(at, consumerLines.size()).indexOf(s);
                assertTrue(found >= 0, "README example " + blocks + ": the consumer project does not run, in order, the line '" + s + "'");
                at += found + 1;
            }
        }
        assertEquals(3, blocks, "the README's Java examples: the API, Groth16 from Java, the engine");
    }

    /** The help the README shows is what the commands print (picocli writes it from the option specs). */
    @Test
    void theHelpInTheReadmeIsTheCommandsHelp() throws IOException {
        String readme = Files.readString(REPO.resolve("README.md"));
        for (String[] args : new String[][] {{"--help"}, {"prove", "--help"}}) {
            Cli.Result r = Cli.run(args);
            assertEquals(0, r.status(), r.err());
            String shown = "`bin/cuzk " + String.join(" ", args) + "`:\n\n```\n" + r.out() + "```";
            assertTrue(readme.contains(shown), "README.md does not show the current output of cuzk " + String.join(" ", args) + ":\n"
                    + r.out());
        }
    }

    @Test
    void theTwoSetUpCommandsAreThere() throws IOException {
        String readme = Files.readString(REPO.resolve("README.md"));
        assertTrue(readme.contains("\nmvn -B verify\n"), "the test command");
        assertTrue(readme.contains("\nmvn -B -q -DskipTests package && bin/cuzk"), "the main job's command");
    }
}
