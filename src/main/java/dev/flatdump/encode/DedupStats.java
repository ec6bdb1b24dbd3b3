package dev.flatdump.encode;

import java.util.Objects;

/**
 * How much de-duplication one {@link FlatBufferOrgsBuilder} achieved. Counts, not bytes.
 *
 * <p>Immutable and thread-safe; a snapshot taken when {@link FlatBufferOrgsBuilder#stats()} was
 * called. Stats of several shards add up with {@link #plus}.
 *
 * @param strings string references the builder needed, and strings it wrote. An attribute whose
 *     table is shared needs no id string, so with attribute de-dup on, {@code strings.total} counts
 *     only the ids of attribute tables actually written.
 * @param attributes attributes the orgs held, and {@code Attribute} tables written
 * @param vectors attribute lists (one per org), and attribute vectors written
 */
public record DedupStats(Counter strings, Counter attributes, Counter vectors) {

  public DedupStats {
    Objects.requireNonNull(strings, "DedupStats.strings must not be null");
    Objects.requireNonNull(attributes, "DedupStats.attributes must not be null");
    Objects.requireNonNull(vectors, "DedupStats.vectors must not be null");
  }

  /** All zero: nothing added yet. */
  public static final DedupStats EMPTY =
      new DedupStats(new Counter(0, 0), new Counter(0, 0), new Counter(0, 0));

  /** The sum of both, e.g. over the shards of one export. */
  public DedupStats plus(DedupStats other) {
    return new DedupStats(
        strings.plus(other.strings),
        attributes.plus(other.attributes),
        vectors.plus(other.vectors));
  }

  /**
   * One kind's counts. With that kind's de-dup switched off, {@code unique == total}.
   *
   * @param total how many were asked for
   * @param unique how many were actually written; at most {@code total}
   */
  public record Counter(long total, long unique) {

    public Counter {
      if (unique < 0 || unique > total) {
        throw new IllegalArgumentException(
            "Counter.unique must be 0.." + total + " (total), was " + unique);
      }
    }

    /** The sum of both. */
    public Counter plus(Counter other) {
      return new Counter(total + other.total, unique + other.unique);
    }

    /** How many were shared instead of written: {@code total - unique}. */
    public long shared() {
      return total - unique;
    }
  }
}
