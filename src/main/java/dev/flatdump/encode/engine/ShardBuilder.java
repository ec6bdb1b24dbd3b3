package dev.flatdump.encode.engine;

import com.google.flatbuffers.FlatBufferBuilder;
import dev.flatdump.encode.plan.FieldPlan;
import dev.flatdump.encode.plan.SchemaPlan;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * One shard at a time in memory: documents encoded into a builder as records, then finished as the
 * root's records vector. What it shares lives and dies with each shard; its counts go on over every
 * shard. When to finish a shard, and what to do with its bytes, is the caller's.
 *
 * <p>Not thread-safe.
 */
public final class ShardBuilder {

  /** Bytes the root table and its vector header add to a shard, beyond 4 per record. */
  private static final int ROOT_OVERHEAD = 64;

  private final SchemaPlan plan;
  private final Sharing sharing;
  private final RecordEncoder encoder;
  private final int initialCapacity;
  private final CappedBuffers buffers;
  private ByteBuffer spare;
  private FlatBufferBuilder builder;
  private int[] records = new int[1024];
  private int count;

  /** The records' {@code (key)} field, or null. */
  private final FieldPlan key;

  private final long absentKey;

  /**
   * Whether the key is the field of {@code _id}: the cursor's order then, else sorted at finish.
   */
  private final boolean keyIsId;

  /**
   * @param kinds what to share within each shard
   * @param strict whether a BSON field the schema does not name rejects its document
   * @param initialCapacity each shard's first buffer size in bytes
   */
  public ShardBuilder(SchemaPlan plan, Sharing.Kinds kinds, boolean strict, int initialCapacity) {
    this(plan, kinds, strict, initialCapacity, 0);
  }

  /**
   * A builder whose buffer stops doubling at {@code capBytes}: while below it, a growth past it
   * takes exactly {@code capBytes} (a shard that stops near its size limit then needs no buffer of
   * twice that), and past it the buffer doubles as usual. Each shard after the first is built in
   * the buffer of the one before, so a buffer {@link #finish} returns is valid only until the next
   * {@link #add}.
   *
   * @param capBytes where growth stops doubling, at least {@code initialCapacity}; 0 for none, and
   *     then every shard gets a buffer of its own
   */
  public ShardBuilder(
      SchemaPlan plan, Sharing.Kinds kinds, boolean strict, int initialCapacity, int capBytes) {
    if (capBytes != 0 && capBytes < initialCapacity) {
      throw new IllegalArgumentException(
          "capBytes must be 0 or >= initialCapacity (" + initialCapacity + "), got " + capBytes);
    }
    this.plan = plan;
    this.sharing = new Sharing(plan, kinds);
    this.encoder = new RecordEncoder(plan, sharing, strict);
    this.initialCapacity = initialCapacity;
    this.buffers = capBytes == 0 ? null : new CappedBuffers(capBytes);
    this.key = plan.record().key();
    this.absentKey = key == null ? 0 : KeyOrder.absentKey(plan.record(), key);
    this.keyIsId = key != null && key.bsonName().equals("_id");
  }

  /**
   * Writes tables through the builder's puts only, never straight into its array ({@link
   * TablePuts#putsOnly}): the same bytes, for the benchmark of what {@code BuilderSpace} buys.
   */
  void putsOnly() {
    encoder.putsOnly();
  }

  /**
   * Adds the document {@code doc[offset, offset + length)} as the shard's next record, starting a
   * shard if none is open.
   *
   * @throws RejectedRecord when it does not fit the schema; it is not a record then, and what was
   *     written for it is rolled back: the shard's bytes, what it shares and the de-dup counts are
   *     those of its accepted documents alone
   */
  public void add(byte[] doc, int offset, int length) {
    if (builder == null) {
      if (buffers == null) {
        builder = new FlatBufferBuilder(initialCapacity);
      } else if (spare == null) {
        builder = new FlatBufferBuilder(initialCapacity, buffers);
      } else {
        builder = new FlatBufferBuilder(spare, buffers);
      }
      sharing.clear();
      count = 0;
    }
    encoder.mark(builder);
    int record;
    try {
      record = encoder.encode(builder, doc, offset, length);
      if (keyIsId && count > 0) {
        requireKeyOrder(record);
      }
    } catch (RejectedRecord rejected) {
      encoder.rollback();
      throw rejected;
    }
    if (count == records.length) {
      records = Arrays.copyOf(records, count * 2);
    }
    records[count++] = record;
  }

  /**
   * A record after the shard's last one in the order of the records' key ({@code _id}'s field):
   * MongoDB's {@code _id} order is that order for values of one BSON type, but not across types (a
   * string before an ObjectId, both strings here), so a record out of it is rejected, and the
   * shard's records stay sorted for lookups by key.
   */
  private void requireKeyOrder(int record) {
    ByteBuffer bb = com.google.flatbuffers.BuilderSpace.buffer(builder);
    int end = bb.capacity();
    int previous = records[count - 1];
    if (KeyOrder.compareTables(bb, end - previous, end - record, key, absentKey) >= 0) {
      throw new RejectedRecord(
          "_id",
          "not after the previous record's in the order of the records' key "
              + key.name()
              + " (MongoDB orders _id by BSON type first: give every _id one type)");
    }
  }

  /**
   * Sorts the open shard's records by their key, stably (equal keys keep the documents' order), as
   * flatc's generated lookups and the reader's need: a key on another field than {@code _id}'s
   * follows no order of the cursor's.
   */
  private void sortByKey() {
    ByteBuffer bb = com.google.flatbuffers.BuilderSpace.buffer(builder);
    mergeSort(records, new int[count], 0, count, bb, bb.capacity());
  }

  private void mergeSort(int[] a, int[] tmp, int from, int to, ByteBuffer bb, int end) {
    if (to - from < 2) {
      return;
    }
    int mid = (from + to) >>> 1;
    mergeSort(a, tmp, from, mid, bb, end);
    mergeSort(a, tmp, mid, to, bb, end);
    if (KeyOrder.compareTables(bb, end - a[mid - 1], end - a[mid], key, absentKey) <= 0) {
      return;
    }
    System.arraycopy(a, from, tmp, from, to - from);
    int i = from;
    int j = mid;
    for (int k = from; k < to; k++) {
      if (j >= to
          || (i < mid
              && KeyOrder.compareTables(bb, end - tmp[i], end - tmp[j], key, absentKey) <= 0)) {
        a[k] = tmp[i++];
      } else {
        a[k] = tmp[j++];
      }
    }
  }

  /** Whether a shard is open: a document was added since the last {@link #finish}. */
  public boolean open() {
    return builder != null;
  }

  /** Bytes the open shard holds so far, its records vector and root left out; 0 when none. */
  public int bytes() {
    return builder == null ? 0 : builder.offset();
  }

  /** Records in the open shard. */
  public int records() {
    return builder == null ? 0 : count;
  }

  /**
   * Whether the shard, finished now, would take at least {@code shardSizeBytes}: the bytes built so
   * far, the records vector's offsets and the root table. The one rule for where a shard is cut.
   */
  public boolean reached(long shardSizeBytes) {
    return bytes() + 4L * records() + ROOT_OVERHEAD >= shardSizeBytes;
  }

  /**
   * Finishes the open shard, or an empty one when none is open, and forgets it.
   *
   * @return the finished buffer's bytes
   */
  public ByteBuffer finish() {
    if (builder == null) {
      builder = new FlatBufferBuilder(1024);
      count = 0;
    }
    if (key != null && !keyIsId) {
      sortByKey();
    }
    RecordsRoot.finish(builder, plan, records, count);
    ByteBuffer data = builder.dataBuffer();
    builder = null;
    if (buffers != null) {
      spare = data;
      return data.duplicate();
    }
    return data;
  }

  /** What was shared, per kind and table type, over every shard so far. */
  public List<Sharing.Count> counts() {
    return sharing.counts();
  }

  /** Unknown BSON fields, by path, with how many documents had each. */
  public Map<String, Long> unknownFields() {
    return encoder.unknownFields();
  }

  /**
   * Heap buffers for one builder: a growth that would double past {@code cap} from below it gets
   * exactly {@code cap} ({@code FlatBufferBuilder} takes the capacity it is given, and asks again
   * if that is still too small); from {@code cap} up, the buffer doubles as usual.
   */
  private static final class CappedBuffers extends FlatBufferBuilder.ByteBufferFactory {
    private final int cap;

    CappedBuffers(int cap) {
      this.cap = cap;
    }

    @Override
    public ByteBuffer newByteBuffer(int capacity) {
      int size = capacity > cap && capacity / 2 < cap ? cap : capacity;
      return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    }
  }
}
