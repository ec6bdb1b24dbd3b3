package dev.flatdump.artifact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFilesTest {

  @TempDir Path dir;

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** The directory's file names, sorted: temporaries included. */
  private List<String> names() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void temporaryIsAHiddenSiblingNamedAfterTheTarget() {
    assertThat(AtomicFiles.temporaryFor(dir.resolve("organizations-00000.fb")))
        .isEqualTo(dir.resolve(".organizations-00000.fb.tmp"));
  }

  @Nested
  class WriteContent {

    @Test
    void writesExactlyTheBytes() throws IOException {
      byte[] data = new byte[200_000]; // larger than the 64 KiB stream buffer
      for (int i = 0; i < data.length; i++) {
        data[i] = (byte) (i * 31 + 7);
      }
      Path target = dir.resolve("data.bin");

      AtomicFiles.write(target, out -> out.write(data));

      assertThat(Files.readAllBytes(target)).isEqualTo(data);
    }

    @Test
    void leavesNoTemporaryFile() throws IOException {
      AtomicFiles.write(dir.resolve("a.json"), out -> out.write(bytes("{}")));

      assertThat(names()).containsExactly("a.json");
    }

    @Test
    void replacesAnExistingFile() throws IOException {
      Path target = dir.resolve("a.json");
      Files.write(target, bytes("an older and longer content"));

      AtomicFiles.write(target, out -> out.write(bytes("new")));

      assertThat(Files.readString(target)).isEqualTo("new");
    }

    @Test
    void replacesATemporaryLeftByACrash() throws IOException {
      Path target = dir.resolve("a.json");
      Files.write(AtomicFiles.temporaryFor(target), bytes("half-written garbage from a crash"));

      AtomicFiles.write(target, out -> out.write(bytes("ok")));

      assertThat(Files.readString(target)).isEqualTo("ok");
      assertThat(names()).containsExactly("a.json");
    }

    @Test
    void contentThatThrowsLeavesNoFinalAndNoTemporaryFile() throws IOException {
      Path target = dir.resolve("a.json");

      assertThatIllegalStateException()
          .isThrownBy(
              () ->
                  AtomicFiles.write(
                      target,
                      out -> {
                        out.write(bytes("partial"));
                        throw new IllegalStateException("boom");
                      }))
          .withMessage("boom");

      assertThat(target).doesNotExist();
      assertThat(names()).isEmpty();
    }

    @Test
    void contentThatThrowsLeavesAnExistingFileUnchanged() throws IOException {
      Path target = dir.resolve("a.json");
      Files.write(target, bytes("previous export"));

      assertThatThrownBy(
              () ->
                  AtomicFiles.write(
                      target,
                      out -> {
                        out.write(bytes("partial"));
                        throw new IllegalStateException("boom");
                      }))
          .isInstanceOf(IllegalStateException.class);

      assertThat(Files.readString(target)).isEqualTo("previous export");
      assertThat(names()).containsExactly("a.json");
    }

    @Test
    void anIOExceptionFromTheContentBecomesAnArtifactExceptionNamingTheFile() throws IOException {
      Path target = dir.resolve("a.json");
      Files.write(target, bytes("previous export"));

      assertThatThrownBy(
              () ->
                  AtomicFiles.write(
                      target,
                      out -> {
                        out.write(bytes("partial"));
                        throw new IOException("disk full");
                      }))
          .isInstanceOf(ArtifactException.class)
          .hasMessageContaining(target.toString())
          .hasMessageContaining("disk full");

      assertThat(Files.readString(target)).isEqualTo("previous export");
      assertThat(names()).containsExactly("a.json");
    }
  }

  @Nested
  class WriteBuffer {

    @Test
    void writesTheRemainingBytesAndKeepsThePosition() throws IOException {
      ByteBuffer data = ByteBuffer.wrap(bytes("skip:payload:cut"));
      data.position(5).limit(12);
      Path target = dir.resolve("shard.fb");

      AtomicFiles.write(target, data);

      assertThat(Files.readString(target)).isEqualTo("payload");
      assertThat(data.position()).isEqualTo(5);
      assertThat(data.limit()).isEqualTo(12);
      assertThat(names()).containsExactly("shard.fb");
    }

    @Test
    void writesABufferOfSeveralSlicesFromItsPosition() throws IOException {
      int size = 2 * AtomicFiles.WRITE_SLICE_BYTES + 12_345; // two whole slices and a part
      byte[] all = new byte[7 + size + 5];
      new java.util.Random(3).nextBytes(all);
      ByteBuffer data = ByteBuffer.wrap(all);
      data.position(7).limit(7 + size);
      Path target = dir.resolve("shard.fb");

      AtomicFiles.write(target, data);

      assertThat(Files.readAllBytes(target)).isEqualTo(Arrays.copyOfRange(all, 7, 7 + size));
      assertThat(data.position()).isEqualTo(7);
      assertThat(data.limit()).isEqualTo(7 + size);
    }

    @Test
    void writesAReadOnlyDirectBuffer() throws IOException {
      ByteBuffer data = ByteBuffer.allocateDirect(100_000);
      for (int i = 0; i < data.capacity(); i++) {
        data.put((byte) i);
      }
      data.flip();
      byte[] expected = new byte[data.remaining()];
      data.duplicate().get(expected);

      AtomicFiles.write(dir.resolve("shard.fb"), data.asReadOnlyBuffer());

      assertThat(Files.readAllBytes(dir.resolve("shard.fb"))).isEqualTo(expected);
    }

    @Test
    void replacesAnExistingFile() throws IOException {
      Path target = dir.resolve("shard.fb");
      Files.write(target, bytes("an older and longer content"));

      AtomicFiles.write(target, ByteBuffer.wrap(bytes("new")));

      assertThat(Files.readString(target)).isEqualTo("new");
      assertThat(names()).containsExactly("shard.fb");
    }
  }

  @Nested
  class Move {

    @Test
    void renamesOverTheTarget() throws IOException {
      Path source = dir.resolve("staged");
      Path target = dir.resolve("published");
      Files.write(source, bytes("new"));
      Files.write(target, bytes("old"));

      AtomicFiles.move(source, target);

      assertThat(Files.readString(target)).isEqualTo("new");
      assertThat(source).doesNotExist();
    }

    @Test
    void aMissingSourceIsAnArtifactExceptionNamingIt() {
      Path source = dir.resolve("missing");

      assertThatThrownBy(() -> AtomicFiles.move(source, dir.resolve("target")))
          .isInstanceOf(ArtifactException.class)
          .hasMessageContaining(source.toString());
    }
  }
}
