package dev.flatdump.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.junit.jupiter.api.Test;

class DocumentBlocksTest {

  /** What the cursor hands over for the document last reserved in {@code blocks}. */
  private static RawDocument handedOver(DocumentBlocks blocks, int at, int size) {
    byte[] block = blocks.block();
    return new RawDocument(new BsonInt32(at), new RawBsonDocument(block, at, size), size, block);
  }

  @Test
  void packsDocumentsOneAfterTheOtherUntilABlockIsFull() {
    var blocks = new DocumentBlocks(100);

    assertThat(blocks.reserve(40)).isZero();
    byte[] first = blocks.block();
    assertThat(first).hasSize(100);
    assertThat(blocks.reserve(60)).isEqualTo(40);
    assertThat(blocks.block()).isSameAs(first);
    assertThat(blocks.reserve(1)).isZero(); // no room left: another block
    assertThat(blocks.block()).isNotSameAs(first).hasSize(100);
    assertThat(blocks.allocated()).isEqualTo(2);
  }

  @Test
  void aBlockComesBackOnlyOnceTheDecodingThreadReachedADocumentInAnother() {
    var blocks = new DocumentBlocks(100);
    RawDocument a1 = handedOver(blocks, blocks.reserve(50), 50);
    RawDocument a2 = handedOver(blocks, blocks.reserve(50), 50);
    RawDocument b1 = handedOver(blocks, blocks.reserve(50), 50);
    byte[] a = a1.block();
    byte[] b = b1.block();

    blocks.reached(a1);
    blocks.reached(a2);
    // Still decoding in block a: the next block to fill is a new one, not a.
    handedOver(blocks, blocks.reserve(50), 50); // b's second half
    blocks.reserve(50);
    assertThat(blocks.block()).isNotSameAs(a).isNotSameAs(b);
    assertThat(blocks.allocated()).isEqualTo(3);

    blocks.reached(b1); // done with a
    blocks.reserve(50);
    blocks.reserve(50); // c is full: the next is a again
    assertThat(blocks.block()).isSameAs(a);
    assertThat(blocks.allocated()).isEqualTo(3);
  }

  @Test
  void aDocumentLargerThanABlockHasAnArrayOfItsOwnAndFreesNothing() {
    var blocks = new DocumentBlocks(100);
    RawDocument a1 = handedOver(blocks, blocks.reserve(30), 30);
    RawDocument large = handedOver(blocks, blocks.reserve(101), 101);
    assertThat(large.block()).hasSize(101);
    int at = blocks.reserve(30);
    RawDocument a2 = handedOver(blocks, at, 30);
    // The block being filled stays the same across the large document.
    assertThat(at).isEqualTo(30);
    assertThat(a2.block()).isSameAs(a1.block());

    blocks.reached(a1);
    blocks.reached(large); // not a block: a is still being decoded
    blocks.reached(a2);
    blocks.reserve(50); // no room in a (60 used): a new block, since a never came back
    assertThat(blocks.block()).isNotSameAs(a1.block()).hasSize(100);
    assertThat(blocks.allocated()).isEqualTo(3);
  }

  @Test
  void documentsNotReadIntoBlocksChangeNothing() {
    var blocks = new DocumentBlocks(100);
    RawDocument a1 = handedOver(blocks, blocks.reserve(60), 60);
    blocks.reached(a1);
    blocks.reached(
        new RawDocument(
            new BsonInt32(1),
            new RawBsonDocument(new BsonDocument("_id", new BsonInt32(1)), new BsonDocumentCodec()),
            14,
            null));
    blocks.reserve(60);
    assertThat(blocks.block()).isNotSameAs(a1.block());
    assertThat(blocks.allocated()).isEqualTo(2);
  }

  @Test
  void refusesBlocksTooSmallForADocument() {
    assertThatThrownBy(() -> new DocumentBlocks(63))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("63");
    assertThatThrownBy(() -> new DocumentBlocks().reached(null))
        .isInstanceOf(NullPointerException.class);
  }
}
