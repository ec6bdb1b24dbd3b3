import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.sun.management.OperatingSystemMXBean;
import dev.flatdump.encode.DedupOptions;
import dev.flatdump.job.ExportLauncher;
import dev.flatdump.job.ExportOptions;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Runs the same export N times in one JVM (what {@code flatdump-bench export}'s export row runs, {@code
 * --compress none}) and prints, for each, where the CPU went: the main thread's user and kernel
 * time, the whole JVM, the JIT compiler threads and mongod. A throwaway tool for
 * docs/benchmarks.md, not part of the build:
 *
 * <pre>
 * ./mvnw -q -o dependency:build-classpath -Dmdep.outputFile=/tmp/deps.txt -Dmdep.includeScope=runtime
 * ./mvnw -q -o -Dbuild.dir=target-bench -DskipTests package
 * java -Xmx6g -cp "target-bench/classes:$(cat /tmp/deps.txt)" docs/tools/ExportLoop.java \
 *     $URI bench art100k 12 $(pgrep -f 'mongod.*bench-mongod')
 * </pre>
 *
 * Each export goes to /tmp/export-loop, emptied before it. With {@code -Dgc=true} a full
 * collection runs before each export, as {@code flatdump-bench export} does before every measured run. The last argument, mongod's pid, is
 * optional (its CPU is read from /proc); so is everything but the URI.
 */
public class ExportLoop {

  private static final Path OUT = Path.of("/tmp/export-loop");

  /** {@code -Dgc=true}: a full collection before each export, as {@code flatdump-bench export} runs. */
  private static final boolean GC_FIRST = Boolean.getBoolean("gc");

  public static void main(String[] args) throws Exception {
    String uri = args[0];
    String db = args.length > 1 ? args[1] : "bench";
    String collection = args.length > 2 ? args[2] : "art100k";
    int n = args.length > 3 ? Integer.parseInt(args[3]) : 12;
    String mongodPid = args.length > 4 ? args[4] : null;
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    OperatingSystemMXBean os =
        (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    System.out.println(
        "export | wall ms | steps | main user ms | main kernel ms | JVM ms | JIT ms | mongod ms");
    try (MongoClient client = MongoClients.create(uri)) {
      for (int i = 1; i <= n; i++) {
        delete(OUT);
        if (GC_FIRST) {
          System.gc(); // as bench export's heap probe does before every run
        }
        var options =
            new ExportOptions(
                "mongodb", db, collection, OUT, "{}", List.of(), 6, 3, DedupOptions.ALL,
                List.of(), 128L << 20, -1, 1000, LocalDate.now(), 0L);
        long user = threads.getCurrentThreadUserTime();
        long cpu = threads.getCurrentThreadCpuTime();
        long jvm = os.getProcessCpuTime();
        long jit = compilerTicks();
        long mongod = ticks(mongodPid);
        long start = System.nanoTime();
        var result =
            ExportLauncher.run(options, client, ExportLauncher.defaultJobRepositoryUrl(OUT), l -> {});
        long wall = System.nanoTime() - start;
        long userNow = threads.getCurrentThreadUserTime();
        long kernel = (threads.getCurrentThreadCpuTime() - cpu) - (userNow - user);
        String steps =
            result.execution().getStepExecutions().stream()
                .map(
                    s ->
                        s.getStepName()
                            + " "
                            + Duration.between(s.getStartTime(), s.getEndTime()).toMillis())
                .collect(Collectors.joining(", "));
        System.out.printf(
            "%d | %d | %s | %d | %d | %d | %d | %s%n",
            i,
            wall / 1_000_000,
            steps,
            (userNow - user) / 1_000_000,
            kernel / 1_000_000,
            (os.getProcessCpuTime() - jvm) / 1_000_000,
            (compilerTicks() - jit) * 10,
            mongodPid == null ? "-" : String.valueOf((ticks(mongodPid) - mongod) * 10));
      }
    }
  }

  /** CPU ticks (10 ms) of the JIT compiler threads, which ThreadMXBean does not list. */
  private static long compilerTicks() throws IOException {
    long total = 0;
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
      for (Path task : tasks) {
        String stat;
        try {
          stat = Files.readString(task.resolve("stat"));
        } catch (IOException gone) {
          continue;
        }
        String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        if (name.contains("CompilerThre")) {
          total += utimeStime(stat);
        }
      }
    }
    return total;
  }

  private static long ticks(String pid) throws IOException {
    return pid == null ? 0 : utimeStime(Files.readString(Path.of("/proc", pid, "stat")));
  }

  private static long utimeStime(String stat) {
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return Long.parseLong(f[11]) + Long.parseLong(f[12]);
  }

  private static void delete(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
