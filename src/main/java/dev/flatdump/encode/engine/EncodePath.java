package dev.flatdump.encode.engine;

/**
 * Where the walk is, as a stack of field names and element indexes, turned into text ({@code
 * a.b[2].c}) only when a document is rejected or an unknown field is counted. One per encoder; not
 * thread-safe.
 */
final class EncodePath {

  private String[] names = new String[16];
  private int[] indexes = new int[16];
  private int depth;

  void reset() {
    depth = 0;
  }

  /** Enters field {@code name}. */
  void push(String name) {
    grow();
    names[depth] = name;
    indexes[depth] = -1;
    depth++;
  }

  /** Enters element {@code index} of the vector entered last. */
  void pushIndex(int index) {
    grow();
    names[depth] = null;
    indexes[depth] = index;
    depth++;
  }

  /** Moves to element {@code index} of the vector entered last with {@link #pushIndex}. */
  void index(int index) {
    indexes[depth - 1] = index;
  }

  void pop() {
    depth--;
  }

  /** The path with {@code last} (a field name) appended. */
  String with(String last) {
    String here = toString();
    return here.isEmpty() ? last : here + "." + last;
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < depth; i++) {
      if (names[i] == null) {
        sb.append('[').append(indexes[i]).append(']');
      } else {
        if (sb.length() > 0) {
          sb.append('.');
        }
        sb.append(names[i]);
      }
    }
    return sb.toString();
  }

  RejectedRecord reject(String reason) {
    return new RejectedRecord(toString(), reason);
  }

  private void grow() {
    if (depth == names.length) {
      names = java.util.Arrays.copyOf(names, depth * 2);
      indexes = java.util.Arrays.copyOf(indexes, depth * 2);
    }
  }
}
