package dev.flatdump.encode;

import com.google.flatbuffers.FlatBufferBuilder;
import dev.flatdump.FlatdumpException;
import java.util.HashMap;
import java.util.Map;

/**
 * A builder's strings: with sharing on, equal strings get one offset, so each is written once per
 * buffer; with it off, every string is written. Counts both. Part of {@link FlatBufferOrgsBuilder},
 * whose buffer the offsets point into.
 */
final class SharedStrings {

  // 4,096 recent strings: ids, categories and countries repeat; names mostly do not.
  private static final int RECENT_BITS = 12;

  private final FlatBufferBuilder builder;
  private final Map<String, Integer> offsets;
  private final RecentOffsets<String> recent;
  private long total;
  private long unique;

  SharedStrings(FlatBufferBuilder builder, boolean share) {
    this.builder = builder;
    this.offsets = share ? new HashMap<>() : null;
    this.recent = share ? new RecentOffsets<>(RECENT_BITS) : null;
  }

  boolean sharing() {
    return offsets != null;
  }

  /**
   * The offset of {@code value}, written now unless it was before (and sharing is on).
   *
   * @param field what the string is, for the error
   * @throws FlatdumpException if it cannot be encoded as UTF-8 (an unpaired surrogate); nothing was
   *     written then
   */
  int offset(String value, String field) {
    total++;
    if (offsets == null) {
      unique++;
      return write(value, field);
    }
    int hash = value.hashCode(); // cached in the String
    int seen = recent.get(value, hash);
    if (seen != 0) {
      return seen;
    }
    Integer shared = offsets.get(value);
    if (shared != null) {
      recent.put(value, hash, shared);
      return shared;
    }
    int offset = write(value, field);
    unique++;
    offsets.put(value, offset);
    recent.put(value, hash, offset);
    return offset;
  }

  /** Counts one more use of a string already written, whose offset the caller kept. */
  void reused() {
    total++;
  }

  DedupStats.Counter counter() {
    return new DedupStats.Counter(total, unique);
  }

  private int write(String value, String field) {
    try {
      return builder.createString(value);
    } catch (IllegalArgumentException e) {
      // Utf8Safe measures the string before it writes anything, so the buffer is still consistent.
      throw new FlatdumpException(
          "cannot encode " + field + " '" + value + "' as UTF-8: " + e.getMessage(), e);
    }
  }
}
