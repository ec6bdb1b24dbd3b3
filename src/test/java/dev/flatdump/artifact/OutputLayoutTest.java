package dev.flatdump.artifact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OutputLayoutTest {

  @TempDir Path out;

  @Test
  void followsTheLinkToTheRealDirectory() throws IOException {
    Path dir = Files.createDirectories(out.resolve("exports/2026-01-01-1"));
    Files.createSymbolicLink(out.resolve("current"), Path.of("exports/2026-01-01-1"));

    assertThat(OutputLayout.resolve(out)).isEqualTo(dir.toRealPath());
  }

  @Test
  void followsTheTextFileWhereThereIsNoLink() throws IOException {
    Files.createDirectories(out.resolve("exports/2026-01-01-1"));
    Files.writeString(out.resolve("CURRENT"), "exports/2026-01-01-1\n");

    assertThat(OutputLayout.resolve(out)).isEqualTo(out.resolve("exports/2026-01-01-1"));
  }

  @Test
  void aDirectoryWithoutAPointerIsItsOwnExport() {
    assertThat(OutputLayout.resolve(out)).isEqualTo(out);
  }

  @Test
  void aBrokenLinkIsAnErrorNamingIt() throws IOException {
    Files.createSymbolicLink(out.resolve("current"), Path.of("exports/gone"));

    assertThatThrownBy(() -> OutputLayout.resolve(out))
        .isInstanceOf(ArtifactException.class)
        .hasMessageContaining("exports/gone")
        .hasMessageContaining("broken export pointer");
  }

  @Test
  void refusesATextFileThatPointsOutsideTheExports() throws IOException {
    Files.writeString(out.resolve("CURRENT"), "exports/../../etc\n");

    assertThatThrownBy(() -> OutputLayout.resolve(out))
        .isInstanceOf(ArtifactException.class)
        .hasMessageContaining("CURRENT");
  }

  @Test
  void exportNamesArePlainDirectoryNames() {
    assertThat(OutputLayout.pointerText("2026-01-01-17")).isEqualTo("exports/2026-01-01-17");
    assertThatThrownBy(() -> OutputLayout.exportDir(out, "../x"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> OutputLayout.exportDir(out, ".hidden"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
