package dev.flatdump.artifact;

import dev.flatdump.encode.plan.FlatcRunner;
import dev.flatdump.encode.plan.SchemaException;
import dev.flatdump.encode.plan.SchemaPlan;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * An export's schema as the export carries it: the {@code .fbs} (the user's, when they gave one, or
 * the bundled {@code organizations.fbs}) and its binary schema ({@code .bfbs}), both under the
 * schema's own name, e.g. {@code states.fbs} and {@code states.bfbs} beside {@code states.fb}. The
 * binary schema is self-contained (includes resolved), so a consumer in any language can generate a
 * reader from it, and flatdump reads it back without flatc.
 *
 * <p>An export stages these files once, when it starts; a restart takes the plan from the staged
 * binary schema, so every shard of one export follows the same schema even if the user's file
 * changed in between ({@link #requireUnchanged} says so instead).
 *
 * @param name the schema's name: the file name without {@code .fbs} or {@code .bfbs}; it names the
 *     shards too
 * @param text the {@code .fbs} text, or null when the user gave a binary schema
 * @param binary the binary schema
 */
public record SchemaFiles(String name, byte[] text, byte[] binary) {

  public static final String TEXT_EXTENSION = ".fbs";
  public static final String BINARY_EXTENSION = ".bfbs";

  /**
   * The name of the schema bundled in the jar, the articles' organizations, which an export follows
   * when it names no schema.
   */
  public static final String BUNDLED = "organizations";

  public SchemaFiles {
    Objects.requireNonNull(name, "SchemaFiles.name");
    Objects.requireNonNull(binary, "SchemaFiles.binary");
  }

  /**
   * Reads a user's schema: a {@code .fbs} is compiled with flatc, a {@code .bfbs} is taken as it
   * is.
   *
   * @throws SchemaException when the file cannot be read or compiled; the message says why
   */
  public static SchemaFiles of(Path schema) {
    String name = nameOf(schema);
    if (!Files.isRegularFile(schema)) {
      throw new SchemaException("no such schema file: " + schema);
    }
    try {
      if (schema.getFileName().toString().endsWith(BINARY_EXTENSION)) {
        return new SchemaFiles(name, null, Files.readAllBytes(schema));
      }
      byte[] text = Files.readAllBytes(schema);
      byte[] binary = FlatcRunner.compile(schema);
      SchemaPlan.fromText(binary, schema); // refuses what the binary schema cannot carry
      return new SchemaFiles(name, text, binary);
    } catch (IOException e) {
      throw new SchemaException("cannot read schema " + schema + ": " + e.getMessage(), e);
    }
  }

  /**
   * The schema bundled in the jar ({@code schemas/organizations.fbs}), with the binary schema the
   * build compiled from it: no flatc runs.
   *
   * @throws IllegalStateException when the jar lacks either file: a broken build
   */
  public static SchemaFiles bundled() {
    return new SchemaFiles(
        BUNDLED, resource(BUNDLED + TEXT_EXTENSION), resource(BUNDLED + BINARY_EXTENSION));
  }

  /**
   * The schema an export follows: the user's file, or the bundled one when {@code schema} is null.
   */
  public static SchemaFiles forExport(Path schema) {
    return schema == null ? bundled() : of(schema);
  }

  /** The name of the schema an export follows: {@link #nameOf}, or {@link #BUNDLED} for null. */
  public static String nameFor(Path schema) {
    return schema == null ? BUNDLED : nameOf(schema);
  }

  private static byte[] resource(String file) {
    String path = "schemas/" + file;
    try (InputStream in = SchemaFiles.class.getClassLoader().getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException(path + " is missing from the classpath: broken build");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + path + ": " + e.getMessage(), e);
    }
  }

  /**
   * The name of the schema in {@code schema}: its file name without {@code .fbs} or {@code .bfbs}.
   *
   * @throws SchemaException for another extension, or a name that cannot name shards
   */
  public static String nameOf(Path schema) {
    String file = schema.getFileName().toString();
    if (file.endsWith(BINARY_EXTENSION)) {
      return stem(file, BINARY_EXTENSION);
    }
    if (file.endsWith(TEXT_EXTENSION)) {
      return stem(file, TEXT_EXTENSION);
    }
    throw new SchemaException(
        "schema "
            + schema
            + ": expected a FlatBuffers schema (.fbs) or a binary schema (.bfbs), by its extension");
  }

  private static String stem(String file, String extension) {
    String stem = file.substring(0, file.length() - extension.length());
    if (stem.isEmpty() || !stem.matches("[A-Za-z0-9_.-]+") || stem.startsWith(".")) {
      throw new SchemaException(
          "schema file name '"
              + file
              + "': its name becomes the shards' names, so it must be letters, digits, '_', '-'"
              + " or '.', not starting with '.'");
    }
    return stem;
  }

  /** The plan the export follows. */
  public SchemaPlan plan() {
    return SchemaPlan.fromBinary(ByteBuffer.wrap(binary), name + BINARY_EXTENSION);
  }

  /** The text schema's file name, or null when there is none. */
  public String textFile() {
    return text == null ? null : name + TEXT_EXTENSION;
  }

  public String binaryFile() {
    return name + BINARY_EXTENSION;
  }

  /** Writes the files into {@code dir}, each atomically; returns their paths. */
  public List<Path> stage(Path dir) {
    List<Path> written = new ArrayList<>();
    if (text != null) {
      Path t = dir.resolve(textFile());
      AtomicFiles.write(t, out -> out.write(text));
      written.add(t);
    }
    Path b = dir.resolve(binaryFile());
    AtomicFiles.write(b, out -> out.write(binary));
    written.add(b);
    return written;
  }

  /**
   * The schema staged in {@code dir} as {@code name}: the binary schema, and the text one if it is
   * there.
   *
   * @throws ArtifactException when the binary schema is missing
   */
  public static SchemaFiles staged(Path dir, String name) {
    Path b = dir.resolve(name + BINARY_EXTENSION);
    Path t = dir.resolve(name + TEXT_EXTENSION);
    try {
      byte[] binary = Files.readAllBytes(b);
      byte[] text = Files.isRegularFile(t) ? Files.readAllBytes(t) : null;
      return new SchemaFiles(name, text, binary);
    } catch (IOException e) {
      throw new ArtifactException("cannot read the staged schema " + b + ": " + e.getMessage(), e);
    }
  }

  /**
   * Fails when the user's schema file (or, for null, the bundled schema) no longer holds what this
   * export staged when it started.
   *
   * @throws ArtifactException naming the file
   */
  public void requireUnchanged(Path schema) {
    if (schema == null) {
      if (!Arrays.equals(bundled().binary, binary)) {
        throw new ArtifactException(
            "the bundled organizations schema is not the one this export started with (another"
                + " flatdump version); its shards so far follow the schema it had then. Finish it"
                + " with that version, or start a fresh export with --new-run");
      }
      return;
    }
    byte[] now;
    try {
      now = Files.readAllBytes(schema);
    } catch (IOException e) {
      throw new ArtifactException("cannot read schema " + schema + ": " + e.getMessage(), e);
    }
    byte[] then = text != null ? text : binary;
    if (!Arrays.equals(now, then)) {
      throw new ArtifactException(
          "schema "
              + schema
              + " changed since this export started; its shards so far follow the schema it had"
              + " then. Restore it, or start a fresh export with --new-run");
    }
  }

  /** The plan of the binary schema the export in {@code dir} carries ({@link #exportBinary}). */
  public static SchemaPlan exportPlan(Path dir, Manifest manifest) {
    return exportPlan(dir, manifest, exportBinary(dir, manifest));
  }

  /** The plan of {@code binary}, the binary schema the export in {@code dir} carries. */
  public static SchemaPlan exportPlan(Path dir, Manifest manifest, byte[] binary) {
    String source = dir.resolve(manifest.schema().binary()).toString();
    try {
      return SchemaPlan.fromBinary(ByteBuffer.wrap(binary), source);
    } catch (SchemaException e) {
      throw new ArtifactException(
          "the binary schema " + source + " does not load: " + e.getMessage(), e);
    }
  }

  /**
   * The binary schema the export in {@code dir} carries, which its manifest names.
   *
   * @throws ArtifactException when it is missing or unreadable
   */
  public static byte[] exportBinary(Path dir, Manifest manifest) {
    Path file = dir.resolve(manifest.schema().binary());
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw new ArtifactException(
          "cannot read the binary schema " + file + ": " + e.getMessage(), e);
    }
  }
}
