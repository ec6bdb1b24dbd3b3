package dev.flatdump.encode;

import dev.flatdump.Attr;
import dev.flatdump.FlatdumpException;
import dev.flatdump.Org;
import dev.flatdump.OrgType;
import dev.flatdump.schema.fb.Attribute;
import dev.flatdump.schema.fb.Organization;
import dev.flatdump.schema.fb.OrganizationType;
import dev.flatdump.schema.fb.Organizations;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * Reads {@link Org}s back from a finished {@code Organizations} FlatBuffer, such as one that {@link
 * FlatBufferOrgsBuilder} wrote or a memory-mapped shard file.
 *
 * <p>The root table starts at the buffer's position. Nothing is copied: only the fields of the orgs
 * read are decoded. No method changes the given buffer's position, limit or byte order (each reads
 * through a duplicate), so several threads may read one buffer at the same time; an {@link
 * Iterator} itself is for one thread. This is not a verifier: a corrupt buffer may throw {@link
 * IndexOutOfBoundsException}.
 */
public final class FlatBufferOrgs {

  /** The file identifier at bytes 4..7 of every shard. */
  public static final String IDENTIFIER = "ORGS";

  private static final int HEADER_BYTES = 8;

  private FlatBufferOrgs() {}

  /** Whether the buffer (from its position) is long enough for a header and says {@code "ORGS"}. */
  public static boolean hasIdentifier(ByteBuffer buf) {
    return buf.remaining() >= HEADER_BYTES && Organizations.OrganizationsBufferHasIdentifier(buf);
  }

  /**
   * How many orgs the buffer holds.
   *
   * @throws FlatdumpException if it is not an {@code "ORGS"} buffer
   */
  public static int count(ByteBuffer buf) {
    return root(buf).organizationsLength();
  }

  /**
   * Decodes the org at {@code index}.
   *
   * @throws FlatdumpException if it is not an {@code "ORGS"} buffer, or the org lacks a field or
   *     has an unknown type
   * @throws IndexOutOfBoundsException unless {@code 0 <= index < count(buf)}
   */
  public static Org read(ByteBuffer buf, int index) {
    Organizations root = root(buf);
    Objects.checkIndex(index, root.organizationsLength());
    return decode(root.organizations(new Organization(), index), new Attribute(), index);
  }

  /**
   * Decodes the orgs in order, one per {@link Iterator#next()}, reusing its table accessors.
   *
   * @throws FlatdumpException if it is not an {@code "ORGS"} buffer (at once), or from {@code
   *     next()} if an org lacks a field or has an unknown type
   */
  public static Iterator<Org> iterator(ByteBuffer buf) {
    Organizations root = root(buf);
    int count = root.organizationsLength();
    return new Iterator<>() {
      private final Organization organization = new Organization();
      private final Attribute attribute = new Attribute();
      private int next;

      @Override
      public boolean hasNext() {
        return next < count;
      }

      @Override
      public Org next() {
        if (next >= count) {
          throw new NoSuchElementException("all " + count + " orgs were read");
        }
        int index = next++;
        return decode(root.organizations(organization, index), attribute, index);
      }
    };
  }

  private static Organizations root(ByteBuffer buf) {
    Objects.requireNonNull(buf, "buf must not be null");
    if (!hasIdentifier(buf)) {
      throw new FlatdumpException(
          "not an organizations FlatBuffer: expected file identifier '"
              + IDENTIFIER
              + "' at bytes 4..7, found "
              + foundIdentifier(buf));
    }
    // getRootAs* sets the byte order: do it on a duplicate, which shares the bytes (and a mapping).
    return Organizations.getRootAsOrganizations(buf.duplicate().order(ByteOrder.LITTLE_ENDIAN));
  }

  private static Org decode(Organization organization, Attribute attribute, int index) {
    int size = organization.attributesLength();
    var attrs = new Attr[size];
    for (int i = 0; i < size; i++) {
      Attribute a = organization.attributes(attribute, i);
      attrs[i] =
          new Attr(
              required(a.id(), index, "attributes[" + i + "].id"),
              a.quantity(),
              a.amount(),
              a.size(),
              a.percent(),
              a.active());
    }
    return new Org(
        required(organization.name(), index, "name"),
        required(organization.category(), index, "category"),
        required(organization.country(), index, "country"),
        type(organization.type(), index),
        List.of(attrs));
  }

  private static String required(String value, int index, String field) {
    if (value == null) {
      throw new FlatdumpException("organization " + index + " has no " + field);
    }
    return value;
  }

  private static OrgType type(byte type, int index) {
    return switch (type) {
      case OrganizationType.FOO -> OrgType.FOO;
      case OrganizationType.BAR -> OrgType.BAR;
      case OrganizationType.BAZ -> OrgType.BAZ;
      default ->
          throw new FlatdumpException(
              "organization "
                  + index
                  + " has unknown type "
                  + type
                  + "; expected 0..2 (FOO, BAR, BAZ)");
    };
  }

  private static String foundIdentifier(ByteBuffer buf) {
    if (buf.remaining() < HEADER_BYTES) {
      return "only " + buf.remaining() + " bytes";
    }
    var found = new StringBuilder("'");
    for (int i = 4; i < HEADER_BYTES; i++) {
      int b = buf.get(buf.position() + i) & 0xFF;
      found.append(b >= 0x20 && b < 0x7F ? String.valueOf((char) b) : String.format("\\x%02x", b));
    }
    return found.append("'").toString();
  }
}
