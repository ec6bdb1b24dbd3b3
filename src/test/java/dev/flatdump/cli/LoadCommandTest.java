package dev.flatdump.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LoadCommandTest {

  @Test
  void printsHelp() {
    CliRun run = CliRun.of("load", "--help");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("FILE", "--uri=URI", "--db=DB", "--collection=NAME", "--drop");
  }

  @Test
  void rejectsBadUsageWithExitCode2() {
    assertThat(
            CliRun.of("load", "--uri", "mongodb://localhost", "--db", "d", "--collection", "c")
                .exitCode())
        .as("no FILE")
        .isEqualTo(2);
    assertThat(CliRun.of("load", "f.jsonl", "--db", "d", "--collection", "c").exitCode())
        .as("no --uri")
        .isEqualTo(2);
    assertThat(
            CliRun.of(
                    "load",
                    "f.jsonl",
                    "--uri",
                    "mongodb://localhost",
                    "--db",
                    "d",
                    "--collection",
                    "c",
                    "--batch-size",
                    "0")
                .exitCode())
        .isEqualTo(2);
    assertThat(
            CliRun.of("load", "f.jsonl", "--uri", "not-a-uri", "--db", "d", "--collection", "c")
                .exitCode())
        .as("bad connection string")
        .isEqualTo(2);
  }
}
