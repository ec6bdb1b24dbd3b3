package dev.flatdump.cli;

import dev.flatdump.artifact.read.RecordJson;
import dev.flatdump.artifact.read.SchemaArtifact;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code flatdump inspect}: summarizes an export (or one .fb file) and prints its first records.
 */
@Command(
    name = "inspect",
    mixinStandardHelpOptions = true,
    description = {
      "Prints what an export directory or a .fb file holds.",
      "Opens the export (through its manifest) or the file with mmap, and prints its shards,"
          + " its record count and the first N records as JSON lines, read through the binary"
          + " schema it carries.",
      "With --json, standard output holds the JSON lines only, every field written as flatc"
          + " --json --defaults-json writes it, and the shards and counts go to standard error."
    })
public final class InspectCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;

  @Mixin private ArtifactPath artifactPath;

  @Option(
      names = "--json",
      defaultValue = "0",
      paramLabel = "N",
      description =
          "Print the first N records as JSON lines on standard output, the summary on standard"
              + " error (default: ${DEFAULT-VALUE}).")
  private int json;

  @Override
  public Integer call() throws IOException {
    Path path = artifactPath.existing();
    if (json < 0) {
      throw new IllegalArgumentException("--json must be >= 0, got " + json);
    }
    PrintWriter out = spec.commandLine().getOut();
    // stdout is for the records alone when they are asked for, so that it can be piped as JSON
    PrintWriter summary = json > 0 ? spec.commandLine().getErr() : out;
    return inspect(SchemaArtifact.open(path), summary, out);
  }

  /** Its summary, then its records through the binary schema it carries. */
  private int inspect(SchemaArtifact artifact, PrintWriter summary, PrintWriter out)
      throws IOException {
    RecordJson records = RecordJson.withDefaults(artifact.plan());
    long total = 0;
    long bytes = 0;
    for (int i = 0; i < artifact.files().size(); i++) {
      Path f = artifact.files().get(i);
      long n = records.count(artifact.shards().get(i));
      long size = Files.size(f);
      total += n;
      bytes += size;
      summary.printf(
          Locale.ROOT, "shard %d  %s  %,d bytes  %,d records%n", i, f.getFileName(), size, n);
    }
    summary.printf(
        Locale.ROOT,
        "total  %,d records of %s in %,d bytes (%d shard%s)%n",
        total,
        artifact.plan().record().name(),
        bytes,
        artifact.files().size(),
        artifact.files().size() == 1 ? "" : "s");
    summary.flush();
    int printed = 0;
    for (int s = 0; s < artifact.shards().size() && printed < json; s++) {
      var shard = artifact.shards().get(s);
      int n = records.count(shard);
      for (int i = 0; i < n && printed < json; i++, printed++) {
        out.println(records.record(shard, i));
      }
    }
    out.flush();
    return 0;
  }
}
