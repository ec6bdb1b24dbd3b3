package dev.flatdump.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.artifact.ArtifactFile;
import dev.flatdump.artifact.Checksums;
import dev.flatdump.artifact.Manifest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Assertions about what an export directory holds under final names after a fault. */
final class Artifacts {

  private Artifacts() {}

  /**
   * Nothing partial sits under a final name in {@code out}: every regular file whose name does not
   * start with a dot is one the reference lists and, for a data file, is byte-identical to it. A
   * {@code manifest.json} may exist only if {@code manifestAllowed}, and then every file it lists
   * is in place and complete.
   *
   * @return how many files sit under final names
   */
  static int assertNothingPartialUnderFinalNames(
      Path out, ReferenceExport reference, boolean manifestAllowed) throws IOException {
    if (!Files.isDirectory(out)) {
      return 0;
    }
    Map<String, ArtifactFile> listed =
        reference.manifest().files().stream()
            .collect(Collectors.toMap(ArtifactFile::name, Function.identity()));
    List<Path> published = finalNames(out);
    for (Path p : published) {
      String name = p.getFileName().toString();
      if (name.equals(Manifest.FILE_NAME)) {
        assertThat(manifestAllowed).as("%s was published by a run that did not finish", p).isTrue();
        assertManifestComplete(out);
        continue;
      }
      ArtifactFile expected = listed.get(name);
      assertThat(expected).as("%s is not a file of the export", p).isNotNull();
      if (ReferenceExport.DATA_FORMATS.contains(expected.format())) {
        assertThat(Files.size(p)).as("size of %s", p).isEqualTo(expected.bytes());
        assertThat(Checksums.sha256(p)).as("sha256 of %s", p).isEqualTo(expected.sha256());
      } else {
        assertThat(Files.size(p)).as("size of %s", p).isPositive();
      }
    }
    return published.size();
  }

  /** Every file {@code dir/manifest.json} lists is there, with its size and sha256. */
  static void assertManifestComplete(Path dir) {
    Manifest m = Manifest.read(dir.resolve(Manifest.FILE_NAME));
    for (ArtifactFile f : m.files()) {
      Path p = dir.resolve(f.name());
      assertThat(p).as("listed in %s/manifest.json", dir).isRegularFile();
      assertThat(Checksums.sha256(p)).as("sha256 of %s", p).isEqualTo(f.sha256());
    }
  }

  /**
   * {@code out} holds a complete export whose data files are byte-identical to the reference's,
   * with the same counts, and no temporary file under {@code out}'s top level.
   */
  static void assertSameDataAsReference(Path out, ReferenceExport reference) throws IOException {
    Manifest actual = Manifest.read(out.resolve(Manifest.FILE_NAME));
    assertThat(actual.counts()).isEqualTo(reference.manifest().counts());
    assertManifestComplete(out);
    List<ArtifactFile> expected = reference.dataFiles();
    assertThat(
            actual.files().stream().filter(f -> ReferenceExport.DATA_FORMATS.contains(f.format())))
        .as("data files of %s", out)
        .containsExactlyElementsOf(expected);
    for (ArtifactFile f : expected) {
      assertThat(Checksums.sha256(out.resolve(f.name())))
          .as("%s is byte-identical to the uninterrupted run's", f.name())
          .isEqualTo(f.sha256());
    }
    try (Stream<Path> files = Files.list(out)) {
      assertThat(files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".tmp")))
          .as("temporary files left in %s", out)
          .isEmpty();
    }
  }

  /** The step table a run printed: the lines of the job's steps, for a test's log. */
  static String stepTable(String output) {
    return output
        .lines()
        .filter(l -> l.matches("(step|\\w+Step) .*"))
        .map(l -> "  " + l + "\n")
        .collect(Collectors.joining());
  }

  /** Regular files of {@code dir} (not below it) whose names do not start with a dot, sorted. */
  static List<Path> finalNames(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .filter(Files::isRegularFile)
          .filter(p -> !p.getFileName().toString().startsWith("."))
          .sorted()
          .toList();
    }
  }
}
