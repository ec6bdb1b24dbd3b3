package dev.flatdump.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code flatdump worker}'s usage errors, found before it connects to anything. */
class WorkerCommandTest {

  @Test
  void namesEveryMissingOptionAndWhereElseItCanCome() {
    CliRun run = CliRun.withEnv(Map.of(), "worker");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .contains("missing --broker, --job-repository, --uri")
        .contains("FLATDUMP_BROKER, FLATDUMP_JOB_REPOSITORY, FLATDUMP_URI");
  }

  @Test
  void refusesABrokerThatIsNotTcpAndTooManyThreads() {
    CliRun http =
        CliRun.of(
            "worker",
            "--broker",
            "http://h:1",
            "--job-repository",
            "jdbc:x",
            "--uri",
            "mongodb://h");
    assertThat(http.exitCode()).isEqualTo(2);
    assertThat(http.err()).contains("--broker must be tcp://HOST:PORT, got http://h:1");

    CliRun threads =
        CliRun.of(
            "worker",
            "--broker",
            "tcp://h:1",
            "--job-repository",
            "jdbc:x",
            "--uri",
            "mongodb://h",
            "--threads",
            "17");
    assertThat(threads.exitCode()).isEqualTo(2);
    assertThat(threads.err()).contains("--threads must be 1..16, got 17");
  }

  @Test
  void takesItsOptionsFromTheEnvironment() {
    CliRun run =
        CliRun.withEnv(
            Map.of(
                "FLATDUMP_BROKER", "tcp://h:1",
                "FLATDUMP_JOB_REPOSITORY", "jdbc:x",
                "FLATDUMP_URI", "mongodb://h"),
            "worker",
            "--threads",
            "0");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("--threads must be 1..16, got 0").doesNotContain("missing");
  }
}
