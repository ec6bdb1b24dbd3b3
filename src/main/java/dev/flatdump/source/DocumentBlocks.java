package dev.flatdump.source;

import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;

/**
 * Byte blocks that the cursor's thread copies documents into, one after the other, and that the
 * decoding thread gives back once it has decoded past them, for the cursor's thread to fill again.
 * Without them every document's bytes are a new array, most of what an export allocates, which the
 * collector then has to reclaim. With them an export allocates the few blocks its read-ahead holds
 * at once.
 *
 * <p>Documents come out in the order they went in, so once the decoding thread {@linkplain #reached
 * reaches} a document in another block, it is done with every document of the block before. A
 * document larger than a block gets an array of its own, which never comes back.
 *
 * <p>So a document's bytes are only valid until the decoding thread reaches a document in another
 * block: whatever outlives the decoding must be copied (the engine copies what it keeps; {@link
 * MongoDocumentCursor} copies an {@code _id} that is a document).
 *
 * <p>One thread fills ({@link #reserve}, {@link #block}), one thread gives back ({@link #reached});
 * they may be the same. The documents go from one to the other through something that orders memory
 * (a {@link java.util.concurrent.BlockingQueue}), so the decoding thread sees the bytes written;
 * blocks go back through a concurrent queue, so the cursor's thread overwrites them only after the
 * decoding thread is done.
 */
public final class DocumentBlocks {

  /**
   * 256 KiB: dozens of documents of a few KiB. G1 takes an array of half its region size or more as
   * a humongous object of whole regions, and its smallest regions (heaps under 2 GiB) are 1 MiB; a
   * block partly decoded stays in use, so smaller blocks also hold less that is done with.
   */
  static final int DEFAULT_BLOCK_BYTES = 256 << 10;

  /**
   * Blocks kept for reuse at most (64 MiB of the default size); more given back at once are left to
   * the collector. The read-ahead holds up to 64 MiB of documents plus a cursor's batch.
   */
  private static final int MAX_FREE = 256;

  private final int blockBytes;
  private final ArrayBlockingQueue<byte[]> free = new ArrayBlockingQueue<>(MAX_FREE);

  /** Filling thread: the block being filled, and how much of it is used. */
  private byte[] filling;

  private int used;

  /** Filling thread: the array of its own that the last {@link #reserve} made, or null. */
  private byte[] large;

  /** Decoding thread: the block of the document reached last. */
  private byte[] decoding;

  private long allocated;

  public DocumentBlocks() {
    this(DEFAULT_BLOCK_BYTES);
  }

  /**
   * @param blockBytes a block's size, at least 64 bytes
   */
  DocumentBlocks(int blockBytes) {
    if (blockBytes < 64) {
      throw new IllegalArgumentException("blockBytes must be >= 64, got " + blockBytes);
    }
    this.blockBytes = blockBytes;
  }

  /**
   * Makes room for a document of {@code size} bytes and returns where it starts in {@link
   * #block()}: in the block being filled if it has room, else in another block (a free one, or a
   * new one), else, for a document larger than a block, in an array of its own.
   */
  int reserve(int size) {
    if (size > blockBytes) {
      // The block being filled stays: the decoding thread does not count this array as a block.
      allocated++;
      large = new byte[size];
      return 0;
    }
    large = null;
    if (filling == null || blockBytes - used < size) {
      byte[] reused = free.poll();
      if (reused == null) {
        allocated++;
        reused = new byte[blockBytes];
      }
      filling = reused;
      used = 0;
    }
    int at = used;
    used += size;
    return at;
  }

  /** The array that the last {@link #reserve} made room in. */
  byte[] block() {
    return large != null ? large : filling;
  }

  /**
   * The decoding thread is about to decode {@code document}: if it lies in another block than the
   * one before, that block goes back to be filled again. A document in an array of its own, or one
   * not read through these blocks, changes nothing.
   */
  public void reached(RawDocument document) {
    byte[] block = Objects.requireNonNull(document, "document").block();
    if (block == null || block.length != blockBytes || block == decoding) {
      return;
    }
    if (decoding != null) {
      free.offer(decoding); // dropped if MAX_FREE are waiting already
    }
    decoding = block;
  }

  /** Arrays allocated so far: blocks and documents larger than a block. */
  long allocated() {
    return allocated;
  }
}
