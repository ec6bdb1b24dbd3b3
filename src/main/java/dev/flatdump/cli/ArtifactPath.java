package dev.flatdump.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Parameters;

/** The PATH argument of the commands that open an export directory or one .fb file. */
public final class ArtifactPath {

  @Parameters(
      index = "0",
      paramLabel = "PATH",
      description =
          "An output directory (its current export), one export's directory, or a .fb file.")
  private Path path;

  /** The path given, or a usage error naming it if there is nothing there. */
  public Path existing() {
    if (!Files.exists(path)) {
      throw new IllegalArgumentException("no such file or directory: " + path);
    }
    return path;
  }
}
