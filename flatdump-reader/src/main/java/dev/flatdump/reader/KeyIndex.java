package dev.flatdump.reader;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Finds a record by its key in one mapped export: the shards whose range (the manifest's first and
 * last key) holds the key, then a binary search of each one's records vector, read in place. Keys
 * compare as the export orders them: strings by their UTF-8 bytes unsigned (shorter first on a
 * common prefix), integers by value (unsigned kinds unsigned). Nothing is allocated per lookup.
 * Immutable and thread-safe: the shard views are only read at absolute positions.
 */
final class KeyIndex {

  /** What {@link #find} returns when no record has the key. */
  static final long NOT_FOUND = -1;

  private final ExportManifest.Lookup lookup;
  private final ByteBuffer[] shards;
  private final int size;
  private final boolean unsigned;

  /** The shards that hold records, in order, and their ranges. */
  private final int[] keyed;

  private final ByteBuffer[] firstText;
  private final ByteBuffer[] lastText;
  private final long[] first;
  private final long[] last;

  /** Whether the ranges follow each other without overlap, so that one shard can hold a key. */
  private final boolean ordered;

  KeyIndex(ExportManifest manifest, ByteBuffer[] shards) {
    this.lookup = manifest.lookup();
    this.shards = shards;
    String type = lookup.keyType();
    this.size =
        switch (type) {
          case "byte", "ubyte" -> 1;
          case "short", "ushort" -> 2;
          case "int", "uint" -> 4;
          default -> 8;
        };
    this.unsigned = type.startsWith("u");
    List<ExportManifest.Shard> list = manifest.shards();
    this.keyed =
        java.util.stream.IntStream.range(0, list.size())
            .filter(i -> list.get(i).records() > 0)
            .toArray();
    int n = keyed.length;
    firstText = new ByteBuffer[n];
    lastText = new ByteBuffer[n];
    first = new long[n];
    last = new long[n];
    boolean inOrder = true;
    for (int k = 0; k < n; k++) {
      ExportManifest.Shard s = list.get(keyed[k]);
      if (lookup.stringKey()) {
        firstText[k] = utf8(s.firstKey());
        lastText[k] = utf8(s.lastKey());
        inOrder &= compareBytes(firstText[k], lastText[k]) <= 0;
        inOrder &= k == 0 || compareBytes(lastText[k - 1], firstText[k]) < 0;
      } else {
        first[k] = (Long) s.firstKey();
        last[k] = (Long) s.lastKey();
        inOrder &= compareLongs(first[k], last[k]) <= 0;
        inOrder &= k == 0 || compareLongs(last[k - 1], first[k]) < 0;
      }
    }
    this.ordered = inOrder;
  }

  private static ByteBuffer utf8(Object key) {
    return ByteBuffer.wrap(((String) key).getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Null when each shard's records vector holds the manifest's count of records and, when it holds
   * any, its first and last records have the manifest's {@code firstKey} and {@code lastKey}; else
   * what differs, naming the shard. A range that is not the shard's own would make lookups miss
   * records silently, whatever the checksums say (the manifest has none of its own).
   */
  String mismatch(List<ExportManifest.Shard> list) {
    for (int s = 0; s < shards.length; s++) {
      ExportManifest.Shard shard = list.get(s);
      ByteBuffer bb = shards[s];
      try {
        int field = field(bb, bb.getInt(0), lookup.recordsVoffset());
        int vector = field == 0 ? 0 : field + bb.getInt(field);
        long n = vector == 0 ? 0 : bb.getInt(vector) & 0xffff_ffffL;
        if (n != shard.records()) {
          return shard.name() + " holds " + n + " records, the manifest says " + shard.records();
        }
        if (n == 0) {
          continue;
        }
        Object first = key(bb, vector, 0);
        Object last = key(bb, vector, (int) n - 1);
        if (!first.equals(shard.firstKey()) || !last.equals(shard.lastKey())) {
          return shard.name()
              + "'s keys run from "
              + first
              + " to "
              + last
              + ", the manifest says from "
              + shard.firstKey()
              + " to "
              + shard.lastKey();
        }
      } catch (IndexOutOfBoundsException e) {
        return shard.name()
            + " is not a FlatBuffer of the manifest's lookup ("
            + lookup.recordsField()
            + "."
            + lookup.keyField()
            + "): "
            + e.getMessage();
      }
    }
    return null;
  }

  /** Record {@code i}'s key: its string, or its integer (the default when absent). */
  private Object key(ByteBuffer bb, int vector, int i) {
    int element = vector + 4 + 4 * i;
    int table = element + bb.getInt(element);
    int p = field(bb, table, lookup.keyVoffset());
    if (!lookup.stringKey()) {
      return p == 0 ? lookup.keyDefault() : integer(bb, p);
    }
    if (p == 0) {
      return "";
    }
    int string = p + bb.getInt(p);
    int length = bb.getInt(string);
    if (length < 0 || length > bb.limit() - string - 4) {
      throw new IndexOutOfBoundsException("a key string of " + length + " bytes at byte " + string);
    }
    byte[] bytes = new byte[length];
    bb.get(string + 4, bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  /** Shard {@code s}'s shared view. */
  ByteBuffer shard(int s) {
    return shards[s];
  }

  /** Whether the ranges are in order and disjoint (they are in every export flatdump writes). */
  boolean ordered() {
    return ordered;
  }

  /**
   * Where the record with string key {@code key} lies: its shard in the high 32 bits, its table's
   * position in the low; {@link #NOT_FOUND} when none has it.
   */
  long find(String key) {
    if (!lookup.stringKey()) {
      throw new IllegalArgumentException(
          "the records' key " + lookup.keyField() + " is an integer (" + lookup.keyType() + ")");
    }
    if (ordered) {
      int lo = 0;
      int hi = keyed.length - 1;
      while (lo <= hi) {
        int mid = (lo + hi) >>> 1;
        if (compare(key, lastText[mid], 0, lastText[mid].limit()) > 0) {
          lo = mid + 1;
        } else {
          hi = mid - 1;
        }
      }
      if (lo == keyed.length || compare(key, firstText[lo], 0, firstText[lo].limit()) < 0) {
        return NOT_FOUND;
      }
      return search(keyed[lo], key, 0);
    }
    for (int k = 0; k < keyed.length; k++) {
      if (compare(key, firstText[k], 0, firstText[k].limit()) >= 0
          && compare(key, lastText[k], 0, lastText[k].limit()) <= 0) {
        long at = search(keyed[k], key, 0);
        if (at != NOT_FOUND) {
          return at;
        }
      }
    }
    return NOT_FOUND;
  }

  /** Where the record with integer key {@code key} lies, as {@link #find(String)}. */
  long find(long key) {
    if (lookup.stringKey()) {
      throw new IllegalArgumentException(
          "the records' key " + lookup.keyField() + " is a string, not an integer");
    }
    if (ordered) {
      int lo = 0;
      int hi = keyed.length - 1;
      while (lo <= hi) {
        int mid = (lo + hi) >>> 1;
        if (compareLongs(key, last[mid]) > 0) {
          lo = mid + 1;
        } else {
          hi = mid - 1;
        }
      }
      if (lo == keyed.length || compareLongs(key, first[lo]) < 0) {
        return NOT_FOUND;
      }
      return search(keyed[lo], null, key);
    }
    for (int k = 0; k < keyed.length; k++) {
      if (compareLongs(key, first[k]) >= 0 && compareLongs(key, last[k]) <= 0) {
        long at = search(keyed[k], null, key);
        if (at != NOT_FOUND) {
          return at;
        }
      }
    }
    return NOT_FOUND;
  }

  /** Binary-searches shard {@code s}'s records for {@code text} (a string key) or {@code key}. */
  private long search(int s, String text, long key) {
    ByteBuffer bb = shards[s];
    int root = bb.getInt(0);
    int field = field(bb, root, lookup.recordsVoffset());
    if (field == 0) {
      return NOT_FOUND;
    }
    int vector = field + bb.getInt(field);
    int lo = 0;
    int hi = bb.getInt(vector) - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int element = vector + 4 + 4 * mid;
      int table = element + bb.getInt(element);
      int c = text != null ? compareStringKey(text, bb, table) : compareIntKey(key, bb, table);
      if (c == 0) {
        return (long) s << 32 | table;
      }
      if (c < 0) {
        hi = mid - 1;
      } else {
        lo = mid + 1;
      }
    }
    return NOT_FOUND;
  }

  private int compareStringKey(String text, ByteBuffer bb, int table) {
    int p = field(bb, table, lookup.keyVoffset());
    if (p == 0) {
      return 1; // a record without its key: before every key, as the export orders them
    }
    int string = p + bb.getInt(p);
    return compare(text, bb, string + 4, bb.getInt(string));
  }

  private int compareIntKey(long key, ByteBuffer bb, int table) {
    int p = field(bb, table, lookup.keyVoffset());
    long value = p == 0 ? lookup.keyDefault() : integer(bb, p);
    return compareLongs(key, value);
  }

  private long integer(ByteBuffer bb, int p) {
    return switch (size) {
      case 1 -> unsigned ? bb.get(p) & 0xffL : bb.get(p);
      case 2 -> unsigned ? bb.getShort(p) & 0xffffL : bb.getShort(p);
      case 4 -> unsigned ? bb.getInt(p) & 0xffff_ffffL : bb.getInt(p);
      default -> bb.getLong(p);
    };
  }

  private int compareLongs(long x, long y) {
    return unsigned ? Long.compareUnsigned(x, y) : Long.compare(x, y);
  }

  /** Where the field of vtable offset {@code voffset} lies in the table at {@code table}, or 0. */
  private static int field(ByteBuffer bb, int table, int voffset) {
    int vtable = table - bb.getInt(table);
    if (voffset >= (bb.getShort(vtable) & 0xffff)) {
      return 0;
    }
    int offset = bb.getShort(vtable + voffset) & 0xffff;
    return offset == 0 ? 0 : table + offset;
  }

  /**
   * Compares {@code key}'s UTF-8 bytes with {@code length} bytes of {@code bb} from {@code start},
   * unsigned, encoding the key as it goes (no array). A lone surrogate is encoded as its 3 bytes,
   * which no valid UTF-8 holds: such a key is never found.
   */
  static int compare(String key, ByteBuffer bb, int start, int length) {
    int j = 0;
    for (int i = 0; i < key.length(); ) {
      int cp = key.codePointAt(i);
      i += Character.charCount(cp);
      int n;
      int encoded;
      if (cp < 0x80) {
        n = 1;
        encoded = cp;
      } else if (cp < 0x800) {
        n = 2;
        encoded = (0xc0 | cp >> 6) << 8 | (0x80 | cp & 0x3f);
      } else if (cp < 0x10000) {
        n = 3;
        encoded = (0xe0 | cp >> 12) << 16 | (0x80 | cp >> 6 & 0x3f) << 8 | (0x80 | cp & 0x3f);
      } else {
        n = 4;
        encoded =
            (0xf0 | cp >> 18) << 24
                | (0x80 | cp >> 12 & 0x3f) << 16
                | (0x80 | cp >> 6 & 0x3f) << 8
                | (0x80 | cp & 0x3f);
      }
      for (int b = n - 1; b >= 0; b--) {
        if (j == length) {
          return 1;
        }
        int c = (encoded >>> (8 * b) & 0xff) - (bb.get(start + j) & 0xff);
        if (c != 0) {
          return c;
        }
        j++;
      }
    }
    return j == length ? 0 : -1;
  }

  private static int compareBytes(ByteBuffer a, ByteBuffer b) {
    return Arrays.compareUnsigned(a.array(), b.array());
  }
}
