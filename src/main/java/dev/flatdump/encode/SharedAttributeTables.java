package dev.flatdump.encode;

import com.google.flatbuffers.FlatBufferBuilder;
import dev.flatdump.Attr;
import dev.flatdump.RepeatSampler;
import java.util.HashMap;
import java.util.Map;

/**
 * A builder's {@code Attribute} tables: with sharing on, equal attributes get one table, so each is
 * written once per buffer; with it off, every attribute is written. Counts both. Part of {@link
 * FlatBufferOrgsBuilder}, whose buffer the offsets point into.
 */
final class SharedAttributeTables {

  // 16,384 recent attributes: 84 % of realistic attributes hit.
  private static final int RECENT_BITS = 14;

  private final AttributeTableWriter writer;
  private final SharedStrings strings;
  private final AttributeTableIndex index;
  private final RecentOffsets<Attr> recent;
  private final Map<String, Integer> idKeys;

  /**
   * Where attributes do not repeat, the table index costs time and memory for nothing: it pauses.
   */
  private final RepeatSampler sampler = RepeatSampler.forAttributes();

  private long total;
  private long unique;

  SharedAttributeTables(FlatBufferBuilder builder, SharedStrings strings, boolean share) {
    this.writer = new AttributeTableWriter(builder);
    this.strings = strings;
    // Tables are keyed on primitives, the id on a number: its shared string's offset, or without
    // string sharing, a number of its own. The ids have a map of their own, looked up for every
    // attribute: small enough to stay in the CPU's cache while the string map grows with every
    // unique name.
    this.index = share ? new AttributeTableIndex() : null;
    this.recent = share ? new RecentOffsets<>(RECENT_BITS) : null;
    this.idKeys = share ? new HashMap<>() : null;
  }

  /** The offset of a table holding {@code attr}, written now unless an equal one was before. */
  int offset(Attr attr) {
    total++;
    if (index == null) {
      return write(strings.offset(attr.id(), "attribute id"), attr);
    }
    if (!sampler.active()) {
      sampler.skipped();
      return write(strings.offset(attr.id(), "attribute id"), attr);
    }
    // The hot path: the same instance as a recent attribute (the decoder shares them) costs a
    // field hash; else a hit costs one lookup of the id and one of primitives. Neither writes.
    int recentHash = RecentOffsets.hash(attr);
    int seen = recent.get(attr, recentHash);
    if (seen != 0) {
      sampler.found(true);
      return seen;
    }
    Integer knownId = idKeys.get(attr.id());
    if (knownId != null) {
      int shared = index.get(scalars(knownId, attr), percentBits(attr));
      if (shared != 0) {
        sampler.found(true);
        recent.put(attr, recentHash, shared);
        return shared;
      }
    }
    sampler.found(false);
    int idOffset;
    int idKey;
    if (strings.sharing()) {
      if (knownId != null) {
        strings.reused(); // the table is new, its id string is shared
        idOffset = knownId;
      } else {
        idOffset = strings.offset(attr.id(), "attribute id");
        idKeys.put(attr.id(), idOffset);
      }
      idKey = idOffset;
    } else {
      idOffset = strings.offset(attr.id(), "attribute id");
      idKey = knownId != null ? knownId : newIdKey(attr.id());
    }
    int offset = write(idOffset, attr);
    index.put(scalars(idKey, attr), percentBits(attr), offset);
    recent.put(attr, recentHash, offset);
    return offset;
  }

  DedupStats.Counter counter() {
    return new DedupStats.Counter(total, unique);
  }

  /** Without string sharing, numbers the distinct ids 1, 2, ... to key tables on. */
  private int newIdKey(String id) {
    int key = idKeys.size() + 1;
    idKeys.put(id, key);
    return key;
  }

  private static long scalars(int idKey, Attr attr) {
    return AttributeTableIndex.scalars(
        idKey, attr.quantity(), attr.amount(), attr.size(), attr.active());
  }

  /** By raw bits: 0.0 and -0.0 differ, and so do NaNs with different payloads. */
  private static long percentBits(Attr attr) {
    return Double.doubleToRawLongBits(attr.percent());
  }

  private int write(int idOffset, Attr attr) {
    unique++;
    return writer.write(
        idOffset, attr.quantity(), attr.amount(), attr.size(), attr.percent(), attr.active());
  }
}
