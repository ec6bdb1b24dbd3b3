package dev.flatdump.cli;

import dev.flatdump.artifact.OutputLayout;
import dev.flatdump.artifact.check.ExportChecker;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code flatdump check}: checks an export directory on its own, without MongoDB, through {@link
 * ExportChecker}. It prints one line per problem and a summary line. Exit codes: 0 sound, 1
 * problems found, 2 bad usage.
 */
@Command(
    name = "check",
    mixinStandardHelpOptions = true,
    description = {
      "Checks an export directory without MongoDB.",
      "It checks that:",
      "  - manifest.json parses; every file it lists exists with its size and sha256;",
      "  - every shard is a well-formed FlatBuffer of its schema (the bundled organizations, or",
      "    the binary schema the export carries), verified offset by offset, and holds the",
      "    records the manifest says;",
      "  - every .gz/.zst copy decompresses to exactly its shard's bytes;",
      "  - no shard file is unlisted, and counts.exported matches the shards.",
      "For an export of your own schema it also counts, per kind (strings, vectors, each table",
      "type), the equal objects a shard still holds more than once: 0 with de-dup on, except",
      "for a table type whose sampling paused (the report's de-dup table says which).",
      "Prints one line per problem and a summary line; exits 1 if there is any problem."
    })
public final class CheckCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;

  @Parameters(
      index = "0",
      paramLabel = "DIR",
      description =
          "An output directory (its current export is checked) or one export's directory.")
  private Path dir;

  @Override
  public Integer call() {
    if (!Files.isDirectory(dir)) {
      throw new IllegalArgumentException("not a directory: " + dir);
    }
    PrintWriter out = spec.commandLine().getOut();
    Path dir = OutputLayout.resolve(this.dir);
    ExportChecker.Result result = ExportChecker.check(dir);
    result.problems().forEach(p -> out.println("PROBLEM " + p));
    for (var c : result.audit()) {
      out.printf(
          Locale.ROOT,
          "de-dup audit: %s: %,d held more than once among %,d%n",
          c.kind(),
          c.duplicates(),
          c.objects());
    }
    if (result.clean()) {
      out.printf(
          Locale.ROOT,
          "checked %s: %d files, %d shard%s, %,d records, no problems%n",
          dir,
          result.files(),
          result.shards(),
          result.shards() == 1 ? "" : "s",
          result.records());
      out.flush();
      return 0;
    }
    out.printf(
        Locale.ROOT,
        "checked %s: %d problem%s in %d files%n",
        dir,
        result.problems().size(),
        result.problems().size() == 1 ? "" : "s",
        result.files());
    out.flush();
    return Flatdump.EXIT_FAILED;
  }
}
