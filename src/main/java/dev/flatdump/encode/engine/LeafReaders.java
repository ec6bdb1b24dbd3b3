package dev.flatdump.encode.engine;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Generates a {@link LeafReader} for one {@link LeafShape}: straight-line bytecode, made with ASM
 * ({@code org.ow2.asm:asm}, the one dependency the engine has for it), that checks the layout word
 * by word, then reads each scalar from its place, checks it and stores it, with the layout's words,
 * masks, places, ranges, field indexes and defaults as constants. It does what {@link
 * LeafShape#match} and {@link RecordEncoder}'s loop over the shape do, without the loops, the
 * switch per element and the loads of the shape's arrays; that loop stays for the elements that
 * convert ({@link LeafShape#CONVERT}), {@link RecordEncoder} reads the strings, and {@link
 * LeafShape#match} checks a sub-document so near the end of its buffer that a word would reach past
 * it.
 *
 * <p>An encoder generates at most {@link RecordEncoder#MAX_READERS} readers; past them, layouts are
 * read by the loop, as are those {@link #of} makes no reader for: a layout whose reader would be
 * too long for the JIT to compile (many long field names), or whose type's 64th field is written.
 *
 * <p>Each reader is a hidden class of this package, unloaded with the last shape that uses it.
 */
final class LeafReaders {

  private static final String BSON = "dev/flatdump/encode/engine/Bson";
  private static final String READER = "dev/flatdump/encode/engine/LeafReader";
  private static final String SHAPE = "dev/flatdump/encode/engine/LeafShape";
  private static final String GENERATED = "dev/flatdump/encode/engine/GeneratedLeafReader";

  // read's locals
  private static final int B = 1;
  private static final int START = 2;
  private static final int END = 3;
  private static final int SEGMENT_AT = 4;
  private static final int BITS = 5;
  private static final int WRITTEN = 6; // a long: 6 and 7
  private static final int VALUE = 8; // a long: 8 and 9
  private static final int P = 10;
  private static final int LENGTH = 11;

  private LeafReaders() {}

  /**
   * The largest class file made into a reader. Its method's bytecode is smaller still, and so stays
   * within what the JIT compiles (HotSpot leaves methods of more than 8,000 bytes of bytecode to
   * the interpreter, where a reader would be slower than the loop it replaces).
   */
  static final int MAX_CLASS_BYTES = 8_000;

  /**
   * A reader of {@code shape}, or null: where it could not tell its answer from {@link
   * LeafReader#NO} (a type whose 64th field is written), or where its code would be too long to
   * compile ({@link #MAX_CLASS_BYTES}: a layout of many long names); the loop reads those.
   */
  static LeafReader of(LeafShape shape) {
    for (int k = 0; k < shape.ops.length; k++) {
      if (shape.bit[k] == Long.MIN_VALUE) {
        return null;
      }
    }
    byte[] bytes = generate(shape);
    if (bytes.length > MAX_CLASS_BYTES) {
      return null;
    }
    try {
      MethodHandles.Lookup lookup =
          MethodHandles.lookup()
              .defineHiddenClass(bytes, true, MethodHandles.Lookup.ClassOption.NESTMATE);
      return (LeafReader)
          lookup
              .findConstructor(
                  lookup.lookupClass(), MethodType.methodType(void.class, LeafShape.class))
              .invoke(shape);
    } catch (Throwable e) {
      throw new IllegalStateException("could not define a leaf reader", e);
    }
  }

  /** The class file of the reader. */
  static byte[] generate(LeafShape shape) {
    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS);
    cw.visit(
        Opcodes.V17,
        Opcodes.ACC_FINAL | Opcodes.ACC_SUPER,
        GENERATED,
        null,
        "java/lang/Object",
        new String[] {READER});
    shapeAndConstructor(cw);
    read(cw, shape);
    cw.visitEnd();
    return cw.toByteArray();
  }

  /**
   * The reader's field {@code shape}, whose {@link LeafShape#match} it calls near the end of a
   * buffer, and the constructor that sets it.
   */
  private static void shapeAndConstructor(ClassWriter cw) {
    cw.visitField(Opcodes.ACC_PRIVATE | Opcodes.ACC_FINAL, "shape", "L" + SHAPE + ";", null, null)
        .visitEnd();
    MethodVisitor init = cw.visitMethod(0, "<init>", "(L" + SHAPE + ";)V", null, null);
    init.visitCode();
    init.visitVarInsn(Opcodes.ALOAD, 0);
    init.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
    init.visitVarInsn(Opcodes.ALOAD, 0);
    init.visitVarInsn(Opcodes.ALOAD, 1);
    init.visitFieldInsn(Opcodes.PUTFIELD, GENERATED, "shape", "L" + SHAPE + ";");
    init.visitInsn(Opcodes.RETURN);
    init.visitMaxs(0, 0);
    init.visitEnd();
  }

  /**
   * {@link LeafReader#read}: the layout checked, by {@link LeafShape#match} where a word could
   * reach past the end of b and else unrolled ({@link #match}), then each scalar that does not
   * convert read ({@link #readScalar}), starting from the fields always written; {@link
   * LeafReader#NO} as soon as a check fails.
   */
  private static void read(ClassWriter cw, LeafShape shape) {
    // long read(byte[] b, int start, int end, int[] segmentAt, long[] bits)
    MethodVisitor m = cw.visitMethod(Opcodes.ACC_PUBLIC, "read", "([BII[I[J)J", null, null);
    m.visitCode();
    Label no = new Label();
    Label values = new Label();
    Label inline = new Label();
    matchNearTheEnd(m, inline, values, no);
    m.visitLabel(inline);
    match(m, shape, no);
    m.visitLabel(values);
    m.visitLdcInsn(shape.always);
    m.visitVarInsn(Opcodes.LSTORE, WRITTEN);
    for (int k : shape.scalars) {
      if (shape.ops[k] != LeafShape.CONVERT) { // RecordEncoder's loop converts the others
        readScalar(m, shape, k, no);
      }
    }
    m.visitVarInsn(Opcodes.LLOAD, WRITTEN);
    m.visitInsn(Opcodes.LRETURN);
    m.visitLabel(no);
    m.visitLdcInsn(LeafReader.NO);
    m.visitInsn(Opcodes.LRETURN);
    m.visitMaxs(0, 0);
    m.visitEnd();
  }

  /**
   * Near the end of b ({@code end + 7 > b.length}), where a word could reach past it, the shape's
   * own loop checks the layout: jumps to {@code values} if it matches and to {@code no} if not.
   * Elsewhere jumps to {@code inline}, the unrolled check.
   */
  private static void matchNearTheEnd(MethodVisitor m, Label inline, Label values, Label no) {
    m.visitVarInsn(Opcodes.ILOAD, END);
    m.visitLdcInsn(7);
    m.visitInsn(Opcodes.IADD);
    m.visitVarInsn(Opcodes.ALOAD, B);
    m.visitInsn(Opcodes.ARRAYLENGTH);
    m.visitJumpInsn(Opcodes.IF_ICMPLE, inline);
    m.visitVarInsn(Opcodes.ALOAD, 0);
    m.visitFieldInsn(Opcodes.GETFIELD, GENERATED, "shape", "L" + SHAPE + ";");
    m.visitVarInsn(Opcodes.ALOAD, B);
    m.visitVarInsn(Opcodes.ILOAD, START);
    m.visitVarInsn(Opcodes.ILOAD, END);
    m.visitVarInsn(Opcodes.ALOAD, SEGMENT_AT);
    m.visitMethodInsn(Opcodes.INVOKEVIRTUAL, SHAPE, "match", "([BII[I)Z", false);
    m.visitJumpInsn(Opcodes.IFEQ, no);
    m.visitJumpInsn(Opcodes.GOTO, values);
  }

  /**
   * Scalar element {@code k} (a bool, an integer or 64 bits taken as they are): read from its
   * place, checked as {@link RecordEncoder}'s loop checks it (jumping to {@code no} if it fails),
   * stored in {@code bits[field]}, and its field added to those written unless it is left out at
   * its default and holds it.
   */
  private static void readScalar(MethodVisitor m, LeafShape shape, int k, Label no) {
    byte op = shape.ops[k];
    pushValue(m, shape, k, op);
    m.visitVarInsn(Opcodes.LSTORE, VALUE);
    checkValue(m, shape, k, op, no);
    // bits[field] = value
    m.visitVarInsn(Opcodes.ALOAD, BITS);
    m.visitLdcInsn(shape.fields[k]);
    m.visitVarInsn(Opcodes.LLOAD, VALUE);
    m.visitInsn(Opcodes.LASTORE);
    if (shape.omittable[k]) {
      writtenUnlessDefault(m, shape.defaults[k], shape.bit[k]);
    }
  }

  /**
   * Jumps to {@code no} unless the value read fits its field: a bool 0 or 1, an integer within its
   * field's range; 64 bits taken as they are always fit.
   */
  private static void checkValue(MethodVisitor m, LeafShape shape, int k, byte op, Label no) {
    if (op == LeafShape.BOOL) {
      m.visitVarInsn(Opcodes.LLOAD, VALUE);
      m.visitLdcInsn(~1L);
      m.visitInsn(Opcodes.LAND);
      m.visitInsn(Opcodes.LCONST_0);
      m.visitInsn(Opcodes.LCMP);
      m.visitJumpInsn(Opcodes.IFNE, no);
    } else if (op == LeafShape.INT32 || op == LeafShape.INT64) {
      compareValue(m, shape.min[k], Opcodes.IFLT, no);
      compareValue(m, shape.max[k], Opcodes.IFGT, no);
    }
  }

  /** Adds {@code bit} to the fields written unless the value read is {@code defaultBits}. */
  private static void writtenUnlessDefault(MethodVisitor m, long defaultBits, long bit) {
    Label same = new Label();
    compareValue(m, defaultBits, Opcodes.IFEQ, same);
    m.visitVarInsn(Opcodes.LLOAD, WRITTEN);
    m.visitLdcInsn(bit);
    m.visitInsn(Opcodes.LOR);
    m.visitVarInsn(Opcodes.LSTORE, WRITTEN);
    m.visitLabel(same);
  }

  /** Pushes the value of scalar element {@code k} as a long, read from where it stands. */
  private static void pushValue(MethodVisitor m, LeafShape shape, int k, byte op) {
    // where the value is: segmentAt[segment] + offset
    m.visitVarInsn(Opcodes.ALOAD, B);
    m.visitVarInsn(Opcodes.ALOAD, SEGMENT_AT);
    m.visitLdcInsn(shape.segmentOf(k));
    m.visitInsn(Opcodes.IALOAD);
    m.visitLdcInsn(shape.offsetOf(k));
    m.visitInsn(Opcodes.IADD);
    switch (op) {
      case LeafShape.BOOL -> {
        m.visitInsn(Opcodes.BALOAD);
        m.visitInsn(Opcodes.I2L);
      }
      case LeafShape.INT32 -> {
        m.visitMethodInsn(Opcodes.INVOKESTATIC, BSON, "int32", "([BI)I", false);
        m.visitInsn(Opcodes.I2L);
      }
      case LeafShape.INT64, LeafShape.BITS64 ->
          m.visitMethodInsn(Opcodes.INVOKESTATIC, BSON, "int64", "([BI)J", false);
      default -> throw new IllegalArgumentException("op " + op);
    }
  }

  /**
   * Compares the value read with {@code constant}, and jumps to {@code to} as {@code jump} says.
   */
  private static void compareValue(MethodVisitor m, long constant, int jump, Label to) {
    m.visitVarInsn(Opcodes.LLOAD, VALUE);
    m.visitLdcInsn(constant);
    m.visitInsn(Opcodes.LCMP);
    m.visitJumpInsn(jump, to);
  }

  /**
   * {@link LeafShape#match} for {@code shape}, unrolled, where every word it reads lies within b
   * ({@code end + 7 <= b.length}): each segment is first checked to fit before its end, then its
   * words compared with the layout's, then the string that follows it checked. Jumps to {@code no}
   * where the sub-document is not in the layout; falls through with {@code segmentAt} filled.
   */
  private static void match(MethodVisitor m, LeafShape shape, Label no) {
    // p = start + 4
    m.visitVarInsn(Opcodes.ILOAD, START);
    m.visitInsn(Opcodes.ICONST_4);
    m.visitInsn(Opcodes.IADD);
    m.visitVarInsn(Opcodes.ISTORE, P);
    int segments = shape.segments();
    for (int g = 0; g < segments; g++) {
      boolean last = g == segments - 1;
      int length = shape.segmentLength(g);
      // the segment, and for all but the last the 4 bytes of a string's length and its NUL, must
      // fit: p + length == end for the last, p + length + 4 <= end - 1 for the others
      m.visitVarInsn(Opcodes.ILOAD, P);
      m.visitLdcInsn(last ? length : length + 5);
      m.visitInsn(Opcodes.IADD);
      m.visitVarInsn(Opcodes.ILOAD, END);
      m.visitJumpInsn(last ? Opcodes.IF_ICMPNE : Opcodes.IF_ICMPGT, no);
      // each word, its fixed bytes
      for (int w = shape.wordStart(g), q = 0; w < shape.wordStart(g + 1); w++, q += 8) {
        m.visitVarInsn(Opcodes.ALOAD, B);
        m.visitVarInsn(Opcodes.ILOAD, P);
        if (q != 0) {
          m.visitLdcInsn(q);
          m.visitInsn(Opcodes.IADD);
        }
        m.visitMethodInsn(Opcodes.INVOKESTATIC, BSON, "int64", "([BI)J", false);
        if (shape.mask(w) != -1L) {
          m.visitLdcInsn(shape.mask(w));
          m.visitInsn(Opcodes.LAND);
        }
        m.visitLdcInsn(shape.word(w));
        m.visitInsn(Opcodes.LCMP);
        m.visitJumpInsn(Opcodes.IFNE, no);
      }
      // segmentAt[g] = p; p += length
      m.visitVarInsn(Opcodes.ALOAD, SEGMENT_AT);
      m.visitLdcInsn(g);
      m.visitVarInsn(Opcodes.ILOAD, P);
      m.visitInsn(Opcodes.IASTORE);
      m.visitIincInsn(P, length);
      if (!last) {
        skipString(m, no);
      }
    }
  }

  /**
   * Checks the string's value at p, which follows every segment but the last, and steps past it:
   * {@code bytes = int32(b, p)}, {@code 1 <= bytes <= end - 1 - p - 4} and {@code b[p + 3 + bytes]
   * == 0}, else jumps to {@code no}; then {@code p += 4 + bytes}.
   */
  private static void skipString(MethodVisitor m, Label no) {
    m.visitVarInsn(Opcodes.ALOAD, B);
    m.visitVarInsn(Opcodes.ILOAD, P);
    m.visitMethodInsn(Opcodes.INVOKESTATIC, BSON, "int32", "([BI)I", false);
    m.visitInsn(Opcodes.DUP);
    m.visitVarInsn(Opcodes.ISTORE, LENGTH);
    m.visitJumpInsn(Opcodes.IFLE, no);
    m.visitVarInsn(Opcodes.ILOAD, LENGTH);
    m.visitVarInsn(Opcodes.ILOAD, END);
    m.visitVarInsn(Opcodes.ILOAD, P);
    m.visitInsn(Opcodes.ISUB);
    m.visitLdcInsn(5);
    m.visitInsn(Opcodes.ISUB);
    m.visitJumpInsn(Opcodes.IF_ICMPGT, no);
    m.visitVarInsn(Opcodes.ALOAD, B);
    pushPastString(m, 3);
    m.visitInsn(Opcodes.BALOAD);
    m.visitJumpInsn(Opcodes.IFNE, no);
    pushPastString(m, 4);
    m.visitVarInsn(Opcodes.ISTORE, P);
  }

  /** Pushes p + {@code plus} + the string's length in bytes (its NUL included). */
  private static void pushPastString(MethodVisitor m, int plus) {
    m.visitVarInsn(Opcodes.ILOAD, P);
    m.visitLdcInsn(plus);
    m.visitInsn(Opcodes.IADD);
    m.visitVarInsn(Opcodes.ILOAD, LENGTH);
    m.visitInsn(Opcodes.IADD);
  }
}
