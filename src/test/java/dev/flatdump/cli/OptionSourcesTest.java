package dev.flatdump.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

class OptionSourcesTest {

  @Command(name = "probe")
  static final class Probe implements Runnable {
    @Option(names = "--job-file")
    Path jobFile;

    @Option(names = "--shard-size", defaultValue = "1GiB")
    String shardSize;

    @Option(names = "--db")
    String db;

    @Option(names = "--new-run")
    boolean newRun;

    @Option(names = "--schema")
    Path schema;

    @Override
    public void run() {}
  }

  private static Probe parse(Map<String, String> env, String... args) {
    Probe probe = new Probe();
    CommandLine cl = new CommandLine(probe);
    cl.setDefaultValueProvider(OptionSources.of(args, env));
    cl.parseArgs(args);
    return probe;
  }

  @Test
  void anEmptyEnvironmentVariableLeavesItsOptionUnset(@TempDir Path dir) throws Exception {
    Path job = Files.writeString(dir.resolve("job.properties"), "db=fromfile\n");
    Probe p =
        parse(Map.of("FLATDUMP_SHARD_SIZE", "", "FLATDUMP_DB", " "), "--job-file", job.toString());

    assertThat(p.shardSize).isEqualTo("1GiB");
    assertThat(p.db).isEqualTo("fromfile");
  }

  @Test
  void namesEnvironmentVariablesAfterTheOption() {
    assertThat(OptionSources.envName("--shard-size")).isEqualTo("FLATDUMP_SHARD_SIZE");
    assertThat(OptionSources.key("--shard-size")).isEqualTo("shard-size");
  }

  @Test
  void commandLineWinsOverEnvironmentAndJobFile(@TempDir Path dir) throws Exception {
    Path job = Files.writeString(dir.resolve("job.properties"), "shard-size=2MiB\ndb=fromfile\n");
    Probe p =
        parse(
            Map.of("FLATDUMP_SHARD_SIZE", "3MiB"),
            "--job-file",
            job.toString(),
            "--shard-size",
            "4MiB");
    assertThat(p.shardSize).isEqualTo("4MiB");
    assertThat(p.db).isEqualTo("fromfile");
  }

  @Test
  void environmentWinsOverJobFile(@TempDir Path dir) throws Exception {
    Path job = Files.writeString(dir.resolve("job.properties"), "shard-size=2MiB\n");
    Probe p = parse(Map.of("FLATDUMP_SHARD_SIZE", "3MiB"), "--job-file", job.toString());
    assertThat(p.shardSize).isEqualTo("3MiB");
  }

  @Test
  void jobFileWinsOverBuiltInDefault(@TempDir Path dir) throws Exception {
    Path job =
        Files.writeString(dir.resolve("job.properties"), "shard-size = 2MiB \nnew-run=true\n");
    Probe p = parse(Map.of(), "--job-file=" + job);
    assertThat(p.shardSize).isEqualTo("2MiB");
    assertThat(p.newRun).isTrue();
  }

  @Test
  void aSchemaInAJobFileLiesBesideIt(@TempDir Path dir) throws Exception {
    Path jobs = Files.createDirectories(dir.resolve("jobs"));
    Path job = Files.writeString(jobs.resolve("job.properties"), "schema=../schemas/a.fbs\n");
    assertThat(parse(Map.of(), "--job-file", job.toString()).schema)
        .isEqualTo(dir.resolve("schemas").resolve("a.fbs").toAbsolutePath());
    Path absolute = dir.resolve("b.fbs").toAbsolutePath();
    Files.writeString(job, "schema=" + absolute + "\n");
    assertThat(parse(Map.of(), "--job-file", job.toString()).schema).isEqualTo(absolute);
    // on the command line or in the environment, relative to where the command runs
    assertThat(parse(Map.of(), "--job-file", job.toString(), "--schema", "c.fbs").schema)
        .isEqualTo(Path.of("c.fbs"));
  }

  @Test
  void builtInDefaultWhenNothingElseSaysSo() {
    assertThat(parse(Map.of()).shardSize).isEqualTo("1GiB");
  }

  @Test
  void jobFileCanBeNamedByTheEnvironment(@TempDir Path dir) throws Exception {
    Path job = Files.writeString(dir.resolve("job.properties"), "db=viaenv\n");
    assertThat(parse(Map.of("FLATDUMP_JOB_FILE", job.toString())).db).isEqualTo("viaenv");
  }

  @Test
  void unknownJobFileKeyIsAnError(@TempDir Path dir) throws Exception {
    Path job = Files.writeString(dir.resolve("job.properties"), "shardsize=2MiB\n");
    String[] args = {"--job-file", job.toString()};
    OptionSources sources = OptionSources.of(args, Map.of());
    CommandLine cl = new CommandLine(new Probe());
    assertThatIllegalArgumentException()
        .isThrownBy(() -> sources.requireKnownKeys(cl.getCommandSpec()))
        .withMessageContaining("unknown key 'shardsize'")
        .withMessageContaining("shard-size");
  }

  @Test
  void unreadableJobFileIsAnError(@TempDir Path dir) {
    assertThatIllegalArgumentException()
        .isThrownBy(
            () ->
                OptionSources.of(
                    new String[] {"--job-file", dir.resolve("nope").toString()}, Map.of()))
        .withMessageContaining("cannot read job file");
  }
}
