package dev.flatdump.reader;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UnmapperTest {

  @Test
  void unmapsAMappingAtOnce(@TempDir Path dir) throws Exception {
    Path file = Files.write(dir.resolve("f.bin"), new byte[4096]);
    MappedByteBuffer map;
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      map = ch.map(FileChannel.MapMode.READ_ONLY, 0, 4096);
    }
    assertThat(MappedRegions.under(dir)).isEqualTo(1);
    assertThat(Unmapper.unmap(map)).isTrue();
    assertThat(MappedRegions.under(dir)).isZero();
  }

  @Test
  void leavesToTheGcWhatItCannotUnmapWithoutThrowing(@TempDir Path dir) throws Exception {
    Path file = Files.write(dir.resolve("f.bin"), new byte[4096]);
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      MappedByteBuffer map = ch.map(FileChannel.MapMode.READ_ONLY, 0, 4096);
      assertThat(Unmapper.unmap(map.duplicate())).as("a duplicate").isFalse();
      assertThat(Unmapper.unmap(ByteBuffer.allocate(16))).as("a heap buffer").isFalse();
      assertThat(map.get(100)).as("still mapped").isZero();
      assertThat(Unmapper.unmap(map)).isTrue();
    }
  }
}
