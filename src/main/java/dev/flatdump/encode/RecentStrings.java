package dev.flatdump.encode;

/**
 * Remembers, for the {@link String} instances seen last, the offset the builder wrote or found them
 * at: a decoder that shares one instance among equal strings ({@code RawOrgDecoder}'s cache) hands
 * the same attribute id, category or country over again and again, and then a repeat costs a
 * reference comparison instead of a lookup in the map of every string.
 *
 * <p>Direct-mapped and small enough to stay in the CPU's cache: each slot holds one instance and
 * its offset, chosen by the string's own (cached) hash. Keyed by identity, never by equality: a hit
 * is an instance it was given, so it can never answer with another string's offset. Its offsets
 * mean nothing outside its builder. Not thread-safe.
 */
final class RecentStrings {

  private static final int BITS = 12;
  private static final int SLOTS = 1 << BITS;

  private final String[] strings = new String[SLOTS];
  private final int[] offsets = new int[SLOTS];

  /** The offset stored for this very instance, or 0. */
  int get(String value) {
    int slot = slot(value);
    return strings[slot] == value ? offsets[slot] : 0;
  }

  /** Stores the offset for this instance, in place of whatever held its slot. */
  void put(String value, int offset) {
    if (offset <= 0) {
      throw new IllegalArgumentException("offset must be positive, was " + offset);
    }
    int slot = slot(value);
    strings[slot] = value;
    offsets[slot] = offset;
  }

  private static int slot(String value) {
    return (value.hashCode() * 0x9E3779B9) >>> (Integer.SIZE - BITS);
  }
}
