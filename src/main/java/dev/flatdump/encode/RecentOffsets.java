package dev.flatdump.encode;

import dev.flatdump.Attr;

/**
 * Remembers, for the instances seen last, the offset the builder answered them with: a decoder that
 * shares one instance among equal values ({@code RawOrgDecoder}'s caches) hands the same attribute,
 * id, category or country over again and again, and then a repeat costs a hash and a reference
 * comparison instead of the builder's maps and its table index.
 *
 * <p>Direct-mapped and small enough to stay in the CPU's cache: each slot holds one instance and
 * its offset, chosen by a hash of the instance's value, so equal values from different instances
 * share a slot and the later one takes it over. Keyed by identity, never by equality: a hit is an
 * instance it was given, so it can never answer with another value's offset. Its offsets mean
 * nothing outside its builder. Not thread-safe.
 *
 * @param <T> what it remembers offsets of
 */
final class RecentOffsets<T> {

  private final Object[] instances;
  private final int[] offsets;
  private final int shift;

  /**
   * @param bits 2^bits slots, 1..24
   */
  RecentOffsets(int bits) {
    if (bits < 1 || bits > 24) {
      throw new IllegalArgumentException("bits must be in 1..24, was " + bits);
    }
    this.instances = new Object[1 << bits];
    this.offsets = new int[1 << bits];
    this.shift = Integer.SIZE - bits;
  }

  /**
   * The offset stored for this very instance, or 0.
   *
   * @param hash a hash of the instance's value: the same one at every call for it
   */
  int get(T instance, int hash) {
    int slot = slot(hash);
    return instances[slot] == instance ? offsets[slot] : 0;
  }

  /** Remembers the instance's offset, replacing whatever its slot held. */
  void put(T instance, int hash, int offset) {
    if (offset <= 0) {
      throw new IllegalArgumentException("offset must be positive, was " + offset);
    }
    int slot = slot(hash);
    instances[slot] = instance;
    offsets[slot] = offset;
  }

  /** A hash of an attribute's fields, for {@link #get} and {@link #put}. */
  static int hash(Attr attr) {
    // The id's hash is cached in its String; the scalars spread attributes that share an id.
    long percent = Double.doubleToRawLongBits(attr.percent());
    return attr.id().hashCode() * 31
        + (attr.size() << 16 ^ attr.quantity() << 8 ^ attr.amount())
        + (int) (percent ^ percent >>> 32)
        + (attr.active() ? 0x5bd1e995 : 0);
  }

  private int slot(int hash) {
    return (hash * 0x9E3779B9) >>> shift;
  }
}
