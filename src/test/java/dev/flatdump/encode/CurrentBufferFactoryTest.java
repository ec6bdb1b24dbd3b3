package dev.flatdump.encode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import com.google.flatbuffers.FlatBufferBuilder;
import dev.flatdump.Org;
import dev.flatdump.sample.OrgGenerator;
import dev.flatdump.sample.Profile;
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
