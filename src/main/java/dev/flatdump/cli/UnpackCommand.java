package dev.flatdump.cli;

import dev.flatdump.artifact.ArtifactException;
import dev.flatdump.artifact.ArtifactFile;
import dev.flatdump.artifact.AtomicFiles;
import dev.flatdump.artifact.Manifest;
import dev.flatdump.columnar.ColumnarCopy;
import dev.flatdump.columnar.ColumnarException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code flatdump unpack}: rebuilds shards from their columnar copies, byte for byte, each checked
 * against the SHA-256 its copy carries and, when the copy lies in an export's directory, the one
 * its manifest lists. Exit codes: 0 rebuilt, 1 a copy that does not rebuild, 2 bad usage.
 */
@Command(
    name = "unpack",
    mixinStandardHelpOptions = true,
    description = {
      "Rebuilds shards (.fb) from their columnar copies (.fbc).",
      "Byte for byte: each rebuilt shard is checked against the SHA-256 its copy carries and, when the copy",
      "lies in an export's directory, against the one manifest.json lists for the shard; a",
      "mismatch is an error and nothing is written. The binary schema is --schema, else the one",
      "the manifest beside the copy names, else the only .bfbs beside it. Each shard is written",
      "atomically next to its copy (or into --out); an existing file is left alone if it holds",
      "the same bytes and refused otherwise."
    })
public final class UnpackCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "FILE.fbc", description = "Columnar copies.")
  private List<Path> copies;

  @Option(
      names = "--schema",
      paramLabel = "FILE.bfbs",
      description = "The binary schema the copies were made with (default: found beside them).")
  private Path schema;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description = "Where the shards go (default: beside each copy).")
  private Path out;

  @Override
  public Integer call() throws IOException {
    PrintWriter print = spec.commandLine().getOut();
    for (Path copy : copies) {
      if (!Files.isRegularFile(copy)) {
        throw new IllegalArgumentException("no such file: " + copy);
      }
      String name = copy.getFileName().toString();
      if (!name.endsWith(ColumnarCopy.EXTENSION)) {
        throw new IllegalArgumentException(
            "not a columnar copy (its name does not end in "
                + ColumnarCopy.EXTENSION
                + "): "
                + copy);
      }
    }
    if (schema != null && !Files.isRegularFile(schema)) {
      throw new IllegalArgumentException("no such file: " + schema);
    }
    if (out != null) {
      if (Files.exists(out) && !Files.isDirectory(out)) {
        throw new IllegalArgumentException("--out " + out + " is not a directory");
      }
      try {
        Files.createDirectories(out);
      } catch (IOException e) {
        throw new IllegalArgumentException("--out " + out + " cannot be made a directory: " + e);
      }
    }
    for (Path copy : copies) {
      try {
        unpack(copy, print);
      } catch (IOException e) {
        // A file that cannot be read or written: one line, as for a copy that does not rebuild.
        throw new ArtifactException("cannot unpack " + copy + ": " + e, e);
      }
    }
    print.flush();
    return 0;
  }

  private void unpack(Path copy, PrintWriter print) throws IOException {
    Path dir = copy.toAbsolutePath().getParent();
    String shardName = ColumnarCopy.shardName(copy.getFileName().toString());
    Manifest manifest = manifestBeside(dir);
    Path bfbs = schema != null ? schema : schemaBeside(dir, manifest, copy);
    byte[] shard;
    String sha;
    try {
      byte[] bytes = Files.readAllBytes(copy);
      shard = ColumnarCopy.rebuild(bytes, Files.readAllBytes(bfbs));
      sha = ColumnarCopy.sha256(bytes); // the rebuild checked its bytes against it
    } catch (ColumnarException e) {
      throw new ArtifactException(copy + " does not rebuild: " + e.getMessage(), e);
    }
    if (manifest != null) {
      ArtifactFile listed =
          manifest.files().stream()
              .filter(f -> f.name().equals(shardName))
              .findFirst()
              .orElse(null);
      if (listed != null && (listed.bytes() != shard.length || !listed.sha256().equals(sha))) {
        throw new ArtifactException(
            copy
                + " rebuilds "
                + shard.length
                + " bytes with sha256 "
                + sha
                + ", but "
                + dir.resolve(Manifest.FILE_NAME)
                + " lists "
                + shardName
                + " as "
                + listed.bytes()
                + " bytes with sha256 "
                + listed.sha256());
      }
    }
    Path target = (out != null ? out : dir).resolve(shardName);
    if (Files.exists(target)) {
      if (Files.size(target) == shard.length && Arrays.equals(Files.readAllBytes(target), shard)) {
        print.printf(Locale.ROOT, "%s: already holds these bytes (sha256 %s)%n", target, sha);
        return;
      }
      throw new ArtifactException(
          target + " exists and holds other bytes; move it away or give --out");
    }
    AtomicFiles.write(target, ByteBuffer.wrap(shard));
    print.printf(
        Locale.ROOT,
        "%s: rebuilt %,d bytes from %s, sha256 %s%n",
        target,
        shard.length,
        copy.getFileName(),
        sha);
  }

  /** The manifest of the export whose directory holds the copy, or null when there is none. */
  private static Manifest manifestBeside(Path dir) {
    Path file = dir.resolve(Manifest.FILE_NAME);
    return Files.isRegularFile(file) ? Manifest.read(file) : null;
  }

  private static Path schemaBeside(Path dir, Manifest manifest, Path copy) throws IOException {
    if (manifest != null) {
      Path named = dir.resolve(manifest.schema().binary());
      if (Files.isRegularFile(named)) {
        return named;
      }
    }
    List<Path> found = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "*.bfbs")) {
      ds.forEach(found::add);
    }
    if (found.size() != 1) {
      throw new IllegalArgumentException(
          (found.isEmpty() ? "no binary schema (.bfbs)" : found.size() + " binary schemas")
              + " beside "
              + copy
              + ": give --schema");
    }
    return found.get(0);
  }
}
