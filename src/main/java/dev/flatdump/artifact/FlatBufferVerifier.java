package dev.flatdump.artifact;

import dev.flatdump.encode.FlatBufferOrgs;
import java.nio.ByteBuffer;
import java.util.BitSet;
import java.util.Objects;

/**
 * Checks that a buffer is a well-formed {@code Organizations} FlatBuffer ({@code
 * schemas/organizations.fbs}) before anything reads it, as the C++ {@code flatbuffers::Verifier}
 * does. Java has no verifier, and the generated readers trust every offset. It reads each byte by
 * absolute index and trusts nothing. For the checks, see {@code verify}.
 *
 * <p>A buffer that passes can be read completely through the generated classes and {@link
 * FlatBufferOrgs} without an exception. The values may still be wrong: a flipped bit inside a
 * string or a scalar goes unnoticed. That is what the manifest's SHA-256 is for.
 *
 * <p>Shared (de-duplicated) tables, attribute vectors and strings are verified once per offset and
 * remembered, so the work is linear in the buffer's size. The memory is at most one bit per 4 bytes
 * of buffer for each of those four kinds. {@link Limits} stop a crafted buffer whose objects
 * overlap from costing more. Every check is explicit: bad input gives an {@link Error}, never an
 * exception. The buffer's position, limit and byte order are left alone. One call verifies on one
 * thread; calls on the same buffer may run in parallel.
 */
public final class FlatBufferVerifier {

  private static final String IDENTIFIER = FlatBufferOrgs.IDENTIFIER;
  private static final int HEADER_BYTES = 8;
  private static final int UOFFSET = VerifierBuffer.UOFFSET;
  private static final String HEADER = "(header)";
  private static final String HERE = VerifierBuffer.HERE;

  /**
   * The first problem found.
   *
   * @param offset the byte it concerns, from the buffer's position
   * @param path where in the data, e.g. {@code organizations[12].attributes[3].id}; {@code
   *     (header)} for the first 8 bytes, {@code (root)} for the root table
   * @param reason what is wrong, with the values found
   */
  public record Error(long offset, String path, String reason) {
    public Error {
      if (offset < 0) {
        throw new IllegalArgumentException("Error.offset must be >= 0, got " + offset);
      }
      Objects.requireNonNull(path, "Error.path");
      Objects.requireNonNull(reason, "Error.reason");
    }

    @Override
    public String toString() {
      return "at byte " + offset + " (" + path + "): " + reason;
    }
  }

  /**
   * The outcome of one verification.
   *
   * @param organizations how many organizations the buffer holds; -1 when it is invalid
   * @param error the first problem, or null when the buffer is valid
   */
  public record Result(long organizations, Error error) {
    public Result {
      if ((error == null) != (organizations >= 0)) {
        throw new IllegalArgumentException(
            "a Result has organizations >= 0 or an error, got " + organizations + ", " + error);
      }
    }

    public boolean valid() {
      return error == null;
    }
  }

  /**
   * Bounds on the work a buffer may cause.
   *
   * @param maxDepth how deep tables may nest. The schema nests three deep (root, organization,
   *     attribute). 64 by default, as in C++.
   * @param maxTables how many times tables may be visited, counting every reference to a shared
   *     table
   * @param maxStringBytes how many string bytes may be checked, summed over distinct strings
   */
  public record Limits(int maxDepth, long maxTables, long maxStringBytes) {
    public Limits {
      if (maxDepth < 1 || maxTables < 1 || maxStringBytes < 0) {
        throw new IllegalArgumentException(
            "Limits must be maxDepth >= 1, maxTables >= 1, maxStringBytes >= 0, got "
                + maxDepth
                + ", "
                + maxTables
                + ", "
                + maxStringBytes);
      }
    }

    /**
     * The default limits for a buffer of {@code bytes}. They never stop a well-formed buffer,
     * however much it shares. Every table reference is a distinct 4-byte offset once vectors are
     * remembered, so there are at most {@code bytes / 4 + 1}. Distinct strings do not overlap, so
     * their bytes add up to less than {@code bytes}.
     */
    public static Limits forSize(long bytes) {
      return new Limits(64, bytes / UOFFSET + 1, bytes);
    }
  }

  private final VerifierBuffer in;
  private final BitSet organizationTables = new BitSet();
  private final BitSet attributeTables = new BitSet();
  private final BitSet attributeVectors = new BitSet();

  private FlatBufferVerifier(ByteBuffer buffer, Limits limits) {
    this.in = new VerifierBuffer(buffer, limits);
  }

  /** Verifies the bytes from the buffer's position to its limit with {@link Limits#forSize}. */
  public static Result verify(ByteBuffer buffer) {
    return verify(buffer, Limits.forSize(buffer.remaining()));
  }

  /**
   * Verifies the bytes from the buffer's position to its limit. Offsets and alignment are relative
   * to the position. It checks:
   *
   * <ul>
   *   <li>the 8-byte header is there and the identifier is {@code "ORGS"};
   *   <li>every uoffset is non-zero and stays inside the buffer, and every table, vtable, vector,
   *       string and field fits inside it;
   *   <li>tables, vectors and strings are 4-byte aligned, vtables 2-byte aligned, scalars aligned
   *       to their size;
   *   <li>vtable sizes are even and at least 4. Table sizes are at least 4. Both are at most 32767,
   *       because the Java readers read them as signed shorts;
   *   <li>each field offset lies past the table's vtable offset, and the field fits inside the
   *       table's inline size;
   *   <li>strings end with a NUL and are valid UTF-8;
   *   <li>{@code type} is 0..2 (FOO, BAR, BAZ) and {@code active} is 0 or 1;
   *   <li>{@code name}, {@code category}, {@code country} and {@code attributes[].id} are present.
   *       flatdump always writes them, and {@code FlatBufferOrgs} requires them;
   *   <li>the nesting depth, the table visits and the string bytes stay within {@code limits}.
   * </ul>
   */
  public static Result verify(ByteBuffer buffer, Limits limits) {
    Objects.requireNonNull(buffer, "buffer");
    Objects.requireNonNull(limits, "limits");
    return new FlatBufferVerifier(buffer, limits).run();
  }

  private Result run() {
    long count = header();
    return in.error() == null ? new Result(count, null) : new Result(-1, in.error());
  }

  /** Checks the header and everything under the root; the organization count, or -1. */
  private long header() {
    if (in.size() < HEADER_BYTES) {
      in.fail(0, HEADER, "the buffer has " + in.size() + " bytes, fewer than the 8-byte header");
      return -1;
    }
    for (int i = 0; i < IDENTIFIER.length(); i++) {
      if (in.u8(UOFFSET + i) != IDENTIFIER.charAt(i)) {
        in.fail(
            UOFFSET,
            HEADER,
            "the file identifier is " + identifierFound() + ", expected \"" + IDENTIFIER + "\"");
        return -1;
      }
    }
    long root = in.follow(0, HEADER);
    return root < 0 || !in.countTable(root) ? -1 : root(root);
  }

  private long root(long t) {
    VerifierBuffer.Table table = in.table(t);
    long p = table == null ? -1 : in.field(table, 0, UOFFSET, "organizations");
    if (p <= 0) {
      return p; // 0: no organizations field, an empty export
    }
    long v = in.follow(p, "organizations");
    long count = v < 0 ? -1 : in.vectorLength(v, "organizations");
    for (long i = 0; i < count; i++) {
      in.element(0, "organizations", i);
      long o = in.follow(v + UOFFSET + UOFFSET * i, HERE);
      if (o < 0 || !organization(o)) {
        return -1;
      }
    }
    in.leave(0);
    return count;
  }

  private boolean organization(long t) {
    if (!in.countTable(t)) {
      return false;
    }
    if (VerifierBuffer.remembered(organizationTables, t)) {
      return true;
    }
    VerifierBuffer.Table table = in.table(t);
    if (table == null
        || !in.requiredString(table, 0, "name")
        || !in.requiredString(table, 1, "category")
        || !in.byteAtMost(table, 2, "type", 2, "is not an OrganizationType (0 FOO, 1 BAR, 2 BAZ)")
        || !in.requiredString(table, 3, "country")) {
      return false;
    }
    long p = in.field(table, 4, UOFFSET, "attributes");
    if (p > 0) {
      long v = in.follow(p, "attributes");
      if (v < 0 || !attributes(v)) {
        return false;
      }
    }
    return p >= 0 && in.end(table, organizationTables);
  }

  private boolean attributes(long v) {
    if (VerifierBuffer.remembered(attributeVectors, v)) {
      return true;
    }
    long count = in.vectorLength(v, "attributes");
    if (count < 0) {
      return false;
    }
    for (long i = 0; i < count; i++) {
      in.element(1, "attributes", i);
      long a = in.follow(v + UOFFSET + UOFFSET * i, HERE);
      if (a < 0 || !attribute(a)) {
        return false;
      }
    }
    in.leave(1);
    attributeVectors.set((int) (v >>> 2));
    return true;
  }

  private boolean attribute(long t) {
    if (!in.countTable(t)) {
      return false;
    }
    if (VerifierBuffer.remembered(attributeTables, t)) {
      return true;
    }
    VerifierBuffer.Table table = in.table(t);
    return table != null
        && in.requiredString(table, 0, "id")
        && in.field(table, 1, Byte.BYTES, "quantity") >= 0
        && in.field(table, 2, Byte.BYTES, "amount") >= 0
        && in.field(table, 3, Short.BYTES, "size") >= 0
        && in.field(table, 4, Double.BYTES, "percent") >= 0
        && in.byteAtMost(table, 5, "active", 1, "is not a bool (0 or 1)")
        && in.end(table, attributeTables);
  }

  private String identifierFound() {
    var found = new StringBuilder("\"");
    for (int i = UOFFSET; i < HEADER_BYTES; i++) {
      int b = in.u8(i);
      found.append(b >= 0x20 && b < 0x7F ? String.valueOf((char) b) : String.format("\\x%02x", b));
    }
    return found.append('"').toString();
  }
}
