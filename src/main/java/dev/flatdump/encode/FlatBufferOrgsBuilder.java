package dev.flatdump.encode;

import com.google.flatbuffers.FlatBufferBuilder;
import dev.flatdump.Attr;
import dev.flatdump.FlatdumpException;
import dev.flatdump.Org;
import dev.flatdump.schema.fb.Organization;
import dev.flatdump.schema.fb.OrganizationType;
import dev.flatdump.schema.fb.Organizations;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Builds one {@code Organizations} FlatBuffer (one shard, file identifier {@code "ORGS"}) from orgs
 * added one at a time, sharing equal strings, attribute tables and attribute vectors as {@link
 * DedupOptions} says.
 *
 * <p>Use: {@link #add} orgs while {@link #sizeBytes()} is below the shard size, then {@link
 * #finish()} once. The whole shard lives on the heap until then, and the de-dup maps with it; their
 * offsets mean nothing outside this buffer. A shard must stay below 2 GB: past that {@link #add}
 * and {@link #finish} throw {@link BufferLimitException} and the builder is unusable.
 *
 * <p>Not thread-safe: one builder per thread. Holds no resources, so there is nothing to close.
 */
public final class FlatBufferOrgsBuilder {

  private static final String GROW_LIMIT_MESSAGE = "2 gigabytes";

  /**
   * Beyond the org vector's elements, what {@link #finish()} adds at most: vector alignment 3 and
   * length 4; root table 8, its vtable 6 and alignment 2; identifier 4, root offset 4 and the
   * buffer's alignment 7; rounded up.
   */
  static final int FINISH_BYTES = 48;

  private enum State {
    OPEN,
    FINISHED,
    FAILED,
    RECYCLED
  }

  private final FlatBufferBuilder builder;
  private final CurrentBufferFactory buffers;
  private final SharedStrings strings;
  private final SharedAttributeTables attributeTables;
  private final AttributeVectorIndex attributeVectors;

  private int[] tableOffsets = new int[64];
  private int[] orgOffsets = new int[1024];
  private int count;
  private State state = State.OPEN;

  private long vectorsTotal;
  private long vectorsUnique;

  /**
   * @param dedup what to share
   * @param initialCapacityBytes the buffer's starting size in bytes; it doubles when full, so a
   *     value near the expected shard size saves copies
   */
  public FlatBufferOrgsBuilder(DedupOptions dedup, int initialCapacityBytes) {
    this(dedup, initialCapacityBytes, Integer.MAX_VALUE);
  }

  /**
   * A builder whose buffer, when it grows, stops at {@code capacityCapBytes} before it doubles past
   * it: for shards that finish once {@link #finishedSizeBound()} reaches their size, a cap of that
   * size plus the largest org's bytes means the buffer never holds twice what the shard needs. Past
   * the cap (a larger org), it doubles as usual.
   *
   * @param capacityCapBytes at least {@code initialCapacityBytes}
   */
  public FlatBufferOrgsBuilder(DedupOptions dedup, int initialCapacityBytes, int capacityCapBytes) {
    this(
        dedup,
        initialCapacityBytes,
        CurrentBufferFactory.onHeap(capacityCapBytes, initialCapacityBytes));
  }

  /**
   * A builder that writes into {@code recycled}, the buffer of a shard already finished and written
   * ({@link #recycle()}), instead of allocating one; what the buffer held does not matter, every
   * byte of the new shard is written. Grows as the capped constructor's builder does.
   *
   * @param capacityCapBytes at least {@code recycled}'s capacity
   */
  public FlatBufferOrgsBuilder(DedupOptions dedup, ByteBuffer recycled, int capacityCapBytes) {
    this(dedup, recycled, CurrentBufferFactory.onHeap(capacityCapBytes, recycled.capacity()));
  }

  private FlatBufferOrgsBuilder(
      DedupOptions dedup, ByteBuffer recycled, CurrentBufferFactory tracked) {
    this(dedup, tracked.adopt(recycled), tracked);
  }

  /** For tests: a factory that refuses to grow stands in for the 2 GB limit. */
  FlatBufferOrgsBuilder(
      DedupOptions dedup, int initialCapacityBytes, FlatBufferBuilder.ByteBufferFactory buffers) {
    this(dedup, initialCapacityBytes, new CurrentBufferFactory(buffers, Integer.MAX_VALUE));
  }

  private FlatBufferOrgsBuilder(
      DedupOptions dedup, int initialCapacityBytes, CurrentBufferFactory tracked) {
    this(dedup, newBuilder(initialCapacityBytes, tracked), tracked);
  }

  private static FlatBufferBuilder newBuilder(int initialCapacityBytes, CurrentBufferFactory f) {
    if (initialCapacityBytes <= 0) {
      throw new IllegalArgumentException(
          "initialCapacityBytes must be positive, was " + initialCapacityBytes);
    }
    return new FlatBufferBuilder(initialCapacityBytes, f);
  }

  private FlatBufferOrgsBuilder(
      DedupOptions dedup, FlatBufferBuilder builder, CurrentBufferFactory tracked) {
    Objects.requireNonNull(dedup, "dedup must not be null");
    this.buffers = tracked;
    this.builder = builder;
    this.strings = new SharedStrings(builder, dedup.strings());
    this.attributeTables = new SharedAttributeTables(builder, strings, dedup.attributes());
    this.attributeVectors = dedup.vectors() ? new AttributeVectorIndex(tracked::current) : null;
  }

  /**
   * Appends one org.
   *
   * @throws BufferLimitException if the shard would grow past 2 GB
   * @throws FlatdumpException if a string cannot be encoded as UTF-8 (an unpaired surrogate); the
   *     org is then not added and the builder stays usable
   * @throws IllegalStateException after {@link #finish()} or a {@link BufferLimitException}
   */
  public void add(Org org) {
    Objects.requireNonNull(org, "org must not be null");
    requireOpen();
    try {
      // Postorder: children (strings, vectors) are complete before their parent's startTable.
      int attributes = attributeVector(org.attributes());
      int name = strings.offset(org.name(), "name");
      int category = strings.offset(org.category(), "category");
      int country = strings.offset(org.country(), "country");
      int offset =
          Organization.createOrganization(
              builder, name, category, organizationType(org), country, attributes);
      if (count == orgOffsets.length) {
        orgOffsets = Arrays.copyOf(orgOffsets, count * 2);
      }
      orgOffsets[count++] = offset;
    } catch (AssertionError e) {
      throw failed(e);
    }
  }

  /**
   * Says how many orgs this buffer will probably hold in all, so that a growth goes straight to the
   * size they forecast (at the bytes per org so far, plus a sixteenth) rather than doubling two or
   * three times: each doubling allocates a new buffer and copies the old one. Only once {@value
   * CurrentBufferFactory#FORECAST_MIN_ORGS} orgs are in; up to the cap, never less than doubling; a
   * wrong figure costs memory or a copy, never bytes of the shard.
   *
   * @param orgs the orgs expected in this buffer, including those already added; 0 for no forecast
   */
  public void expectOrgs(long orgs) {
    if (orgs < 0) {
      throw new IllegalArgumentException("orgs must be >= 0, was " + orgs);
    }
    buffers.forecast(() -> CurrentBufferFactory.forecastBytes(orgs, count, builder.offset()));
  }

  /**
   * This builder's buffer, after {@link #finish()}, for a next builder to write into ({@link
   * #FlatBufferOrgsBuilder(DedupOptions, ByteBuffer, int)}) instead of allocating one: the caller
   * must be done with the finished view, which the next shard overwrites.
   *
   * @throws IllegalStateException before {@link #finish()}
   */
  public ByteBuffer recycle() {
    if (state != State.FINISHED) {
      throw new IllegalStateException("recycle() needs a finished builder, this one is " + state);
    }
    state = State.RECYCLED; // nothing more to read from or write to it
    return buffers.current();
  }

  /** Orgs added so far. */
  public int count() {
    return count;
  }

  /**
   * Bytes written so far. {@link #finish()} adds the org vector and the root: {@link
   * #finishedSizeBound()} says how much that makes.
   */
  public long sizeBytes() {
    return builder.offset();
  }

  /**
   * What {@link #finish()} would return now, at most: {@link #sizeBytes()}, plus the org vector
   * ({@code 4 * count()} bytes and its length), the root table, the file identifier and padding,
   * within {@value #FINISH_BYTES} bytes. A buffer of that capacity finishes without growing.
   */
  public long finishedSizeBound() {
    return builder.offset() + 4L * count + FINISH_BYTES;
  }

  /**
   * Writes the org vector and the root and returns the finished shard. Call once.
   *
   * @return a read-only, little-endian view of exactly the finished bytes (position 0, limit = its
   *     size), backed by this builder's buffer: no copy
   * @throws BufferLimitException if the shard would grow past 2 GB
   * @throws IllegalStateException if already finished or failed
   */
  public ByteBuffer finish() {
    requireOpen();
    try {
      Organizations.startOrganizationsVector(builder, count);
      for (int i = count - 1; i >= 0; i--) {
        builder.addOffset(orgOffsets[i]);
      }
      int organizations = builder.endVector();
      int root = Organizations.createOrganizations(builder, organizations);
      Organizations.finishOrganizationsBuffer(builder, root);
    } catch (AssertionError e) {
      throw failed(e);
    }
    state = State.FINISHED;
    orgOffsets = null;
    // dataBuffer() spans position (the first finished byte) to the end of the backing buffer.
    return builder.dataBuffer().slice().asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN);
  }

  /** What was shared so far. Allowed at any time, also after {@link #finish()}. */
  public DedupStats stats() {
    return new DedupStats(
        strings.counter(),
        attributeTables.counter(),
        new DedupStats.Counter(vectorsTotal, vectorsUnique));
  }

  private int attributeVector(List<Attr> attrs) {
    int count = attrs.size();
    if (tableOffsets.length < count) {
      tableOffsets = new int[Math.max(count, 2 * tableOffsets.length)];
    }
    for (int i = 0; i < count; i++) {
      tableOffsets[i] = attributeTables.offset(attrs.get(i));
    }
    vectorsTotal++;
    if (attributeVectors == null) {
      vectorsUnique++;
      return writeVector(count);
    }
    int hash = AttributeVectorIndex.hash(tableOffsets, count);
    int shared = attributeVectors.get(tableOffsets, count, hash);
    if (shared != 0) {
      return shared;
    }
    int offset = writeVector(count);
    vectorsUnique++;
    attributeVectors.put(hash, offset);
    return offset;
  }

  /**
   * What {@code Organization.createAttributesVector} does, from the first count table offsets.
   * {@code startVector} made room for all of them, aligned: each is a plain {@code putInt} (what
   * {@code addOffset} does after its {@code prep}).
   */
  private int writeVector(int count) {
    builder.startVector(Integer.BYTES, count, Integer.BYTES);
    for (int i = count - 1; i >= 0; i--) {
      builder.putInt(builder.offset() + Integer.BYTES - tableOffsets[i]);
    }
    return builder.endVector();
  }

  private static byte organizationType(Org org) {
    return switch (org.type()) {
      case FOO -> OrganizationType.FOO;
      case BAR -> OrganizationType.BAR;
      case BAZ -> OrganizationType.BAZ;
    };
  }

  private void requireOpen() {
    if (state != State.OPEN) {
      throw new IllegalStateException(
          switch (state) {
            case FINISHED ->
                "FlatBufferOrgsBuilder is finished: start a new builder for the next shard";
            case RECYCLED -> "FlatBufferOrgsBuilder's buffer was recycled for the next shard";
            default -> "FlatBufferOrgsBuilder failed earlier and cannot be used";
          });
    }
  }

  /**
   * FlatBufferBuilder signals errors with AssertionError: turn it into ours, never let it escape.
   */
  private FlatdumpException failed(AssertionError e) {
    state = State.FAILED;
    String message = String.valueOf(e.getMessage());
    if (message.contains(GROW_LIMIT_MESSAGE)) {
      return new BufferLimitException(count, builder.offset(), e);
    }
    return new FlatdumpException(
        "FlatBufferBuilder rejected the shard after " + count + " orgs: " + message, e);
  }
}
