package dev.flatdump.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flatdump.bench.samples.Org;
import dev.flatdump.testing.ExportedOrgs;
import dev.flatdump.testing.MongoDbExtension;
import dev.flatdump.testing.MongoDbExtension.MongoServer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code flatdump verify} on an export whose FlatBuffers file was damaged after it was published:
 * it exits 1 and says what is wrong, never with a raw stack trace.
 */
@ExtendWith(MongoDbExtension.class)
@Timeout(120)
class CorruptedArtifactIT {

  private static final String SHARD = "organizations-00005.fb";

  private ReferenceExport reference;
  private Path export;

  @BeforeEach
  void copyTheReference(MongoServer server, @TempDir Path tmp) throws IOException {
    reference = ReferenceExport.on(server);
    export = Files.createDirectories(tmp.resolve("export"));
    for (Path p : Artifacts.finalNames(reference.dir())) {
      Files.copy(p, export.resolve(p.getFileName()));
    }
  }

  @Test
  void truncatedShardFailsWithAMessageNotAStackTrace() throws IOException {
    Path shard = export.resolve(SHARD);
    long size = Files.size(shard);
    try (FileChannel ch = FileChannel.open(shard, StandardOpenOption.WRITE)) {
      ch.truncate(size / 2);
    }

    CliResult verify = verify();

    assertThat(verify.exitCode()).as(verify.toString()).isEqualTo(1);
    assertThat(verify.err())
        .startsWith(
            "flatdump: "
                + shard
                + " is "
                + size / 2
                + " bytes, the manifest says "
                + size
                + ": a short (truncated) shard")
        .doesNotContain("IndexOutOfBoundsException")
        .doesNotContain("\tat ");
    assertThat(verify.out()).doesNotContain("verified");
  }

  @Test
  void bitFlippedInANameIsReportedAsADifference() throws IOException {
    Path shard = export.resolve(SHARD);
    Org org = ExportedOrgs.read(shard).get(0);
    byte[] bytes = Files.readAllBytes(shard);
    // a FlatBuffers string: its length (uint32, little-endian), its bytes, a NUL
    byte[] name = org.name().getBytes(StandardCharsets.UTF_8);
    ByteBuffer string = ByteBuffer.allocate(4 + name.length + 1).order(ByteOrder.LITTLE_ENDIAN);
    string.putInt(name.length).put(name).put((byte) 0);
    int at = indexOf(bytes, string.array());
    assertThat(at).as("%s holds the name '%s'", shard, org.name()).isNotNegative();
    at += 4;
    while (!Character.isLetter(bytes[at])) {
      at++;
    }
    bytes[at] ^= 0x20; // one bit: the letter's case
    Files.write(shard, bytes);

    CliResult verify = verify();

    assertThat(verify.exitCode()).as(verify.toString()).isEqualTo(1);
    assertThat(verify.out())
        .containsPattern("DIFF _id .+ \\(record \\d+\\): name is .* in MongoDB")
        .contains(org.name() + " in MongoDB")
        .containsPattern("[1-9][0-9,]* differences in 2,000 documents");
    assertThat(verify.err()).doesNotContain("Exception");
  }

  private CliResult verify() {
    return CliResult.inProcess(
        "verify",
        "--uri",
        reference.uri(),
        "--db",
        reference.database(),
        "--collection",
        ReferenceExport.COLLECTION,
        export.toString());
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
