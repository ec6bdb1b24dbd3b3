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
          + " schema it carries."
    })
public final class InspectCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;

  @Mixin private ArtifactPath artifactPath;

  @Option(
      names = "--json",
      defaultValue = "0",
      paramLabel = "N",
      description = "Print the first N records as JSON (default: ${DEFAULT-VALUE}).")
  private int json;

  @Override
  public Integer call() throws IOException {
    Path path = artifactPath.existing();
    if (json < 0) {
      throw new IllegalArgumentException("--json must be >= 0, got " + json);
    }
    PrintWriter out = spec.commandLine().getOut();
    return inspect(SchemaArtifact.open(path), out);
  }

  /** Its records, through the binary schema it carries. */
  private int inspect(SchemaArtifact artifact, PrintWriter out) throws IOException {
    RecordJson records = new RecordJson(artifact.plan());
    long total = 0;
    long bytes = 0;
    for (int i = 0; i < artifact.files().size(); i++) {
      Path f = artifact.files().get(i);
      long n = records.count(artifact.shards().get(i));
      long size = Files.size(f);
      total += n;
      bytes += size;
      out.printf(
          Locale.ROOT, "shard %d  %s  %,d bytes  %,d records%n", i, f.getFileName(), size, n);
    }
    out.printf(
        Locale.ROOT,
        "total  %,d records of %s in %,d bytes (%d shard%s)%n",
        total,
        artifact.plan().record().name(),
        bytes,
        artifact.files().size(),
        artifact.files().size() == 1 ? "" : "s");
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
