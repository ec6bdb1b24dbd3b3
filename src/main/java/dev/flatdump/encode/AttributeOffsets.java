package dev.flatdump.encode;

import java.util.Arrays;

/**
 * A map key for one org's attribute list: the offsets of its {@code Attribute} tables, in order.
 * Equal lists of shared tables have equal offsets, so equal keys can share one vector.
 *
 * <p>Owns its array (callers must not change it afterwards) and caches its hash. Immutable.
 */
final class AttributeOffsets {

  private final int[] offsets;
  private final int hash;

  AttributeOffsets(int[] offsets) {
    this.offsets = offsets;
    this.hash = Arrays.hashCode(offsets);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof AttributeOffsets that
        && hash == that.hash
        && Arrays.equals(offsets, that.offsets);
  }

  @Override
  public int hashCode() {
    return hash;
  }
}
