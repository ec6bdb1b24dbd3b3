package dev.flatdump.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.junit.jupiter.api.Test;

/** What {@link IdOrderedFind} accepts; what it reads is {@code IdOrderedFindIT}'s. */
class IdOrderedFindTest {

  private static final BsonDocument ALL = new BsonDocument();

  @Test
  void startsWithTheDriversBatchesNoHintAndTheWholeIndex() {
    assertThat(IdOrderedFind.of(ALL)).isEqualTo(new IdOrderedFind(ALL, 0, false, IdRange.ALL));
  }

  @Test
  void setsEachChoiceByName() {
    IdRange range = new IdRange(new BsonInt32(1), null);

    assertThat(IdOrderedFind.of(ALL).withBatchSize(7).withIdIndexHint().within(range))
        .isEqualTo(new IdOrderedFind(ALL, 7, true, range));
  }

  @Test
  void refusesARangeWithoutTheHint() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> IdOrderedFind.of(ALL).within(new IdRange(null, new BsonInt32(5))))
        .withMessageContaining("range")
        .withMessageContaining("hintIdIndex");
  }

  @Test
  void refusesANegativeBatchSize() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> IdOrderedFind.of(ALL).withBatchSize(-1))
        .withMessageContaining("batchSize")
        .withMessageContaining("-1");
  }

  @Test
  void refusesNoQueryOrNoRange() {
    assertThatNullPointerException()
        .isThrownBy(() -> IdOrderedFind.of(null))
        .withMessageContaining("query");
    assertThatNullPointerException()
        .isThrownBy(() -> IdOrderedFind.of(ALL).within(null))
        .withMessageContaining("range");
  }
}
