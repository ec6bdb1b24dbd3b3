package dev.flatdump.reader.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ObjectDownloadTest {

  private static final byte[] OBJECT = new byte[200_000];

  static {
    new Random(5).nextBytes(OBJECT);
  }

  private final FakeObjects s3 = new FakeObjects();
  private final ObjectDownload download = new ObjectDownload(s3, "b", 3, new StopSignal());

  private static String sha256(byte[] b) {
    return HexFormat.of().formatHex(ObjectDownload.newDigest().digest(b));
  }

  private ObjectDownload.Fetched fetch(Path target) {
    return download.fetch("k", "s3://b/k", target, OBJECT.length, sha256(OBJECT));
  }

  @Test
  void downloadsIntoAPartFileThenRenamesItOnceItHasTheManifestsBytes(@TempDir Path dir) {
    s3.objects.put("k", OBJECT);
    Path target = dir.resolve("a.fb.zst");

    ObjectDownload.Fetched got = fetch(target);

    assertThat(got).isEqualTo(new ObjectDownload.Fetched(OBJECT.length, 0));
    assertThat(target).hasBinaryContent(OBJECT);
    assertThat(ObjectDownload.partOf(target)).doesNotExist();
    assertThat(s3.ranges).containsExactly("");
  }

  @Test
  void resumesAPartLeftByAnInterruptedRunFromItsSize(@TempDir Path dir) throws Exception {
    s3.objects.put("k", OBJECT);
    Path target = dir.resolve("a.fb.zst");
    Files.write(ObjectDownload.partOf(target), Arrays.copyOf(OBJECT, 70_000));

    ObjectDownload.Fetched got = fetch(target);

    assertThat(got).isEqualTo(new ObjectDownload.Fetched(OBJECT.length - 70_000, 70_000));
    assertThat(s3.ranges).containsExactly("bytes=70000-");
    assertThat(target).hasBinaryContent(OBJECT);
  }

  @Test
  void resumesATransferThatBreaksOffMidway(@TempDir Path dir) {
    s3.objects.put("k", OBJECT);
    s3.breakAfter = 50_000;
    Path target = dir.resolve("a.fb.zst");

    fetch(target);

    assertThat(s3.ranges).containsExactly("", "bytes=50000-");
    assertThat(target).hasBinaryContent(OBJECT);
  }

  @Test
  void keepsACompleteFileWithoutARequest(@TempDir Path dir) throws Exception {
    Path target = Files.write(dir.resolve("a.fb.zst"), OBJECT);

    assertThat(fetch(target).resumedAt()).isEqualTo(-1);
    assertThat(s3.ranges).isEmpty();
  }

  @Test
  void refusesAnObjectWithOtherBytesAndLeavesNothingOfIt(@TempDir Path dir) {
    byte[] corrupt = OBJECT.clone();
    corrupt[1234] ^= 0x10;
    s3.objects.put("k", corrupt);
    Path target = dir.resolve("a.fb.zst");

    assertThatThrownBy(() -> fetch(target))
        .isInstanceOf(ObjectDownload.CorruptObject.class)
        .hasMessage("it has SHA-256 " + sha256(corrupt) + ", the manifest says " + sha256(OBJECT));
    assertThat(target).doesNotExist();
    assertThat(ObjectDownload.partOf(target)).doesNotExist();
  }

  @Test
  void refusesAnObjectLongerOrShorterThanTheManifestSays(@TempDir Path dir) {
    Path target = dir.resolve("a.fb.zst");
    s3.objects.put("k", Arrays.copyOf(OBJECT, OBJECT.length + 1));
    assertThatThrownBy(() -> fetch(target))
        .isInstanceOf(ObjectDownload.CorruptObject.class)
        .hasMessageContaining("longer than the manifest's " + OBJECT.length + " bytes");

    s3.objects.put("k", Arrays.copyOf(OBJECT, 1000));
    assertThatThrownBy(() -> fetch(target))
        .isInstanceOf(ObjectDownload.CorruptObject.class)
        .hasMessageContaining("it holds 1000 bytes");
    assertThat(ObjectDownload.partOf(target)).doesNotExist();
  }

  @Test
  void aPartLongerThanTheObjectNowIsRefusedAndDeleted(@TempDir Path dir) throws Exception {
    s3.objects.put("k", Arrays.copyOf(OBJECT, 1000)); // replaced by a shorter one since
    Path target = dir.resolve("a.fb.zst");
    Files.write(ObjectDownload.partOf(target), Arrays.copyOf(OBJECT, 5000));

    assertThatThrownBy(() -> fetch(target))
        .isInstanceOf(ObjectDownload.CorruptObject.class)
        .hasMessageContaining("shorter than the 5000 bytes already downloaded");
    assertThat(ObjectDownload.partOf(target)).doesNotExist();
  }

  @Test
  void aMissingObjectSaysSo(@TempDir Path dir) {
    assertThatThrownBy(() -> fetch(dir.resolve("a.fb.zst")))
        .isInstanceOf(ObjectDownload.MissingObject.class)
        .hasMessage("s3://b/k is missing");
  }

  @Test
  void aStopEndsTheDownloadKeepingThePart(@TempDir Path dir) {
    s3.objects.put("k", OBJECT);
    StopSignal stop = new StopSignal();
    stop.stop();
    Path target = dir.resolve("a.fb.zst");

    assertThatThrownBy(
            () ->
                new ObjectDownload(s3, "b", 3, stop)
                    .fetch("k", "s3://b/k", target, OBJECT.length, sha256(OBJECT)))
        .isInstanceOfSatisfying(PullException.class, e -> assertThat(e.stopped()).isTrue());
    assertThat(ObjectDownload.partOf(target)).exists();
    assertThat(target).doesNotExist();
  }
}
