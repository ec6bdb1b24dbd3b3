package dev.flatdump.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code flatdump infer}'s usage errors: exit 2, one line saying what is wrong, no stack trace. */
class InferCommandTest {

  private static final String[] TARGET = {
    "--uri", "mongodb://127.0.0.1:1", "--db", "d", "--collection", "c"
  };

  private static CliRun infer(String... more) {
    String[] args = new String[1 + TARGET.length + more.length];
    args[0] = "infer";
    System.arraycopy(TARGET, 0, args, 1, TARGET.length);
    System.arraycopy(more, 0, args, 1 + TARGET.length, more.length);
    return CliRun.of(args);
  }

  @Test
  void aBadSampleIsAUsageError() {
    for (String bad : new String[] {"0", "-5", "some", "1e6", ""}) {
      CliRun run = infer("--sample", bad);
      assertThat(run.exitCode()).as(run.toString()).isEqualTo(2);
      assertThat(run.err())
          .as(run.toString())
          .contains("--sample must be a number of documents (1 to 2147483647) or 'all', got '")
          .doesNotContain("\tat ");
    }
  }

  @Test
  void aQueryThatIsNotOneDocumentIsAUsageError() {
    CliRun run = infer("--query", "{a: ");
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(2);
    assertThat(run.err()).contains("--query is not a JSON document").doesNotContain("\tat ");
    CliRun two = infer("--query", "{} {}");
    assertThat(two.exitCode()).as(two.toString()).isEqualTo(2);
    assertThat(two.err()).contains("--query must be exactly one JSON document");
  }

  @Test
  void missingTargetOptionsAreNamed() {
    CliRun run = CliRun.of("infer", "--db", "d");
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(2);
    assertThat(run.err()).contains("missing --uri, --collection");
  }

  @Test
  void anUnknownOptionIsAUsageError() {
    CliRun run = infer("--frobnicate");
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(2);
    assertThat(run.err()).contains("Unknown option: '--frobnicate'");
  }

  @Test
  void deprecateMissingNeedsEvolve() {
    CliRun run = infer("--deprecate-missing");
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(2);
    assertThat(run.err()).contains("--deprecate-missing goes with --evolve OLD.fbs");
  }

  @Test
  void anEarlierSchemaThatCannotBeReadIsNamedBeforeAnythingIsRead() {
    CliRun run = infer("--evolve", "no/such/old.fbs");
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(2);
    assertThat(run.err()).contains("no/such/old.fbs").doesNotContain("\tat ");
  }

  @Test
  void helpSaysWhatItDoes() {
    CliRun run = CliRun.of("infer", "--help");
    assertThat(run.exitCode()).isZero();
    assertThat(run.out())
        .contains("Infers a .fbs schema from a collection, for export --schema.")
        .contains("--sample=N|all")
        .contains("--narrow-integers")
        .contains("--out=FILE.fbs");
  }

  @Test
  void exportsOutDirectoryInTheEnvironmentIsNotTheSchemaFile() {
    // FLATDUMP_OUT names export's directory; infer's --out is taken from its command line only,
    // so this run goes as far as connecting (and fails there: nothing listens on port 1)
    CliRun run =
        CliRun.withEnv(
            Map.of(
                "FLATDUMP_OUT",
                "/",
                "FLATDUMP_URI",
                "mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=200"),
            "infer",
            "--db",
            "d",
            "--collection",
            "c");
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
    assertThat(run.err()).doesNotContain("--out names a directory").contains("MongoDB");
  }
}
