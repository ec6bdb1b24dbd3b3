package dev.flatdump.reader.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.luben.zstd.Zstd;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ZstdShardTest {

  private static byte[] shardBytes() {
    byte[] b = new byte[300_000];
    new Random(3).nextBytes(b);
    for (int i = 0; i < b.length; i += 7) {
      b[i] = 0; // something to compress
    }
    return b;
  }

  private static String sha256(byte[] b) {
    return HexFormat.of().formatHex(ObjectDownload.newDigest().digest(b));
  }

  @Test
  void decompressesTheCopyIntoTheShardTheManifestLists(@TempDir Path dir) throws Exception {
    byte[] raw = shardBytes();
    Path zst = Files.write(dir.resolve("a.fb.zst"), Zstd.compress(raw));
    Path shard = dir.resolve("a.fb");

    ZstdShard.decompress(zst, shard, raw.length, sha256(raw));

    assertThat(Files.readAllBytes(shard)).isEqualTo(raw);
    assertThat(LocalFiles.temporaryFor(shard)).doesNotExist();
  }

  @Test
  void refusesACopyWhoseContentIsNotTheShardAndLeavesNothing(@TempDir Path dir) throws Exception {
    byte[] raw = shardBytes();
    byte[] other = raw.clone();
    other[1000] ^= 1;
    Path zst = Files.write(dir.resolve("a.fb.zst"), Zstd.compress(other));
    Path shard = dir.resolve("a.fb");

    assertThatThrownBy(() -> ZstdShard.decompress(zst, shard, raw.length, sha256(raw)))
        .isInstanceOf(ObjectDownload.CorruptObject.class)
        .hasMessageContaining("SHA-256 " + sha256(other))
        .hasMessageContaining("a.fb with " + raw.length + " bytes and SHA-256 " + sha256(raw));
    assertThatThrownBy(() -> ZstdShard.decompress(zst, shard, 10, sha256(raw)))
        .isInstanceOf(ObjectDownload.CorruptObject.class)
        .hasMessageContaining("more than the 10 bytes");
    assertThat(shard).doesNotExist();
    assertThat(LocalFiles.temporaryFor(shard)).doesNotExist();
  }

  @Test
  void refusesACopyThatIsNotZstd(@TempDir Path dir) throws Exception {
    byte[] raw = shardBytes();
    Path zst = Files.write(dir.resolve("a.fb.zst"), raw);
    Path shard = dir.resolve("a.fb");

    assertThatThrownBy(() -> ZstdShard.decompress(zst, shard, raw.length, sha256(raw)))
        .isInstanceOf(ObjectDownload.CorruptObject.class)
        .hasMessageContaining("not valid zstd");
    assertThat(shard).doesNotExist();
    assertThat(LocalFiles.temporaryFor(shard)).doesNotExist();
  }
}
