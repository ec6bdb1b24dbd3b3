package dev.flatdump.report;

import static dev.flatdump.report.Encodings.GZIP;
import static dev.flatdump.report.Encodings.ZSTD;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.withinPercentage;

import dev.flatdump.Org;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The contract every baseline's measure keeps, whatever its encoding. */
class BaselineMeasureTest {

  private static final List<Org> ORGS = SampleOrgs.repetitive(300);

  @ParameterizedTest
  @EnumSource(Baseline.class)
  void measuresTheBytesItsEncodingProducesAndTheirCompressedSizes(Baseline baseline) {
    byte[] direct = Encodings.encode(baseline, ORGS);

    BaselineSize size = measure(baseline, ORGS);

    assertThat(size.baseline()).isEqualTo(baseline);
    assertThat(size.description()).isEqualTo(baseline.description());
    assertThat(size.bytes()).isEqualTo(direct.length);
    assertThat(size.gzipBytes()).isEqualTo(Encodings.compressedLength(GZIP, direct));
    // zstd's streaming output shifts by a few bytes with write boundaries (the JSON encoder's
    // buffer)
    assertThat(size.zstdBytes())
        .isCloseTo(Encodings.compressedLength(ZSTD, direct), withinPercentage(1));
  }

  @ParameterizedTest
  @EnumSource(Baseline.class)
  void compressesRepetitiveOrgsBelowTheirRawSize(Baseline baseline) {
    BaselineSize size = measure(baseline, ORGS);

    assertThat(size.gzipBytes()).isPositive().isLessThan(size.bytes());
    assertThat(size.zstdBytes()).isPositive().isLessThan(size.bytes());
  }

  @ParameterizedTest
  @EnumSource(Baseline.class)
  void refusesOrgsAfterFinish(Baseline baseline) {
    try (BaselineMeasure measure = BaselineMeasure.create(baseline, GZIP, ZSTD, 1 << 20)) {
      measure.finish();

      assertThatThrownBy(() -> measure.add(ORGS.get(0)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining(baseline.id());
      assertThatThrownBy(measure::finish).isInstanceOf(IllegalStateException.class);
    }
  }

  @ParameterizedTest
  @EnumSource(Baseline.class)
  void closesWithoutFinishingAndTwice(Baseline baseline) {
    BaselineMeasure measure = BaselineMeasure.create(baseline, GZIP, ZSTD, 1 << 20);
    measure.add(ORGS.get(0));

    measure.close();
    measure.close();

    assertThatThrownBy(() -> measure.add(ORGS.get(1))).isInstanceOf(IllegalStateException.class);
  }

  private static BaselineSize measure(Baseline baseline, List<Org> orgs) {
    try (BaselineMeasure measure = BaselineMeasure.create(baseline, GZIP, ZSTD, 1 << 20)) {
      orgs.forEach(measure::add);
      return measure.finish();
    }
  }
}
