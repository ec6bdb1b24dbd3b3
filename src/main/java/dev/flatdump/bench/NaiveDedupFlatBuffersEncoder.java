package dev.flatdump.bench;

import com.google.flatbuffers.FlatBufferBuilder;
import dev.flatdump.Attr;
import dev.flatdump.Org;
import dev.flatdump.schema.fb.Attribute;
import dev.flatdump.schema.fb.Organization;
import dev.flatdump.schema.fb.Organizations;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The baseline for attribute de-dup, written the way the FlatBuffers article suggests: its
 * string-de-dup code plus a {@code HashMap<Attr, Integer>} from each attribute record to the offset
 * of its first table. Equal attributes share a table, equal strings share a string, attribute
 * vectors are not shared. The output has the same layout as flatdump's builder with strings and
 * attributes on (and its {@code "ORGS"} identifier), so the two rows differ only in speed.
 *
 * <p>A benchmark baseline, not production code: it keeps {@link AssertionError}s from {@link
 * FlatBufferBuilder} and has no 2 GB guard.
 */
final class NaiveDedupFlatBuffersEncoder {

  private NaiveDedupFlatBuffersEncoder() {}

  /** Returns the finished buffer: position at its first byte, limit at its end. */
  static ByteBuffer encode(List<Org> organizations, int initialCapacity) {
    FlatBufferBuilder builder = new FlatBufferBuilder(initialCapacity);
    Map<String, Integer> strOffsets = new HashMap<>();
    Map<Attr, Integer> attrOffsets = new HashMap<>();

    int[] orgsArr = new int[organizations.size()];
    int contOrgs = 0;
    for (Org org : organizations) {
      int[] attributes = new int[org.attributes().size()];
      int contAttr = 0;
      for (Attr attr : org.attributes()) {
        attributes[contAttr++] =
            attrOffsets.computeIfAbsent(
                attr,
                a ->
                    Attribute.createAttribute(
                        builder,
                        strOffsets.computeIfAbsent(a.id(), builder::createString),
                        a.quantity(),
                        a.amount(),
                        a.size(),
                        a.percent(),
                        a.active()));
      }
      int attrsOffset = Organization.createAttributesVector(builder, attributes);

      int nameOffset = strOffsets.computeIfAbsent(org.name(), builder::createString);
      int categoryOffset = strOffsets.computeIfAbsent(org.category(), builder::createString);
      byte type = (byte) org.type().ordinal();
      int countryOffset = strOffsets.computeIfAbsent(org.country(), builder::createString);
      orgsArr[contOrgs++] =
          Organization.createOrganization(
              builder, nameOffset, categoryOffset, type, countryOffset, attrsOffset);
    }
    int organizationsOffset = Organizations.createOrganizationsVector(builder, orgsArr);
    int rootTable = Organizations.createOrganizations(builder, organizationsOffset);
    Organizations.finishOrganizationsBuffer(builder, rootTable);
    return builder.dataBuffer();
  }
}
