package dev.flatdump.bench;

import com.google.flatbuffers.FlatBufferBuilder;
import dev.flatdump.bench.samples.Attr;
import dev.flatdump.bench.samples.Org;
import dev.flatdump.schema.fb.Attribute;
import dev.flatdump.schema.fb.Organization;
import dev.flatdump.schema.fb.Organizations;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The FlatBuffers baselines, written the way the FlatBuffers article writes them, through the
 * generated code: plain (a string per use), with its {@code HashMap<String,Integer>} string de-dup,
 * and with the attribute de-dup it suggests, a {@code HashMap<Attr,Integer>} from each attribute
 * record to the offset of its first table. Attribute vectors are never shared. The output has the
 * same layout as flatdump's builder with the same de-dup (and its {@code "ORGS"} identifier), so
 * the rows differ only in speed.
 *
 * <p>A benchmark baseline, not production code: it keeps {@link AssertionError}s from {@link
 * FlatBufferBuilder}, has no 2 GB guard, and writes -0.0 as 0.0 (the generated code leaves out a
 * value equal to its default).
 */
final class ArticleFlatBuffersEncoder {

  /** What the baseline shares. */
  enum Sharing {
    NOTHING,
    STRINGS,
    STRINGS_AND_ATTRIBUTES
  }

  private ArticleFlatBuffersEncoder() {}

  /** Returns the finished buffer: position at its first byte, limit at its end. */
  static ByteBuffer encode(List<Org> organizations, Sharing sharing, int initialCapacity) {
    FlatBufferBuilder builder = new FlatBufferBuilder(initialCapacity);
    Map<String, Integer> strOffsets = sharing == Sharing.NOTHING ? null : new HashMap<>();
    Map<Attr, Integer> attrOffsets =
        sharing == Sharing.STRINGS_AND_ATTRIBUTES ? new HashMap<>() : null;

    int[] orgsArr = new int[organizations.size()];
    int contOrgs = 0;
    for (Org org : organizations) {
      int[] attributes = new int[org.attributes().size()];
      int contAttr = 0;
      for (Attr attr : org.attributes()) {
        // The article's code: a direct call, or its map's computeIfAbsent around the same call.
        attributes[contAttr++] =
            attrOffsets == null
                ? attribute(builder, strOffsets, attr)
                : attrOffsets.computeIfAbsent(attr, a -> attribute(builder, strOffsets, a));
      }
      int attrsOffset = Organization.createAttributesVector(builder, attributes);

      int nameOffset = string(builder, strOffsets, org.name());
      int categoryOffset = string(builder, strOffsets, org.category());
      byte type = (byte) org.type().ordinal();
      int countryOffset = string(builder, strOffsets, org.country());
      orgsArr[contOrgs++] =
          Organization.createOrganization(
              builder, nameOffset, categoryOffset, type, countryOffset, attrsOffset);
    }
    int organizationsOffset = Organizations.createOrganizationsVector(builder, orgsArr);
    int rootTable = Organizations.createOrganizations(builder, organizationsOffset);
    Organizations.finishOrganizationsBuffer(builder, rootTable);
    return builder.dataBuffer();
  }

  private static int attribute(FlatBufferBuilder builder, Map<String, Integer> strOffsets, Attr a) {
    return Attribute.createAttribute(
        builder,
        string(builder, strOffsets, a.id()),
        a.quantity(),
        a.amount(),
        a.size(),
        a.percent(),
        a.active());
  }

  /** {@code builder.createString}, through the article's map when there is one. */
  private static int string(FlatBufferBuilder builder, Map<String, Integer> offsets, String s) {
    return offsets == null
        ? builder.createString(s)
        : offsets.computeIfAbsent(s, builder::createString);
  }
}
