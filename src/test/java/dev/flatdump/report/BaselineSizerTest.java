package dev.flatdump.report;

import static dev.flatdump.report.Encodings.GZIP;
import static dev.flatdump.report.Encodings.ZSTD;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flatdump.Org;
import dev.flatdump.encode.DedupOptions;
import dev.flatdump.encode.FlatBufferOrgsBuilder;
import dev.flatdump.encode.StreamFormat;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class BaselineSizerTest {

  private static final List<Org> ORGS = SampleOrgs.repetitive(400);

  @Test
  void stringsDedupIsSmallerThanPlain() {
    Map<Baseline, BaselineSize> sizes = measure(EnumSet.allOf(Baseline.class), ORGS);

    assertThat(sizes.get(Baseline.STRINGS).bytes()).isLessThan(sizes.get(Baseline.PLAIN).bytes());
  }

  @Test
  void compressedIsSmallerThanRaw() {
    Map<Baseline, BaselineSize> sizes = measure(EnumSet.allOf(Baseline.class), ORGS);

    assertThat(sizes.values())
        .hasSize(4)
        .allSatisfy(
            size -> {
              assertThat(size.gzipBytes()).isPositive().isLessThan(size.bytes());
              assertThat(size.zstdBytes()).isPositive().isLessThan(size.bytes());
            });
  }

  @Test
  void protobufAndJsonEqualWhatTheirEncodersWrite() {
    Map<Baseline, BaselineSize> sizes = measure(Set.of(Baseline.PROTOBUF, Baseline.JSON), ORGS);

    assertThat(sizes.get(Baseline.PROTOBUF).bytes())
        .isEqualTo(Encodings.stream(StreamFormat.PROTOBUF, ORGS).length);
    assertThat(sizes.get(Baseline.JSON).bytes())
        .isEqualTo(Encodings.stream(StreamFormat.JSON, ORGS).length);
  }

  @Test
  void returnsSizesInBaselineOrder() {
    try (var sizer = new BaselineSizer(Set.of(Baseline.JSON, Baseline.PLAIN), GZIP, ZSTD)) {
      ORGS.forEach(sizer::add);

      assertThat(sizer.finish())
          .extracting(BaselineSize::baseline)
          .containsExactly(Baseline.PLAIN, Baseline.JSON);
    }
  }

  @Test
  void measuresEachShardOnItsOwn() {
    List<Org> first = ORGS.subList(0, 150);
    List<Org> second = ORGS.subList(150, ORGS.size());

    BaselineSize plain;
    try (var sizer = new BaselineSizer(Set.of(Baseline.PLAIN), GZIP, ZSTD)) {
      first.forEach(sizer::add);
      sizer.shardBoundary();
      sizer.shardBoundary(); // an empty shard is no shard
      second.forEach(sizer::add);
      plain = sizer.finish().get(0);
    }

    byte[] shard0 = Encodings.flatBuffers(DedupOptions.NONE, first);
    byte[] shard1 = Encodings.flatBuffers(DedupOptions.NONE, second);
    assertThat(plain.bytes()).isEqualTo(shard0.length + shard1.length);
    assertThat(plain.gzipBytes())
        .isEqualTo(
            Encodings.compressedLength(GZIP, shard0) + Encodings.compressedLength(GZIP, shard1));
    assertThat(plain.zstdBytes())
        .isEqualTo(
            Encodings.compressedLength(ZSTD, shard0) + Encodings.compressedLength(ZSTD, shard1));
  }

  @Test
  void cutsItsOwnShardOnceABuilderHoldsMaxShardBytes() {
    long maxShardBytes = 8 * 1024;

    BaselineSize strings;
    try (var sizer = new BaselineSizer(Set.of(Baseline.STRINGS), GZIP, ZSTD, maxShardBytes)) {
      ORGS.forEach(sizer::add);
      strings = sizer.finish().get(0);
    }

    List<byte[]> shards = shardsCutAt(maxShardBytes);
    assertThat(shards).hasSizeGreaterThan(3);
    assertThat(shards).allSatisfy(s -> assertThat(s.length).isLessThan(2 * (int) maxShardBytes));
    assertThat(strings.bytes()).isEqualTo(shards.stream().mapToLong(s -> s.length).sum());
  }

  @Test
  void measuresNothingWhenNoBaselineIsAsked() {
    try (var sizer = new BaselineSizer(Baseline.parse("none"), GZIP, ZSTD)) {
      ORGS.forEach(sizer::add);

      assertThat(sizer.finish()).isEmpty();
    }
  }

  @Test
  void refusesUseAfterFinish() {
    try (var sizer = new BaselineSizer(EnumSet.allOf(Baseline.class), GZIP, ZSTD)) {
      sizer.add(ORGS.get(0));
      sizer.finish();

      assertThatThrownBy(() -> sizer.add(ORGS.get(1))).isInstanceOf(IllegalStateException.class);
      assertThatThrownBy(sizer::shardBoundary).isInstanceOf(IllegalStateException.class);
      assertThatThrownBy(sizer::finish).isInstanceOf(IllegalStateException.class);
    }
  }

  @Test
  void rejectsSwappedCompressionsAndABadShardLimit() {
    Set<Baseline> all = EnumSet.allOf(Baseline.class);

    assertThatThrownBy(() -> new BaselineSizer(all, ZSTD, GZIP))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("gzip must be a gzip compression, was zstd");
    assertThatThrownBy(() -> new BaselineSizer(all, GZIP, ZSTD, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxShardBytes must be 1..")
        .hasMessageEndingWith("was 0");
  }

  /** What the sizer should do at {@code maxShardBytes}: finish a shard once it holds that much. */
  private static List<byte[]> shardsCutAt(long maxShardBytes) {
    List<byte[]> shards = new ArrayList<>();
    List<Org> shard = new ArrayList<>();
    var builder = new FlatBufferOrgsBuilder(DedupOptions.STRINGS_ONLY, 1024);
    for (Org org : ORGS) {
      builder.add(org);
      shard.add(org);
      if (builder.sizeBytes() >= maxShardBytes) {
        shards.add(Encodings.flatBuffers(DedupOptions.STRINGS_ONLY, shard));
        shard.clear();
        builder = new FlatBufferOrgsBuilder(DedupOptions.STRINGS_ONLY, 1024);
      }
    }
    if (!shard.isEmpty()) {
      shards.add(Encodings.flatBuffers(DedupOptions.STRINGS_ONLY, shard));
    }
    return shards;
  }

  private static Map<Baseline, BaselineSize> measure(Set<Baseline> which, List<Org> orgs) {
    try (var sizer = new BaselineSizer(which, GZIP, ZSTD)) {
      orgs.forEach(sizer::add);
      return sizer.finish().stream()
          .collect(Collectors.toMap(BaselineSize::baseline, Function.identity()));
    }
  }
}
