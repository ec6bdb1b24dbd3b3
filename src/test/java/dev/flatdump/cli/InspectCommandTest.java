package dev.flatdump.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.flatdump.artifact.Manifest;
import dev.flatdump.artifact.check.ExportCheckFixtures;
import dev.flatdump.testing.SchemaFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

class InspectCommandTest {

  @TempDir Path dir;

  private Manifest manifest;

  @BeforeEach
  void writeExport() {
    manifest = ExportCheckFixtures.export(dir);
  }

  @Test
  void withJsonPrintsOnlyJsonLinesOnStdoutAndTheSummaryOnStderr() {
    CliRun run = CliRun.of("inspect", dir.toString(), "--json", "5");

    assertThat(run.exitCode()).as("%s", run).isZero();
    List<String> lines = run.out().lines().toList();
    assertThat(lines).hasSize(5);
    assertThat(lines).allSatisfy(line -> assertThat(SchemaFixtures.json(line).isObject()).isTrue());
    assertThat(run.err()).contains("shard 0", "total  " + ExportCheckFixtures.ORGS + " records");
  }

  @Test
  void readsTheExportThroughTheReaderLibraryWhichRefusesAShardTheManifestDoesNotDescribe()
      throws Exception {
    // a byte appended: still a valid FlatBuffer, but not the file the manifest lists
    Path shard = dir.resolve(manifest.shards().get(1).name());
    Files.write(shard, new byte[] {0}, StandardOpenOption.APPEND);

    CliRun run = CliRun.of("inspect", dir.toString());

    assertThat(run.exitCode()).as("%s", run).isNotZero();
    assertThat(run.err())
        .contains(shard.getFileName().toString(), "the manifest says", "a changed shard")
        .doesNotContain("\tat ");
  }

  @Test
  void withoutJsonPrintsTheSummaryOnStdout() {
    CliRun run = CliRun.of("inspect", dir.toString());

    assertThat(run.exitCode()).as("%s", run).isZero();
    assertThat(run.out()).contains("shard 0", "total  " + ExportCheckFixtures.ORGS + " records");
  }

  @Test
  void writesEveryFieldAsFlatcDefaultsJsonDoes() throws Exception {
    String shard = manifest.shards().get(0).name();
    int records = (int) (long) manifest.shards().get(0).records();
    CliRun run = CliRun.of("inspect", dir.resolve(shard).toString(), "--json", "" + records);
    assertThat(run.exitCode()).as("%s", run).isZero();

    JsonNode flatc =
        SchemaFixtures.flatcJson(
                dir.resolve("organizations.fbs"), dir.resolve(shard), "--defaults-json")
            .get("organizations");
    List<String> lines = run.out().lines().toList();
    assertThat(lines).hasSize(flatc.size());
    for (int i = 0; i < lines.size(); i++) {
      assertSameRecord(flatc.get(i), SchemaFixtures.json(lines.get(i)), "record " + i);
    }
    // the organizations hold false and 0 values, which a buffer leaves out
    assertThat(run.out()).contains("\"active\":false", "\"type\":\"FOO\"");
  }

  /**
   * The same fields with the same values, key order ignored; a double to within 1e-9, since flatc
   * prints it with 12 decimals and Java with as many as it takes.
   */
  private static void assertSameRecord(JsonNode flatc, JsonNode ours, String path) {
    if (flatc.isObject()) {
      assertThat(ours.isObject()).as(path).isTrue();
      assertThat(names(ours)).as(path).isEqualTo(names(flatc));
      for (String name : names(flatc)) {
        assertSameRecord(flatc.get(name), ours.get(name), path + "." + name);
      }
    } else if (flatc.isArray()) {
      assertThat(ours.size()).as(path).isEqualTo(flatc.size());
      for (int i = 0; i < flatc.size(); i++) {
        assertSameRecord(flatc.get(i), ours.get(i), path + "[" + i + "]");
      }
    } else if (flatc.isFloatingPointNumber()) {
      assertThat(ours.isNumber()).as(path).isTrue();
      assertThat(ours.doubleValue()).as(path).isCloseTo(flatc.doubleValue(), within(1e-9));
    } else {
      assertThat(ours).as(path).isEqualTo(flatc);
    }
  }

  private static Set<String> names(JsonNode object) {
    Set<String> names = new TreeSet<>();
    object.propertyNames().forEach(names::add);
    return names;
  }
}
