package io.cuzk.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * The daemon's status page in a real browser (Debian's chromium through chromedriver, driven by
 * Selenium), while {@code bin/cuzk workload --server} feeds a real {@code bin/cuzk serve} on
 * 127.0.0.1: the page asks for the daemon's token, draws a utilization graph and worker lanes for
 * every device, its counts move while the work runs and equal /api/status once it is done. A second
 * test reads /trace as trace-event JSON with every partition's slices; a third shows the contended
 * baseline's gaps next to the lock-free engine's. Screenshots go to target/status-page/.
 *
 * <p>Without chromium and chromedriver (Debian: {@code apt-get install chromium chromium-driver})
 * the tests skip and say so, except where CUZK_REQUIRE_BROWSER=1 (CI sets it): there they fail.
 */
class StatusPageIT {
    static final String TOKEN = "page-token-7d21";
    static final Duration WAIT = Duration.ofMinutes(2);
    static final Path CHROMIUM = Path.of(System.getenv().getOrDefault("CUZK_CHROMIUM", "/usr/bin/chromium"));
    static final Path DRIVER = Path.of(System.getenv().getOrDefault("CUZK_CHROMEDRIVER", "/usr/bin/chromedriver"));
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path work;
    static Path keys, sample, shots;
    final List<Process> processes = new ArrayList<>();
    WebDriver browser;

    @BeforeAll
    static void setUp() throws IOException {
        boolean present = Files.isExecutable(CHROMIUM) && Files.isExecutable(DRIVER);
        if (!present && "1".equals(System.getenv("CUZK_REQUIRE_BROWSER"))) {
            throw new AssertionError("CUZK_REQUIRE_BROWSER=1 but there is no " + (Files.isExecutable(CHROMIUM) ? DRIVER : CHROMIUM));
        }
        Assumptions.assumeTrue(present, "StatusPageIT skipped: no " + CHROMIUM + " or " + DRIVER
                + " (apt-get install chromium chromium-driver, or CUZK_CHROMIUM / CUZK_CHROMEDRIVER)");
        sample = LauncherIT.repo().resolve("samples/poseidon-bn254");
        keys = Files.createDirectories(work.resolve("keys"));
        Files.copy(sample.resolve("circuit.zkey"), keys.resolve("poseidon.zkey"), StandardCopyOption.REPLACE_EXISTING);
        Files.writeString(work.resolve("token"), TOKEN + "\n");
        shots = Files.createDirectories(LauncherIT.repo().resolve("tests/target/status-page"));
    }

    @AfterEach
    void tearDown() throws InterruptedException {
        if (browser != null) {
            browser.quit();
        }
        for (Process p : processes) {
            p.destroy();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }

    record Daemon(Process process, int grpcPort, int httpPort, Path log) {}

    Daemon serve(String name, String... extra) throws Exception {
        Path portFile = work.resolve(name + ".port"), log = work.resolve(name + ".log");
        List<String> cmd = new ArrayList<>(List.of(LauncherIT.repo().resolve("bin/cuzk").toString(), "serve", "--keys", keys.toString(),
                "--listen", "127.0.0.1:0", "--http", "127.0.0.1:0", "--port-file", portFile.toString(), "--token-file",
                work.resolve("token").toString(), "--workers-per-device", "2"));
        cmd.addAll(List.of(extra));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        processes.add(p);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.exists(portFile)) {
            assertTrue(p.isAlive(), "the daemon ended: " + Files.readString(log));
            assertTrue(System.nanoTime() < deadline, "the daemon did not start in 60 s: " + Files.readString(log));
            Thread.sleep(50);
        }
        Matcher m = Pattern.compile("http://127\\.0\\.0\\.1:(\\d+)/").matcher(Files.readString(log));
        assertTrue(m.find(), "the daemon names its HTTP address: " + Files.readString(log));
        return new Daemon(p, Integer.parseInt(Files.readString(portFile).strip()), Integer.parseInt(m.group(1)), log);
    }

    Process workload(Daemon d, int jobs, int partitions) throws IOException {
        return workload(d, jobs, partitions, "");
    }

    Process workload(Daemon d, int jobs, int partitions, String name) throws IOException {
        Process p = new ProcessBuilder(LauncherIT.repo().resolve("bin/cuzk").toString(), "workload", "--server", "127.0.0.1:" + d.grpcPort(),
                "--token-file", work.resolve("token").toString(), "--zkey", "poseidon", "--wtns", sample.resolve("witness.wtns").toString(),
                "--jobs", String.valueOf(jobs), "--partitions", String.valueOf(partitions), "--progress", "never")
                .redirectErrorStream(true).redirectOutput(work.resolve("workload-" + d.grpcPort() + (name.isEmpty() ? "" : "-" + name) + ".log").toFile())
                .start();
        processes.add(p);
        return p;
    }

    static JsonNode get(Daemon d, String path) throws IOException, InterruptedException {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + d.httpPort() + path))
                .header("Authorization", "Bearer " + TOKEN).timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), path + ": " + r.body());
        return JSON.readTree(r.body());
    }

    WebDriver browser() {
        ChromeOptions o = new ChromeOptions();
        o.setBinary(CHROMIUM.toFile());
        o.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1450",
                "--hide-scrollbars");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile()).usingAnyFreePort()
                .withLogOutput(java.io.OutputStream.nullOutputStream()).build();
        browser = new ChromeDriver(service, o);
        browser.manage().timeouts().scriptTimeout(Duration.ofSeconds(30));
        return browser;
    }

    /** The page's own account of what it shows (window.cuzkPage.snapshot()). */
    JsonNode snapshot() throws IOException {
        Object s = ((JavascriptExecutor) browser).executeScript("return window.cuzkPage ? JSON.stringify(window.cuzkPage.snapshot()) : null");
        return s == null ? JSON.nullNode() : JSON.readTree((String) s);
    }

    JsonNode waitFor(String what, Predicate<JsonNode> ok) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        JsonNode s = snapshot();
        while (!ok.test(s)) {
            assertTrue(System.nanoTime() < deadline, "the page did not come to show " + what + " in " + WAIT + ": " + s);
            Thread.sleep(250);
            s = snapshot();
        }
        return s;
    }

    void screenshot(String name) throws IOException {
        Path png = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE).toPath();
        Files.copy(png, shots.resolve(name), StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * Shows the last 10 s (the width of the screen is then about 10 ms a pixel: gaps of a few ms
     * show), waits until the page has drawn that long a stretch of work, and saves the screen.
     */
    void screenshotOfTenBusySeconds(String name, Process load, Daemon d) throws Exception {
        ((JavascriptExecutor) browser).executeScript("const w = document.querySelector('#window'); w.value = '10';"
                + " w.dispatchEvent(new Event('change'));");
        int polls = snapshot().path("polls").asInt();
        waitFor("ten more seconds of work", s -> s.path("polls").asInt() >= polls + 10 || !load.isAlive());
        assertTrue(load.isAlive(), "the workload ended before the page had 10 s of it to show");
        screenshot(name);
        // the daemon's figures at the time of the screenshot, for the documentation that shows it
        Files.writeString(shots.resolve(name.replace(".png", ".json")), get(d, "/api/status").toPrettyString());
    }

    static long shown(JsonNode s, String count) {
        return Long.parseLong(s.path("shown").path(count).asText("-1"));
    }

    /**
     * The counts the page shows are those of the status it fetched last (so the figures on the
     * screen are the daemon's, not stale or made up).
     */
    static void assertShowsItsStatus(JsonNode s) {
        JsonNode st = s.get("status");
        for (String phase : List.of("queued", "synthesizing", "ready", "proving", "finalizing")) {
            assertEquals(st.path("partitions").path(phase).asLong(), shown(s, phase), phase + " in " + s);
        }
        for (String c : List.of("partitionsDone", "jobsSubmitted", "jobsDone", "jobsFailed", "jobsCancelled")) {
            assertEquals(st.path(c).asLong(), shown(s, c), c + " in " + s);
        }
    }

    @Test
    void pageShowsTheDevicesLiveAndMatchesTheStatus() throws Exception {
        Daemon d = serve("lockfree");
        int jobs = 250, partitions = 4;
        WebDriver b = browser();
        b.get("http://127.0.0.1:" + d.httpPort() + "/");
        Process load = workload(d, jobs, partitions); // once the browser is up (see contendedBaselineShowsItsGaps)
        // the daemon has a token: the page asks for it, keeps it in the tab and goes on
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!b.findElement(By.id("token-form")).isDisplayed()) {
            assertTrue(System.nanoTime() < deadline, "the page did not ask for the token");
            Thread.sleep(100);
        }
        b.findElement(By.id("token")).sendKeys(TOKEN);
        b.findElement(By.cssSelector("#token-form button")).click();
        JsonNode first = waitFor("the device's busy share and both device workers' partitions", s -> {
            JsonNode dev = s.path("devices");
            if (dev.size() != 1 || shown(s, "partitionsDone") <= 0) {
                return false;
            }
            JsonNode one = dev.elements().next();
            return one.path("busyPoints").asInt() > 0 && one.path("workers").size() == 2 && s.path("drawn").size() >= 2;
        });
        assertShowsItsStatus(first);
        JsonNode dev = first.path("devices").elements().next();
        assertTrue(dev.path("points").asInt() >= 300, "a 2-minute window of 0.2 s points: " + dev);
        for (JsonNode w : dev.path("workers")) {
            assertTrue(first.path("lanes").path(w.asText()).asInt() > 0, "partitions on the lane of " + w + ": " + first);
        }
        first.path("drawn").fields().forEachRemaining(e -> assertTrue(e.getValue().asInt() > 0, "bars drawn on " + e.getKey()));
        long doneBefore = shown(first, "partitionsDone"), beforeAt = System.nanoTime();
        Thread.sleep(3000);
        JsonNode later = snapshot();
        long laterAt = System.nanoTime();
        assertTrue(later.path("polls").asInt() > first.path("polls").asInt(), "the page polls by itself: " + later);
        assertTrue(load.isAlive() || shown(later, "partitionsDone") > doneBefore, "still running, or done meanwhile");
        assertNotEquals(doneBefore, shown(later, "partitionsDone"), "the counts move while the work runs (no reload)");
        assertShowsItsStatus(later);
        // the screenshot needs 10 more seconds of work: on a fast machine the 1,000 partitions could
        // be done before (a CI run saw it), so a second workload tops the backlog up to about 30 s
        // at the rate the page just showed; a slow machine's run is not made longer
        double perSecond = (shown(later, "partitionsDone") - doneBefore) * 1e9 / (laterAt - beforeAt);
        long left = (long) jobs * partitions - shown(later, "partitionsDone");
        int moreJobs = left >= 30 * perSecond ? 0 : (int) Math.ceil((30 * perSecond - left) / partitions);
        Process more = moreJobs == 0 ? null : workload(d, moreJobs, partitions, "more");
        System.out.printf("StatusPageIT: %.0f partitions/s on the page, %d left, %d jobs added%n", perSecond, left, moreJobs);
        screenshotOfTenBusySeconds("lockfree.png", more == null ? load : more, d);

        for (Process p : more == null ? List.of(load) : List.of(load, more)) {
            assertTrue(p.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS), "the workload did not finish in " + WAIT);
            assertEquals(0, p.exitValue(), Files.readString(work.resolve("workload-" + d.grpcPort() + (p == more ? "-more" : "") + ".log")));
        }
        jobs += moreJobs;
        long total = (long) jobs * partitions;
        JsonNode end = waitFor("all " + total + " partitions proved", s -> shown(s, "partitionsDone") == total && shown(s, "proving") == 0);
        JsonNode status = get(d, "/api/status"); // the daemon is idle now: the page and the API must agree exactly
        for (String c : List.of("partitionsDone", "jobsSubmitted", "jobsDone", "jobsFailed", "jobsCancelled")) {
            assertEquals(status.path(c).asLong(), shown(end, c), c);
        }
        for (String phase : List.of("queued", "synthesizing", "ready", "proving", "finalizing")) {
            assertEquals(status.path("partitions").path(phase).asLong(), shown(end, phase), phase);
        }
        assertEquals(jobs, status.path("jobsDone").asLong());
        // the jobs table lists the latest jobs with their progress
        @SuppressWarnings("unchecked") // one read: the page redraws the table every second
        List<String> rows = (List<String>) ((JavascriptExecutor) b).executeScript(
                "return Array.from(document.querySelectorAll('#jobs tbody tr')).map(r => r.innerText)");
        assertEquals(100, rows.size(), "the status lists 100 jobs");
        assertTrue(rows.stream().allMatch(r -> r.contains("poseidon") && r.contains("done") && r.contains(partitions + "/" + partitions)),
                rows.get(0));
        // the page's scripts came from the daemon (uPlot from its webjar): nothing from elsewhere
        Object foreign = ((JavascriptExecutor) b).executeScript("return performance.getEntriesByType('resource')"
                + ".map(e => e.name).filter(n => !n.startsWith(location.origin)).join(' ')");
        assertEquals("", foreign, "resources from outside the daemon");
    }

    @Test
    void traceHasASliceOfEveryPhaseForEveryPartition() throws Exception {
        Daemon d = serve("trace");
        Process load = workload(d, 20, 5);
        assertTrue(load.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS), "the workload did not finish");
        assertEquals(0, load.exitValue(), Files.readString(work.resolve("workload-" + d.grpcPort() + ".log")));
        JsonNode trace = get(d, "/trace?seconds=600");
        assertTrue(trace.path("traceEvents").isArray(), "trace-event JSON has traceEvents");
        Map<Integer, String> threads = new HashMap<>();
        Map<String, Set<String>> phases = new HashMap<>();
        for (JsonNode e : trace.get("traceEvents")) {
            String ph = e.path("ph").asText();
            assertTrue(e.path("pid").isInt() && e.path("tid").isInt() && e.path("name").isTextual(), e.toString());
            if (ph.equals("M")) {
                if (e.path("name").asText().equals("thread_name")) {
                    threads.put(e.path("tid").asInt(), e.path("args").path("name").asText());
                }
                continue;
            }
            assertEquals("X", ph, e.toString());
            assertTrue(e.path("ts").isNumber() && e.path("ts").asDouble() >= 0 && e.path("dur").isNumber() && e.path("dur").asDouble() >= 0,
                    e.toString());
            phases.computeIfAbsent(e.path("args").path("job").asLong() + "/" + e.path("args").path("partition").asInt(), k -> new HashSet<>())
                    .add(e.path("name").asText());
        }
        assertEquals(100, phases.size(), "every partition of the 20 jobs x 5 is in the trace");
        for (var p : phases.entrySet()) {
            assertEquals(Set.of("synthesis", "handoff", "device", "H", "MSMs", "finish", "finalize"), p.getValue(), p.getKey());
        }
        assertTrue(threads.values().containsAll(List.of("device-0-worker-0", "device-0-worker-1", "cuzk-synthesis-0")), threads.toString());
        assertTrue(threads.values().stream().anyMatch(n -> n.startsWith("cuzk-finalizer-")), threads.toString());
    }

    /**
     * The contended baseline on the same page: its finalizers hold the tracker's lock across a
     * stall, so the device idles in gaps of about the stall while work waits; the lock-free engine
     * under the same load does not. Both screenshots land in target/status-page/.
     */
    @Test
    void contendedBaselineShowsItsGaps() throws Exception {
        Daemon d = serve("contended", "--tracker", "contended", "--stall-ms", "100");
        WebDriver b = browser();
        b.get("http://127.0.0.1:" + d.httpPort() + "/");
        ((JavascriptExecutor) b).executeScript("sessionStorage.setItem('cuzk-token', arguments[0]); location.reload();", TOKEN);
        // the work starts once the browser is up: starting chromium on a busy 2-core machine took
        // long enough for the workload to end before the page had 10 s of it to show
        Process load = workload(d, 60, 4);
        waitFor("the contended device's partitions", s -> s.path("devices").size() == 1 && shown(s, "partitionsDone") > 0
                && s.path("drawn").size() >= 2);
        screenshotOfTenBusySeconds("contended.png", load, d);
        assertTrue(load.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS), "the workload did not finish");
        JsonNode dev = get(d, "/api/status").path("devices").get(0);
        assertTrue(dev.path("gapsMs").path("p99").asDouble() >= 40, "gaps near the 100 ms stall under the contended tracker: " + dev);
        assertTrue(dev.path("utilization").asDouble() < 0.9, "the contended device idles while work waits: " + dev);
    }
}
