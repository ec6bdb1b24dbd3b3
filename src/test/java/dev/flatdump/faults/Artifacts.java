package dev.flatdump.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.artifact.ArtifactFile;
import dev.flatdump.artifact.Checksums;
import dev.flatdump.artifact.Manifest;
import dev.flatdump.artifact.OutputLayout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Assertions about what an output directory holds under final names after a fault. */
final class Artifacts {

  private Artifacts() {}

  /**
   * Nothing partial is published in {@code out}: its top level holds no export file (only {@code
   * .flatdump}, {@code exports}, and the pointer), every directory under {@code exports/} is a
   * complete export (every file its manifest lists in place, data files byte-identical to the
   * reference's), and the pointer, when there is one, names such a directory. A published export is
   * allowed only if {@code publishAllowed}.
   *
   * @return how many files the published exports hold, manifests included
   */
  static int assertNothingPartialUnderFinalNames(
      Path out, ReferenceExport reference, boolean publishAllowed) throws IOException {
    if (!Files.isDirectory(out)) {
      return 0;
    }
    try (Stream<Path> top = Files.list(out)) {
      assertThat(top.map(p -> p.getFileName().toString()))
          .as("the top level of %s", out)
          .allMatch(
              n ->
                  List.of(
                          ".flatdump",
                          OutputLayout.EXPORTS,
                          OutputLayout.CURRENT_LINK,
                          OutputLayout.CURRENT_FILE)
                      .contains(n));
    }
    Path exports = out.resolve(OutputLayout.EXPORTS);
    int files = 0;
    for (Path dir : exportDirs(out)) {
      assertThat(publishAllowed).as("%s was published by a run that did not finish", dir).isTrue();
      assertManifestComplete(dir);
      assertSameData(dir, reference);
      files += Manifest.read(dir.resolve(Manifest.FILE_NAME)).files().size() + 1;
    }
    if (Files.exists(out.resolve(OutputLayout.CURRENT_FILE))
        || Files.isSymbolicLink(out.resolve(OutputLayout.CURRENT_LINK))) {
      Path current = OutputLayout.resolve(out);
      assertThat(current.getParent()).as("what the pointer names").isEqualTo(exports.toRealPath());
      assertManifestComplete(current);
    }
    return files;
  }

  /**
   * The SHA-256 of every file of an export but its reports and manifest, which carry times: what
   * two runs of the same export must share byte for byte.
   */
  static java.util.Map<String, String> dataFiles(Path dir) throws IOException {
    java.util.Map<String, String> sums = new java.util.TreeMap<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path p : files.toList()) {
        String name = p.getFileName().toString();
        if (!name.startsWith("report.") && !name.equals(Manifest.FILE_NAME)) {
          sums.put(name, Checksums.sha256(p));
        }
      }
    }
    return sums;
  }

  /** The export directories under {@code out/exports}, sorted; none if there is no such dir. */
  static List<Path> exportDirs(Path out) throws IOException {
    Path exports = out.resolve(OutputLayout.EXPORTS);
    if (!Files.isDirectory(exports)) {
      return List.of();
    }
    try (Stream<Path> dirs = Files.list(exports)) {
      return new ArrayList<>(dirs.sorted().toList());
    }
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
   * {@code out}'s current export is complete and its data files are byte-identical to the
   * reference's, with the same counts; it holds nothing but the files its manifest lists.
   */
  static void assertSameDataAsReference(Path out, ReferenceExport reference) throws IOException {
    Path dir = OutputLayout.resolve(out);
    assertThat(dir).as("the current export of %s", out).isNotEqualTo(out);
    assertManifestComplete(dir);
    assertSameData(dir, reference);
  }

  private static void assertSameData(Path dir, ReferenceExport reference) throws IOException {
    Manifest actual = Manifest.read(dir.resolve(Manifest.FILE_NAME));
    assertThat(actual.counts()).isEqualTo(reference.manifest().counts());
    List<ArtifactFile> expected = reference.dataFiles();
    assertThat(
            actual.files().stream().filter(f -> ReferenceExport.DATA_FORMATS.contains(f.format())))
        .as("data files of %s", dir)
        .containsExactlyElementsOf(expected);
    for (ArtifactFile f : expected) {
      assertThat(Checksums.sha256(dir.resolve(f.name())))
          .as("%s is byte-identical to the uninterrupted run's", f.name())
          .isEqualTo(f.sha256());
    }
    List<String> listed = new ArrayList<>(actual.files().stream().map(ArtifactFile::name).toList());
    listed.add(Manifest.FILE_NAME);
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .as("files of %s", dir)
          .containsExactlyInAnyOrderElementsOf(listed);
    }
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

  /** The step table a run printed: the lines of the job's steps, for a test's log. */
  static String stepTable(String output) {
    return output
        .lines()
        .filter(l -> l.matches("(step|\\w+Step) .*"))
        .map(l -> "  " + l + "\n")
        .collect(Collectors.joining());
  }
}
