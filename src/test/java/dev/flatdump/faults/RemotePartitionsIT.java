package dev.flatdump.faults;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import dev.flatdump.artifact.OutputLayout;
import dev.flatdump.bench.samples.OrgGenerator;
import dev.flatdump.bench.samples.Profile;
import dev.flatdump.bench.samples.SampleWriter;
import dev.flatdump.testing.MongoDbExtension;
import dev.flatdump.testing.MongoDbExtension.MongoServer;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code export --partitions 4 --remote}: a manager (with its embedded broker) and two {@code
 * flatdump worker} processes, sharing a PostgreSQL job repository ({@code bin/postgres-local}) and
 * the output directory, give the bytes of a local export with 4 partitions; a worker killed with
 * SIGKILL mid-partition fails its partitions after the worker timeout, naming them, and the same
 * command again reruns only those and gives the same bytes.
 */
@ExtendWith(MongoDbExtension.class)
class RemotePartitionsIT {

  private static final String COLLECTION = "remote_orgs";
  private static final int ORGS = 20_000;

  private static String jobRepository;

  @BeforeAll
  static void startPostgres() throws Exception {
    Process p =
        new ProcessBuilder("bin/postgres-local", "start")
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertThat(p.waitFor()).as("bin/postgres-local start: %s", out).isZero();
    jobRepository = out.lines().reduce((a, b) -> b).orElseThrow();
    assertThat(jobRepository).startsWith("jdbc:postgresql://127.0.0.1:");
  }

  @Test
  @Timeout(600)
  void aManagerAndTwoWorkersExportTheBytesOfLocalPartitionsAndSurviveAKilledWorker(
      MongoServer server, @TempDir Path tmp) throws Exception {
    String database = "remote_" + Long.toHexString(System.nanoTime());
    try (MongoClient client = MongoClients.create(server.uri())) {
      MongoCollection<RawBsonDocument> c =
          client.getDatabase(database).getCollection(COLLECTION, RawBsonDocument.class);
      new SampleWriter(1000, c::insertMany)
          .write(new OrgGenerator(Profile.REALISTIC, 7), ORGS, n -> {});
    }
    try {
      Path local = tmp.resolve("local");
      CliResult localRun = CliResult.inProcess(args(server, database, local, null, 0));
      assertThat(localRun.exitCode()).as("%s", localRun).isZero();
      Map<String, String> expected = dataFiles(OutputLayout.resolve(local));

      // 1. uninterrupted: two workers, the manager in this JVM
      String broker = "tcp://127.0.0.1:" + freePort();
      Path out = tmp.resolve("remote");
      try (JarRun a = worker(tmp, "a", broker, server);
          JarRun b = worker(tmp, "b", broker, server)) {
        CliResult run = CliResult.inProcess(args(server, database, out, broker, 30));
        assertThat(run.exitCode())
            .as("%s\nworker a:\n%s\nworker b:\n%s", run, a.log(), b.log())
            .isZero();
        assertThat(dataFiles(OutputLayout.resolve(out)))
            .as("the bytes of the local export with 4 partitions")
            .isEqualTo(expected);
        assertThat(run.out()).contains("exportPartition:partition0003 COMPLETED");
        assertThat(a.log() + b.log())
            .as("the partitions ran in the workers")
            .contains("exportPartition:partition0000 COMPLETED")
            .contains("exportPartition:partition0003 COMPLETED");
      }

      // 2. one worker killed mid-partition
      broker = "tcp://127.0.0.1:" + freePort();
      Path killedOut = tmp.resolve("killed");
      List<String> manager = List.of(args(server, database, killedOut, broker, 5));
      Path partitions = killedOut.resolve(".flatdump").resolve("staging").resolve("partitions");
      try (JarRun a = worker(tmp, "a2", broker, server);
          JarRun b = worker(tmp, "b2", broker, server);
          JarRun m = JarRun.start(tmp.resolve("manager.log"), manager)) {
        boolean hit =
            m.awaitWhileAlive(
                () -> a.log().contains(" started") && anyStaged(partitions, "organizations"),
                50,
                Duration.ofMinutes(3));
        assertThat(hit).as("worker a at work; manager:\n%s", m.log()).isTrue();
        a.kill();
        assertThat(m.awaitExit(Duration.ofMinutes(2))).as("manager:\n%s", m.log()).isEqualTo(1);
        assertThat(m.log())
            .contains("its worker stopped answering: no heartbeat for 5 s")
            .containsPattern("exportPartition:partition000\\d: its worker stopped answering");
        assertThat(Artifacts.exportDirs(killedOut)).as("published by the failed run").isEmpty();

        // the same command again, with worker b and a new one
        try (JarRun c = worker(tmp, "c2", broker, server)) {
          CliResult rerun = CliResult.inProcess(manager.toArray(String[]::new));
          assertThat(rerun.exitCode())
              .as("%s\nworker b:\n%s\nworker c:\n%s", rerun, b.log(), c.log())
              .isZero();
          assertThat(rerun.err()).contains("resumed the failed run");
          assertThat(partitionsIn(rerun.out()))
              .as("the partitions the rerun ran: those the killed worker left")
              .isEqualTo(partitionsIn(silent(m.log())))
              .isNotEmpty();
          assertThat(KilledExportIT.readByStep(rerun.out()).get("exportStep"))
              .as("documents the rerun partitions read again; %s", rerun)
              .isBetween(1L, ORGS - 1L);
          assertThat(dataFiles(OutputLayout.resolve(killedOut)))
              .as("after the rerun: the bytes of an uninterrupted export with 4 partitions")
              .isEqualTo(expected);
        }
      }
    } finally {
      try (MongoClient client = MongoClients.create(server.uri())) {
        client.getDatabase(database).drop();
      }
    }
  }

  /**
   * No worker at all: the run fails after the timeout, naming every partition, and the CLI refuses
   * --remote without what the workers need.
   */
  @Test
  @Timeout(120)
  void withoutWorkersTheRunFailsAfterTheTimeoutNamingThePartitions(
      MongoServer server, @TempDir Path tmp) throws Exception {
    ReferenceExport reference = ReferenceExport.on(server);
    String broker = "tcp://127.0.0.1:" + freePort();
    String[] args = args(server, reference.database(), tmp.resolve("out"), broker, 3);
    args[List.of(args).indexOf("--collection") + 1] = ReferenceExport.COLLECTION; // the reference's
    CliResult run = CliResult.inProcess(args);
    assertThat(run.exitCode()).as("%s", run).isEqualTo(1);
    assertThat(run.err())
        .contains("4 of 4 partitions did not complete")
        .contains("exportPartition:partition0000: no worker took it within 3 s")
        .contains("exportPartition:partition0003: no worker took it within 3 s");

    List<String> local = new ArrayList<>(List.of(args));
    int repo = local.indexOf("--job-repository");
    local.remove(repo + 1);
    local.remove(repo);
    CliResult refused = CliResult.inProcess(local.toArray(String[]::new));
    assertThat(refused.exitCode()).as("%s", refused).isEqualTo(2);
    assertThat(refused.err()).contains("--remote needs a --job-repository that the workers share");
  }

  private static String[] args(
      MongoServer server, String database, Path out, String broker, int timeout) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "export",
                "--schema",
                Path.of("schemas", "organizations.fbs").toAbsolutePath().toString(),
                "--uri",
                server.uri(),
                "--db",
                database,
                "--collection",
                COLLECTION,
                "--out",
                out.toString(),
                "--partitions",
                "4",
                "--shard-size",
                "128KiB",
                "--compress",
                "none",
                "--run-date",
                "2026-05-01"));
    if (broker != null) {
      args.addAll(
          List.of(
              "--remote",
              "--broker",
              broker,
              "--job-repository",
              jobRepository,
              "--worker-timeout",
              Integer.toString(timeout)));
    }
    return args.toArray(String[]::new);
  }

  private static JarRun worker(Path tmp, String name, String broker, MongoServer server)
      throws IOException {
    return JarRun.start(
        tmp.resolve("worker-" + name + ".log"),
        List.of(
            "worker",
            "--broker",
            broker,
            "--job-repository",
            jobRepository,
            "--uri",
            server.uri(),
            "--threads",
            "2"));
  }

  /** The partitions in a step table, or named in a failure, in order. */
  private static java.util.SortedSet<String> partitionsIn(String text) {
    java.util.SortedSet<String> names = new java.util.TreeSet<>();
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("exportPartition:partition\\d{4}").matcher(text);
    while (m.find()) {
      names.add(m.group());
    }
    return names;
  }

  /** The lines of a failed manager's log that name a silent worker's partitions. */
  private static String silent(String log) {
    return log.lines().filter(l -> l.contains("export failed:")).reduce("", (a, b) -> a + b + "\n");
  }

  private static boolean anyStaged(Path partitions, String base) {
    if (!Files.isDirectory(partitions)) {
      return false;
    }
    try (Stream<Path> dirs = Files.list(partitions)) {
      return dirs.anyMatch(d -> Files.exists(d.resolve(base + "-00001.fb")));
    } catch (IOException e) {
      return false;
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static Map<String, String> dataFiles(Path dir) throws IOException {
    Map<String, String> sums = Artifacts.dataFiles(dir);
    assertThat(sums.keySet().stream().filter(n -> n.endsWith(".fb"))).hasSizeGreaterThan(8);
    return sums;
  }
}
