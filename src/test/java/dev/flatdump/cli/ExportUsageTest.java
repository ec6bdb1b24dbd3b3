package dev.flatdump.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Usage errors of {@code export} found before anything connects or writes: exit 2, one line. */
class ExportUsageTest {

  @TempDir Path dir;

  private CliRun export(Map<String, String> env, String... more) {
    String[] base = {
      "export",
      "--uri",
      "mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=500",
      "--db",
      "d",
      "--collection",
      "c",
      "--out",
      dir.resolve("out").toString()
    };
    if (!java.util.Arrays.asList(more).contains("--schema")) { // the demo's, unless given
      more = concat(more, "--schema", Path.of("schemas", "organizations.fbs").toString());
    }
    String[] args = java.util.Arrays.copyOf(base, base.length + more.length);
    System.arraycopy(more, 0, args, base.length, more.length);
    return CliRun.withEnv(env, args);
  }

  private static String[] concat(String[] a, String... b) {
    String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }

  @ParameterizedTest
  @ValueSource(strings = {"+12026-01-01", "-0001-01-01", "0000-12-31"})
  void refusesARunDateOutsideFourDigitYears(String date) {
    CliRun run = export(Map.of(), "--run-date", date);

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(2);
    assertThat(run.err()).contains("run date must be in the years 0001 to 9999");
    assertThat(run.err()).doesNotContain("Exception").doesNotContain("\tat ");
    assertThat(dir.resolve("out")).doesNotExist();
  }

  @ParameterizedTest
  @ValueSource(strings = {"ten", "-2", "101%", "5%%"})
  void refusesAMaxRejectsThatIsNeitherACountNorAPercentage(String limit) {
    CliRun run = export(Map.of(), "--max-rejects", limit);

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(2);
    assertThat(run.err()).contains("max rejects").doesNotContain("\tat ");
    assertThat(dir.resolve("out")).doesNotExist();
  }

  @Test
  void takesMaxRejectsFromTheEnvironmentAsACountOrAPercentage() {
    // valid values get past the options, to the unreachable server: exit 1, not 2
    for (String limit : new String[] {"5%", "0.5%", "100", "none"}) {
      CliRun run = export(Map.of("FLATDUMP_MAX_REJECTS", limit));

      assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
      assertThat(run.err()).doesNotContain("max rejects");
    }
  }

  @Test
  void refusesAJobRepositoryThatIsNoJdbcUrl() {
    CliRun run = export(Map.of(), "--job-repository", "");

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(2);
    assertThat(run.err()).contains("--job-repository must be a JDBC URL");
    assertThat(dir.resolve("out")).doesNotExist();
  }

  @Test
  void refusesProtobufForASchemaWhoseFieldProtobufCannotNumber() throws Exception {
    // field 18999's protobuf twin would be number 19000, which protobuf reserves
    String fields =
        java.util.stream.IntStream.range(0, 19_000)
            .mapToObj(i -> "f" + i + ": int;")
            .collect(java.util.stream.Collectors.joining());
    Path schema =
        java.nio.file.Files.writeString(
            dir.resolve("wide.fbs"),
            "table Wide {" + fields + "} table Root { ws: [Wide]; } root_type Root;");

    CliRun run = export(Map.of(), "--schema", schema.toString(), "--compare", "json,protobuf");

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(2);
    assertThat(run.err())
        .contains("--compare protobuf: the protobuf baseline cannot map the schema: Wide.f18999");
    assertThat(dir.resolve("out")).doesNotExist();
  }

  @Test
  void refusesAnExportWithNoSchemaOrTwoAndInferOptionsWithoutInfer() {
    String[] target = {
      "export",
      "--uri",
      "mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=500",
      "--db",
      "d",
      "--collection",
      "c",
      "--out",
      dir.resolve("out").toString()
    };
    CliRun none = CliRun.of(target);
    assertThat(none.exitCode()).as(none.toString()).isEqualTo(2);
    assertThat(none.err())
        .contains("export needs a schema: give --schema FILE.fbs")
        .contains("schemas/organizations.fbs")
        .contains("or --infer");

    CliRun both = export(Map.of(), "--infer");
    assertThat(both.exitCode()).as(both.toString()).isEqualTo(2);
    assertThat(both.err()).contains("--schema and --infer exclude each other");

    CliRun mapAlone = export(Map.of(), "--map", "attrs");
    assertThat(mapAlone.exitCode()).as(mapAlone.toString()).isEqualTo(2);
    assertThat(mapAlone.err()).contains("are for --infer");
    assertThat(dir.resolve("out")).doesNotExist();
  }
}
