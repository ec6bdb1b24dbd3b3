package dev.flatdump.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.bench.samples.Org;
import dev.flatdump.bench.samples.OrgCodec;
import dev.flatdump.bench.samples.OrgGenerator;
import dev.flatdump.bench.samples.Profile;
import dev.flatdump.load.ExtendedJsonLoader;
import dev.flatdump.testing.BenchRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchGenerateCommandTest {

  @TempDir Path dir;

  @Test
  void writesAnExtendedJsonFileWithOut() {
    Path file = dir.resolve("orgs.jsonl");

    BenchRun run =
        BenchRun.of(
            "generate",
            "--orgs",
            "25",
            "--profile",
            "article",
            "--seed",
            "7",
            "--out",
            file.toString());

    assertThat(run.exitCode()).isZero();
    assertThat(run.out())
        .startsWith("Generated 25 organizations (profile article, seed 7) into " + file);
    List<RawBsonDocument> documents = new ArrayList<>();
    new ExtendedJsonLoader(100, documents::addAll, e -> {}).load(file);
    List<Org> expected = new OrgGenerator(Profile.ARTICLE, 7).stream().limit(25).toList();
    assertThat(documents).extracting(new OrgCodec()::decode).isEqualTo(expected);
  }

  @Test
  void defaultsToTheRealisticProfileAndSeed42() throws Exception {
    Path defaults = dir.resolve("defaults.jsonl");
    Path explicit = dir.resolve("explicit.jsonl");

    assertThat(BenchRun.of("generate", "--orgs", "5", "--out", defaults.toString()).exitCode())
        .isZero();
    assertThat(
            BenchRun.of(
                    "generate",
                    "--orgs",
                    "5",
                    "--profile",
                    "REALISTIC",
                    "--seed",
                    "42",
                    "--out",
                    explicit.toString())
                .exitCode())
        .isZero();
    assertThat(Files.readString(defaults)).isEqualTo(Files.readString(explicit));
  }

  @Test
  void printsHelp() {
    BenchRun run = BenchRun.of("generate", "--help");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("--orgs=N", "--profile", "--seed", "--drop", "--out=FILE");
  }

  @Test
  void rejectsBadUsageWithExitCode2() {
    String x = dir.resolve("x").toString();
    assertThat(BenchRun.of("generate", "--out", x).exitCode()).isEqualTo(2);
    assertThat(BenchRun.of("generate", "--orgs", "5", "--profile", "weird", "--out", x).exitCode())
        .isEqualTo(2);
    assertThat(BenchRun.of("generate", "--orgs", "-1", "--out", x).exitCode()).isEqualTo(2);
    assertThat(BenchRun.of("generate", "--orgs", "5", "--batch-size", "0", "--out", x).exitCode())
        .isEqualTo(2);

    BenchRun noTarget = BenchRun.of("generate", "--orgs", "5");
    assertThat(noTarget.exitCode()).isEqualTo(2);
    assertThat(noTarget.err())
        .contains("--uri, --db and --collection are required (or --out FILE)");

    BenchRun both =
        BenchRun.of("generate", "--orgs", "5", "--out", x, "--uri", "mongodb://localhost");
    assertThat(both.exitCode()).isEqualTo(2);
    assertThat(both.err()).contains("--out writes a file");
    assertThat(dir.resolve("x")).doesNotExist();
  }
}
