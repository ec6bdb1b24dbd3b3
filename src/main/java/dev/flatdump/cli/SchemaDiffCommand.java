package dev.flatdump.cli;

import dev.flatdump.artifact.Manifest;
import dev.flatdump.artifact.OutputLayout;
import dev.flatdump.artifact.SchemaFiles;
import dev.flatdump.encode.plan.SchemaDiff;
import dev.flatdump.encode.plan.SchemaException;
import dev.flatdump.encode.plan.SchemaPlan;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code flatdump schema-diff OLD NEW}: whether code generated for OLD reads data written with NEW
 * ({@link SchemaDiff}). Exit codes: 0 compatible, 1 a breaking change, 2 bad usage.
 */
@Command(
    name = "schema-diff",
    mixinStandardHelpOptions = true,
    description = {
      "Says whether readers built for OLD read data written with NEW.",
      "Each schema is a .fbs, a .bfbs, or an export (an output directory, whose current export's",
      "schema is taken, or an export's own directory). Prints every change, breaking ones first:",
      "a field that changed its type, default, key or requiredness, a struct that changed, an",
      "enum value that changed, another root type or file identifier. New fields, renamed or",
      "deprecated ones and new enum values are compatible. Exits 1 on a breaking change."
    })
public final class SchemaDiffCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;

  @Parameters(index = "0", paramLabel = "OLD", description = "The schema readers were built from.")
  private Path before;

  @Parameters(index = "1", paramLabel = "NEW", description = "The schema data is written with.")
  private Path after;

  @Override
  public Integer call() {
    SchemaPlan old = plan(before);
    SchemaPlan now = plan(after);
    List<SchemaDiff.Change> changes = SchemaDiff.between(old, now);
    PrintWriter out = spec.commandLine().getOut();
    changes.forEach(out::println);
    long breaking = changes.stream().filter(SchemaDiff.Change::breaking).count();
    if (breaking == 0) {
      out.println("compatible: code generated for " + before + " reads data written with " + after);
      return 0;
    }
    out.println(
        breaking
            + (breaking == 1 ? " breaking change" : " breaking changes")
            + ": code generated for "
            + before
            + " misreads data written with "
            + after);
    return Flatdump.EXIT_FAILED;
  }

  private static SchemaPlan plan(Path path) {
    if (Files.isDirectory(path)) {
      Path dir = OutputLayout.resolve(path);
      Path manifest = dir.resolve(Manifest.FILE_NAME);
      if (!Files.isRegularFile(manifest)) {
        throw new IllegalArgumentException(
            path
                + " is neither a schema file nor an export (it has no "
                + Manifest.FILE_NAME
                + ")");
      }
      return SchemaFiles.exportPlan(dir, Manifest.read(manifest));
    }
    if (!Files.isRegularFile(path)) {
      throw new IllegalArgumentException("no such schema or export: " + path);
    }
    try {
      return SchemaFiles.of(path).plan();
    } catch (SchemaException e) {
      throw new IllegalArgumentException(e.getMessage(), e); // a schema that does not load: usage
    }
  }
}
