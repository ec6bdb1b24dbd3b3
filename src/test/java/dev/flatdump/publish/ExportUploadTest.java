package dev.flatdump.publish;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.artifact.ArtifactFile;
import org.junit.jupiter.api.Test;

class ExportUploadTest {

  private static ArtifactFile file(String name, String format) {
    return new ArtifactFile(name, format, 1, "0".repeat(64), null, null);
  }

  @Test
  void sendsEachFileWithTheMediaTypeOfItsFormat() {
    assertThat(ExportUpload.contentType(file("a.fb", "flatbuffers")))
        .isEqualTo("application/octet-stream");
    assertThat(ExportUpload.contentType(file("a.fb.gz", "gzip"))).isEqualTo("application/gzip");
    assertThat(ExportUpload.contentType(file("a.fb.zst", "zstd"))).isEqualTo("application/zstd");
    assertThat(ExportUpload.contentType(file("report.html", "html")))
        .isEqualTo("text/html; charset=utf-8");
    assertThat(ExportUpload.contentType(file("x", "unknown")))
        .isEqualTo("application/octet-stream");
  }
}
