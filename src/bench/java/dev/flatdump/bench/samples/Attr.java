package dev.flatdump.bench.samples;

import java.util.Objects;

/**
 * One attribute of an organization, as the articles model it: an id and five scalar values.
 *
 * <p>Immutable and thread-safe. Equality is by value, so equal attributes can share one FlatBuffers
 * table. {@code percent} compares by its bit pattern (as {@link Double#equals} does), so {@code
 * NaN} equals {@code NaN} and {@code 0.0} differs from {@code -0.0}.
 *
 * @param id the attribute's identifier; never null
 * @param quantity a signed byte, -128..127
 * @param amount a signed byte, -128..127
 * @param size a signed short, -32768..32767
 * @param percent any double, NaN and infinities included
 * @param active a flag
 */
public record Attr(
    String id, byte quantity, byte amount, short size, double percent, boolean active) {

  public Attr {
    Objects.requireNonNull(id, "Attr.id must not be null");
  }
}
