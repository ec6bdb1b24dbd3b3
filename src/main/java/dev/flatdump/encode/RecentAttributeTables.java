package dev.flatdump.encode;

import dev.flatdump.Attr;

/**
 * Remembers, for the {@link Attr} instances seen last, the table the builder answered them with: a
 * decoder that shares one instance among equal attributes ({@code RawOrgDecoder}'s cache) hands the
 * same instance over again and again, and then a repeat costs a field hash and a reference
 * comparison instead of the id map and the table index.
 *
 * <p>Direct-mapped and small enough to stay in the CPU's cache: each slot holds one instance and
 * its table offset, chosen by a hash of the attribute's values, so equal attributes from different
 * instances share a slot and the later one takes it over. Keyed by identity, never by equality: a
 * hit is an instance it was given, so it can never answer with another attribute's table. Its
 * offsets mean nothing outside its builder. Not thread-safe.
 */
final class RecentAttributeTables {

  private static final int BITS = 14;
  private static final int SLOTS = 1 << BITS;

  private final Attr[] attributes = new Attr[SLOTS];
  private final int[] offsets = new int[SLOTS];

  /** The table offset stored for this very instance, or 0. */
  int get(Attr attr) {
    int slot = slot(attr);
    return attributes[slot] == attr ? offsets[slot] : 0;
  }

  /** Remembers the instance's table, replacing whatever its slot held. */
  void put(Attr attr, int offset) {
    if (offset <= 0) {
      throw new IllegalArgumentException("offset must be positive, was " + offset);
    }
    int slot = slot(attr);
    attributes[slot] = attr;
    offsets[slot] = offset;
  }

  private static int slot(Attr attr) {
    // The id's hash is cached in its String; the scalars spread attributes that share an id.
    long percent = Double.doubleToRawLongBits(attr.percent());
    int h =
        attr.id().hashCode() * 31
            + (attr.size() << 16 ^ attr.quantity() << 8 ^ attr.amount())
            + (int) (percent ^ percent >>> 32)
            + (attr.active() ? 0x5bd1e995 : 0);
    h *= 0x9E3779B9;
    return h >>> (Integer.SIZE - BITS);
  }
}
