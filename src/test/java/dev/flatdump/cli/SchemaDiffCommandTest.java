package dev.flatdump.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SchemaDiffCommandTest {

  @TempDir Path dir;

  private static final String OLD =
      """
      table R { id: int; name: string; }
      table Root { records: [R]; }
      root_type Root;
      """;

  private Path write(String name, String text) throws Exception {
    return Files.writeString(dir.resolve(name), text);
  }

  @Test
  void exitsZeroWhenOldReadersReadTheNewData() throws Exception {
    Path old = write("old.fbs", OLD);
    Path now = write("new.fbs", OLD.replace("name: string; }", "name: string; score: double; }"));

    CliRun run = CliRun.of("schema-diff", old.toString(), now.toString());

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out())
        .contains("compatible: R.score (id 2): new field: old readers skip it")
        .contains("compatible: code generated for " + old + " reads data written with " + now);
  }

  @Test
  void exitsOneNamingEachBreakingChange() throws Exception {
    Path old = write("old.fbs", OLD);
    Path now = write("new.fbs", OLD.replace("id: int;", "id: long;"));

    CliRun run = CliRun.of("schema-diff", old.toString(), now.toString());

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
    assertThat(run.out())
        .contains("breaking: R.id (id 0): type int → long")
        .contains("1 breaking change: code generated for " + old + " misreads data written with");
  }

  @Test
  void aMissingOrBrokenSchemaIsAUsageErrorNotABreakingChange() throws Exception {
    Path old = write("old.fbs", OLD);
    Path broken = write("broken.fbs", "table R { id: nosuchtype; }");

    CliRun missing = CliRun.of("schema-diff", old.toString(), dir.resolve("nope.fbs").toString());
    CliRun bad = CliRun.of("schema-diff", old.toString(), broken.toString());

    assertThat(missing.exitCode()).as(missing.toString()).isEqualTo(2);
    assertThat(missing.err()).contains("no such schema or export").doesNotContain("Exception");
    assertThat(bad.exitCode()).as(bad.toString()).isEqualTo(2);
    assertThat(bad.err()).contains("broken.fbs").doesNotContain("\tat ");
  }

  @Test
  void aDamagedBinarySchemaIsAUsageErrorWithoutAStackTrace() throws Exception {
    Path old = write("old.fbs", OLD);
    byte[] bfbs = dev.flatdump.encode.plan.FlatcRunner.compile(old);
    Path truncated =
        Files.write(dir.resolve("truncated.bfbs"), java.util.Arrays.copyOf(bfbs, bfbs.length / 2));

    CliRun run = CliRun.of("schema-diff", old.toString(), truncated.toString());

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(2);
    assertThat(run.err())
        .contains("truncated.bfbs")
        .doesNotContain("\tat ")
        .doesNotContain("Exception");
  }
}
