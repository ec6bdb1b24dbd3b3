package dev.flatdump.encode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import com.google.flatbuffers.FlatBufferBuilder;
import dev.flatdump.Org;
import dev.flatdump.sample.OrgGenerator;
import dev.flatdump.sample.Profile;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

class CurrentBufferFactoryTest {

  private static final FlatBufferBuilder.ByteBufferFactory HEAP =
      FlatBufferBuilder.HeapByteBufferFactory.INSTANCE;

  @Test
  void growsToTheCapInsteadOfDoublingPastItThenDoublesAgain() {
    var factory = new CurrentBufferFactory(HEAP, 1000);

    assertThat(factory.newByteBuffer(400).capacity()).isEqualTo(400);
    assertThat(factory.newByteBuffer(800).capacity()).isEqualTo(800);
    assertThat(factory.newByteBuffer(1600).capacity()).isEqualTo(1000);
    assertThat(factory.newByteBuffer(2000).capacity()).isEqualTo(2000);
    assertThat(factory.current().capacity()).isEqualTo(2000);
  }

  @Test
  void growsToTheForecastUpToTheCapButNeverLessThanAsked() {
    var factory = new CurrentBufferFactory(HEAP, 10_000);
    long[] forecast = {6_000};
    factory.forecast(() -> forecast[0]);

    assertThat(factory.newByteBuffer(400).capacity()).isEqualTo(400); // the first: as asked
    assertThat(factory.newByteBuffer(800).capacity()).isEqualTo(6_000);
    forecast[0] = 3_000; // below what is asked: ignored
    assertThat(factory.newByteBuffer(12_000).capacity()).isEqualTo(10_000);
    forecast[0] = 50_000; // at the cap: doubling as usual, the forecast no longer applies
    assertThat(factory.newByteBuffer(20_000).capacity()).isEqualTo(20_000);
  }

  @Test
  void aForecastedBuilderGrowsOnceOrTwiceAndWritesTheSameBytes() {
    int sample = CurrentBufferFactory.FORECAST_MIN_ORGS;
    List<Org> orgs = new OrgGenerator(Profile.ARTICLE, 11).stream().limit(16 * sample).toList();
    var doubling = new CountingFactory();
    var plain = new FlatBufferOrgsBuilder(DedupOptions.ALL, 1024, doubling);
    orgs.subList(0, sample).forEach(plain::add);
    int plainFirst = doubling.buffers;
    orgs.subList(sample, orgs.size()).forEach(plain::add);
    var forecasting = new CountingFactory();
    var forecasted = new FlatBufferOrgsBuilder(DedupOptions.ALL, 1024, forecasting);
    forecasted.expectOrgs(orgs.size());
    orgs.subList(0, sample).forEach(forecasted::add); // no forecast yet: it doubles as usual
    int forecastedFirst = forecasting.buffers;
    orgs.subList(sample, orgs.size()).forEach(forecasted::add);

    ByteBuffer expected = plain.finish();
    assertThat(forecasted.finish()).isEqualTo(expected);
    assertThat(forecastedFirst).isEqualTo(plainFirst);
    assertThat(doubling.buffers - plainFirst).isEqualTo(4); // 16 times the orgs: four doublings
    assertThat(forecasting.buffers - forecastedFirst).isEqualTo(1);
    assertThat(forecasting.lastCapacity)
        .isGreaterThanOrEqualTo(expected.remaining())
        .isLessThan(expected.remaining() / 8 * 9);
  }

  @Test
  void aNegativeForecastIsRefused() {
    var builder = new FlatBufferOrgsBuilder(DedupOptions.ALL, 1024);

    assertThatIllegalArgumentException()
        .isThrownBy(() -> builder.expectOrgs(-1))
        .withMessage("orgs must be >= 0, was -1");
  }

  /** Heap buffers, counted. */
  private static final class CountingFactory extends FlatBufferBuilder.ByteBufferFactory {
    int buffers;
    int lastCapacity;

    @Override
    public ByteBuffer newByteBuffer(int capacity) {
      buffers++;
      lastCapacity = capacity;
      return HEAP.newByteBuffer(capacity);
    }
  }

  @Test
  void aFirstBufferAboveTheCapIsWhatWasAskedFor() {
    var factory = new CurrentBufferFactory(HEAP, 1000);

    assertThat(factory.newByteBuffer(4096).capacity()).isEqualTo(4096);
  }

  @Test
  void aCappedBuilderWritesTheSameBytesAsAnUncappedOne() {
    List<Org> orgs = new OrgGenerator(Profile.REALISTIC, 11).stream().limit(200).toList();
    var uncapped = new FlatBufferOrgsBuilder(DedupOptions.ALL, 1024);
    orgs.forEach(uncapped::add);
    // A cap that is no power of two of the start: the buffer grows to it, then doubles from it.
    var capped = new FlatBufferOrgsBuilder(DedupOptions.ALL, 1024, 5_000);
    orgs.forEach(capped::add);

    assertThat(capped.finish()).isEqualTo(uncapped.finish());
  }

  @Test
  void aCapBelowTheInitialCapacityIsRefusedNamingBoth() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new FlatBufferOrgsBuilder(DedupOptions.ALL, 4096, 1024))
        .withMessage("capacityCapBytes must be >= initialCapacityBytes (4096), was 1024");
  }
}
