package dev.flatdump.cli;

import dev.flatdump.Org;
import dev.flatdump.artifact.OrgArtifact;
import dev.flatdump.artifact.RecordJson;
import dev.flatdump.artifact.SchemaArtifact;
import dev.flatdump.encode.OrgStreamEncoder;
import dev.flatdump.encode.StreamFormat;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
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
          + " its record count and the first N records as JSON lines; an export of your own"
          + " schema is read through the binary schema it carries."
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
    if (SchemaArtifact.isSchemaExport(path)) {
      return inspect(SchemaArtifact.open(path), out);
    }
    OrgArtifact artifact = OrgArtifact.open(path);
    long total = 0;
    long bytes = 0;
    for (int i = 0; i < artifact.files().size(); i++) {
      Path f = artifact.files().get(i);
      long n = dev.flatdump.encode.FlatBufferOrgs.count(artifact.shards().get(i));
      long size = Files.size(f);
      total += n;
      bytes += size;
      out.printf(
          Locale.ROOT, "shard %d  %s  %,d bytes  %,d organizations%n", i, f.getFileName(), size, n);
    }
    out.printf(
        Locale.ROOT,
        "total  %,d organizations in %,d bytes (%d shard%s)%n",
        total,
        bytes,
        artifact.files().size(),
        artifact.files().size() == 1 ? "" : "s");
    out.flush();
    if (json > 0) {
      OutputStream stdout =
          new FilterOutputStream(System.out) {
            @Override
            public void close() throws IOException {
              flush(); // never close System.out
            }
          };
      try (OrgStreamEncoder enc = OrgStreamEncoder.create(StreamFormat.JSON, stdout)) {
        int printed = 0;
        for (Org org : artifact) {
          if (printed++ >= json) {
            break;
          }
          enc.write(org);
        }
      }
    }
    return 0;
  }

  /** An export of the user's schema: its records through the binary schema it carries. */
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
