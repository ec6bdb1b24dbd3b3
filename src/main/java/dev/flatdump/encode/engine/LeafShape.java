package dev.flatdump.encode.engine;

import dev.flatdump.encode.plan.FieldKind;
import dev.flatdump.encode.plan.FieldPlan;
import dev.flatdump.encode.plan.TablePlan;
import java.io.ByteArrayOutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;

/**
 * The layout of a sub-document of a leaf table type (one whose fields are all scalars and strings,
 * such as the organizations' {@code Attribute} or a flat collection's record) that the general walk
 * accepted: its elements' BSON types, names and fields, in order, and where each value stands. A
 * sub-document laid out the same way (the common case: a collection's documents are mostly written
 * by one program) is checked 8 bytes at a time, its names and types together, in segments that end
 * at each string, and {@link RecordEncoder} reads its values from where the layout puts them,
 * without looking fields up, without the general walk's bookkeeping.
 *
 * <p>A layout says nothing about values: they are checked and converted as the general walk does
 * (ranges, bools, UTF-8 for a string not already written), and anything the layout does not foresee
 * (another order, a field missing, unknown or of another type, a value out of range or that does
 * not convert, bytes that do not parse) sends the sub-document back to the general walk before
 * anything is written, so that the walk gives the same table or words the same reject.
 *
 * <p>Layouts are learned ({@link #learn}) from sub-documents the walk accepted, none from one with
 * a value a layout cannot describe (a conversion to or from a string, such as a decimal into a
 * string). {@link RecordEncoder} keeps the last two layouts of each leaf type, decides when to
 * learn (learning stops for a type whose sub-documents keep changing layout, or cannot be
 * described, and starts again later), and gives each layout learned a reader generated for it
 * ({@link LeafReaders}), which checks the layout and reads the scalars in straight-line code.
 *
 * <p>{@code LeafShapeTest} encodes documents that mostly keep one layout and sometimes break it
 * (fields moved, missing, null, unknown, of another type, out of range, flipped bytes; and one
 * document with each of its bytes changed in turn) with generated readers, with layouts read by the
 * loop, and by the walk: the bytes, the rejects with their paths and reasons, the unknown fields
 * and the de-dup counts are the same.
 *
 * <p>Immutable but for its {@link #reader}, which the encoder that learned it sets once.
 */
final class LeafShape {

  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /** The elements' BSON types. */
  final byte[] types;

  /**
   * The elements of the record's {@code _id} whose value has bytes to check (a string's UTF-8, a
   * bool's byte), which the layout masks out like any value.
   */
  final int[] checkedIds;

  /** Per element, its field's position in the table, or -1 for the record's {@code _id}. */
  final int[] fields;

  /** Nothing to read: the record's {@code _id}, or a null (the field is absent). */
  static final byte SKIP = 0;

  /** A string field's string. */
  static final byte STRING = 1;

  /** A bool: one byte, 0 or 1. */
  static final byte BOOL = 2;

  /** An int32 into an integer field, within {@link #min} and {@link #max}. */
  static final byte INT32 = 3;

  /** An int64 into an integer field, within {@link #min} and {@link #max}. */
  static final byte INT64 = 4;

  /** Eight bytes taken as they are: a double into a double, a date into a long. */
  static final byte BITS64 = 5;

  /** Anything else: {@link Scalars#convert}. */
  static final byte CONVERT = 6;

  /** Per element, how its value is read. */
  final byte[] ops;

  /** The elements that are {@link #STRING}s, in order. */
  final int[] strings;

  /**
   * The elements read into a scalar field (neither {@link #SKIP} nor {@link #STRING}), in order.
   */
  final int[] scalars;

  /** The fields written whatever their values: the strings, and scalars never left out. */
  final long always;

  /**
   * The reader generated for this layout ({@link LeafReaders}), which checks it and reads its
   * scalars; or null: {@link #match}, then a loop over the scalars.
   */
  LeafReader reader;

  /** {@link #scalars} that convert ({@link #CONVERT}), which a {@link #reader} leaves out. */
  final int[] converts;

  /**
   * Per element, the bit its field takes in the table's written fields, and, for a scalar left out
   * when it holds its default (not optional), that default's bits; {@link #omittable} says which.
   */
  final long[] bit;

  final long[] defaults;
  final boolean[] omittable;

  /**
   * Per element of {@link #INT32} or {@link #INT64}, the range of its field's kind ({@link
   * FieldKind#min()}, {@link FieldKind#max()}), which the readers check as {@link Scalars#inRange}
   * does.
   */
  final long[] min;

  final long[] max;

  /**
   * The sub-document as segments: each runs from the first element after a string's value (or from
   * the first element) up to the next string's value (or to the document's closing NUL, which it
   * includes). Its bytes are fixed but for the values in it, which its masks leave out.
   */
  private final int[] segmentLength;

  /** Per segment, where its words start in {@link #words}; one more entry for the end. */
  private final int[] wordStart;

  /** Segments' bytes as little-endian longs, with the masks of the bytes that count. */
  private final long[] words;

  private final long[] masks;

  /** Per element, its segment, and its value's place from the segment's start. */
  private final int[] segment;

  private final int[] valueOffset;

  private LeafShape(TablePlan t, byte[] types, int[] fields, Template template) {
    int n = types.length;
    this.types = types;
    this.fields = fields;
    this.checkedIds =
        elements(n, k -> fields[k] < 0 && (types[k] == Bson.STRING || types[k] == Bson.BOOLEAN));
    this.ops = new byte[n];
    this.bit = new long[n];
    this.defaults = new long[n];
    this.omittable = new boolean[n];
    this.min = new long[n];
    this.max = new long[n];
    long[] defaultBits = TableLayout.defaultBits(t);
    for (int k = 0; k < n; k++) {
      if (fields[k] >= 0 && types[k] != Bson.NULL) {
        readInto(k, t.fields().get(fields[k]), defaultBits[fields[k]]);
      }
    }
    this.strings = elements(n, k -> ops[k] == STRING);
    this.scalars = elements(n, k -> ops[k] != STRING && ops[k] != SKIP);
    this.converts = elements(n, k -> ops[k] == CONVERT);
    this.always = alwaysWritten(ops, bit, omittable);
    this.segment = template.segment;
    this.valueOffset = template.valueOffset;
    this.segmentLength = template.segmentLength;
    this.wordStart = template.wordStart;
    this.words = template.words;
    this.masks = template.masks;
  }

  /**
   * How element {@code k}, a value of field {@code f} (not null), is read: its op, its field's bit,
   * whether it is left out at its default and that default's bits, and an integer's range.
   */
  private void readInto(int k, FieldPlan f, long defaultBits) {
    ops[k] = op(f, types[k]);
    bit[k] = 1L << fields[k];
    omittable[k] = TableLayout.leftOutAtDefault(f);
    defaults[k] = defaultBits;
    if (ops[k] == INT32 || ops[k] == INT64) {
      min[k] = f.kind().min();
      max[k] = f.kind().max();
    }
  }

  /** The elements, of the {@code n}, that {@code which} takes, in order. */
  private static int[] elements(int n, IntPredicate which) {
    return IntStream.range(0, n).filter(which).toArray();
  }

  /** The fields written whatever their values: the strings, and scalars never left out. */
  private static long alwaysWritten(byte[] ops, long[] bit, boolean[] omittable) {
    long always = 0;
    for (int k = 0; k < ops.length; k++) {
      if (ops[k] == STRING || (ops[k] != SKIP && !omittable[k])) {
        always |= bit[k];
      }
    }
    return always;
  }

  /**
   * Whether every field of {@code t} is a scalar or a string, and there are at most 64: a table a
   * shape can describe.
   */
  static boolean isLeaf(TablePlan t) {
    if (t.struct() || t.fields().size() > 64) {
      return false;
    }
    for (FieldPlan f : t.fields()) {
      if (!f.kind().isScalar() && f.kind() != FieldKind.STRING) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether the sub-document {@code b[start, end)} (whose size was checked) is laid out as this
   * shape, its strings' lengths within it and NUL-terminated; if so, {@code segmentAt[g]} is where
   * segment g starts, and {@link #valueAt} says where each element's value does.
   */
  boolean match(byte[] b, int start, int end, int[] segmentAt) {
    int p = start + 4;
    int last = end - 1;
    int segments = segmentLength.length;
    for (int g = 0; g < segments; g++) {
      int from = wordStart[g];
      int to = wordStart[g + 1];
      int w = from;
      int q = p;
      int whole = Math.min(to, from + (b.length - p) / 8); // words that b holds in full
      for (; w < whole; w++, q += 8) {
        if (((long) LONG_LE.get(b, q) & masks[w]) != words[w]) {
          return false;
        }
      }
      for (; w < to; w++, q += 8) {
        if ((tail(b, q) & masks[w]) != words[w]) {
          return false;
        }
      }
      segmentAt[g] = p;
      p += segmentLength[g];
      if (g == segments - 1) {
        if (p != end) {
          return false;
        }
      } else {
        // a string's value follows
        if (p + 4 > last) {
          return false;
        }
        int bytes = Bson.int32(b, p);
        if (bytes < 1 || bytes > last - p - 4 || b[p + 3 + bytes] != 0) {
          return false;
        }
        p += 4 + bytes;
      }
    }
    return true;
  }

  /** The bytes from {@code q} to the end of {@code b} (fewer than 8) as a little-endian long. */
  private static long tail(byte[] b, int q) {
    long v = 0;
    for (int i = q; i < b.length; i++) {
      v |= (b[i] & 0xffL) << (8 * (i - q));
    }
    return v;
  }

  /**
   * Segment g's length, up to the string's value that follows it (or the closing NUL, included).
   */
  int segmentLength(int g) {
    return segmentLength[g];
  }

  /** Segment g's words: from this index of {@link #word} and {@link #mask}, up to g + 1's. */
  int wordStart(int g) {
    return wordStart[g];
  }

  /**
   * A segment's word: its bytes as a little-endian long, but for those {@link #mask} leaves out.
   */
  long word(int w) {
    return words[w];
  }

  /** The bytes of word w that the layout fixes. */
  long mask(int w) {
    return masks[w];
  }

  /** The segment element {@code k}'s value is in. */
  int segmentOf(int k) {
    return segment[k];
  }

  /** Where element {@code k}'s value starts from its segment's start. */
  int offsetOf(int k) {
    return valueOffset[k];
  }

  /** Where element {@code k}'s value starts (a string's at its length), after {@link #match}. */
  int valueAt(int k, int[] segmentAt) {
    return segmentAt[segment[k]] + valueOffset[k];
  }

  int segments() {
    return segmentLength.length;
  }

  int length() {
    return types.length;
  }

  /**
   * The layout of the sub-document {@code b[start, end)} of table {@code t}, which the general walk
   * has just accepted without an unknown field (but the record's {@code _id} when {@code root});
   * null when an element is of a type a shape does not describe, or converts to or from a string.
   */
  static LeafShape learn(TablePlan t, byte[] b, int start, int end, boolean root) {
    int n = elementCount(b, start, end);
    if (n < 0) {
      return null;
    }
    byte[] types = new byte[n];
    int[] fields = new int[n];
    Template template = new Template(n);
    int last = end - 1;
    int k = 0;
    for (int p = start + 4; p < last; k++) {
      byte type = b[p];
      int name = p + 1;
      int nameEnd = nul(b, name, last);
      int fi = t.lookup().find(b, name, nameEnd - name);
      if (fi < 0) {
        if (!(root && isId(b, name, nameEnd))) {
          return null;
        }
      } else if (stringConversion(t.fields().get(fi), type)) {
        return null; // a conversion to or from a string: the general walk's
      }
      types[k] = type;
      fields[k] = fi;
      int after = after(b, type, nameEnd + 1, last);
      template.element(k, b, p, nameEnd + 1, after, type == Bson.STRING);
      p = after;
    }
    template.close();
    return new LeafShape(t, types, fields, template);
  }

  /**
   * How many elements the sub-document {@code b[start, end)} has, or -1 if one is of a type a shape
   * does not describe or runs past the document.
   */
  private static int elementCount(byte[] b, int start, int end) {
    int last = end - 1;
    int n = 0;
    for (int p = start + 4; p < last; n++) {
      int nameEnd = nul(b, p + 1, last);
      int after = nameEnd < 0 ? -1 : after(b, b[p], nameEnd + 1, last);
      if (after < 0) {
        return -1;
      }
      p = after;
    }
    return n;
  }

  /**
   * Whether field {@code f} would take a value of BSON {@code type} by a conversion to or from a
   * string, which layouts leave to the general walk: any type but a string (null too) into a string
   * field, or a string into a field that is neither a string nor an enum.
   */
  private static boolean stringConversion(FieldPlan f, byte type) {
    return type == Bson.STRING
        ? !(f.kind() == FieldKind.STRING || f.enumIndex() >= 0)
        : f.kind() == FieldKind.STRING;
  }

  private static byte op(FieldPlan f, byte type) {
    FieldKind kind = f.kind();
    if (kind == FieldKind.STRING) {
      return STRING;
    }
    if (f.enumIndex() >= 0) {
      return CONVERT;
    }
    return switch (type) {
      case Bson.BOOLEAN -> kind == FieldKind.BOOL ? BOOL : CONVERT;
      case Bson.INT32 -> kind.isInteger() ? INT32 : CONVERT;
      case Bson.INT64 -> kind.isInteger() ? INT64 : CONVERT;
      case Bson.DOUBLE -> kind == FieldKind.DOUBLE ? BITS64 : CONVERT;
      case Bson.DATE_TIME -> kind == FieldKind.LONG ? BITS64 : CONVERT;
      default -> CONVERT;
    };
  }

  private static boolean isId(byte[] b, int name, int nameEnd) {
    return nameEnd - name == 3 && b[name] == '_' && b[name + 1] == 'i' && b[name + 2] == 'd';
  }

  private static int nul(byte[] b, int p, int last) {
    for (int i = p; i < last; i++) {
      if (b[i] == 0) {
        return i;
      }
    }
    return -1;
  }

  /** The end of a value of a type a shape describes, or -1. */
  private static int after(byte[] b, byte type, int value, int last) {
    int size =
        switch (type) {
          case Bson.STRING -> value + 4 <= last ? 4 + Bson.int32(b, value) : -1;
          case Bson.OBJECT_ID -> 12;
          case Bson.NULL -> 0;
          default -> Bson.scalarSize(type);
        };
    return size < 0 || size > last - value ? -1 : value + size;
  }

  /**
   * The bytes a layout fixes, learned from one sub-document: each element's type, name and NUL as
   * they are, its value masked out, cut into segments at each string's value, then packed into
   * little-endian words with their masks ({@link #words}, {@link #masks}).
   */
  private static final class Template {

    /** The sub-document's bytes but for its strings' values. */
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    /** Per byte of {@link #bytes}, 1 where the layout fixes it, 0 in a value. */
    private final ByteArrayOutputStream counted = new ByteArrayOutputStream();

    private final List<Integer> segmentLengths = new ArrayList<>();

    /** Where the current segment starts in {@link #bytes}. */
    private int segmentStart;

    final int[] segment;
    final int[] valueOffset;
    int[] segmentLength;
    int[] wordStart;
    long[] words;
    long[] masks;

    Template(int elements) {
      segment = new int[elements];
      valueOffset = new int[elements];
    }

    /**
     * Element {@code k}: its type, name and NUL, {@code b[p, value)}, count; its value, {@code
     * b[value, after)}, does not. A string's value, its length first, ends the segment: the next
     * one starts after it.
     */
    void element(int k, byte[] b, int p, int value, int after, boolean string) {
      bytes.write(b, p, value - p);
      counted.write(ones(value - p), 0, value - p);
      segment[k] = segmentLengths.size();
      valueOffset[k] = bytes.size() - segmentStart;
      if (string) {
        endSegment();
      } else {
        bytes.write(b, value, after - value);
        counted.write(new byte[after - value], 0, after - value);
      }
    }

    /** The document's closing NUL, which counts and ends the last segment; then the words. */
    void close() {
      bytes.write(0);
      counted.write(1);
      endSegment();
      pack();
    }

    private static byte[] ones(int n) {
      byte[] b = new byte[n];
      Arrays.fill(b, (byte) 1);
      return b;
    }

    private void endSegment() {
      segmentLengths.add(bytes.size() - segmentStart);
      segmentStart = bytes.size();
    }

    /** Each segment's bytes as words of 8, the last one short, with the bytes that count. */
    private void pack() {
      byte[] fixed = bytes.toByteArray();
      byte[] counts = counted.toByteArray();
      int segments = segmentLengths.size();
      segmentLength = new int[segments];
      wordStart = new int[segments + 1];
      int wordCount = 0;
      for (int g = 0; g < segments; g++) {
        segmentLength[g] = segmentLengths.get(g);
        wordCount += (segmentLength[g] + 7) / 8;
      }
      words = new long[wordCount];
      masks = new long[wordCount];
      int w = 0;
      int from = 0;
      for (int g = 0; g < segments; g++) {
        wordStart[g] = w;
        for (int i = 0; i < segmentLength[g]; i += 8, w++) {
          for (int j = 0; j < 8 && i + j < segmentLength[g]; j++) {
            if (counts[from + i + j] != 0) {
              words[w] |= (fixed[from + i + j] & 0xffL) << (8 * j);
              masks[w] |= 0xffL << (8 * j);
            }
          }
        }
        from += segmentLength[g];
      }
      wordStart[segments] = w;
    }
  }
}
