package dev.flatdump.artifact.check;

import dev.flatdump.artifact.check.ExpectedRecords.NotFit;
import dev.flatdump.encode.Reject;
import dev.flatdump.encode.plan.FieldPlan;
import dev.flatdump.encode.plan.SchemaPlan;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import org.bson.BsonDocument;
import org.bson.BsonValue;

/**
 * Compares an export with its source, record by record and field by field, independently of the
 * export's own decoder: the source documents are decoded by the driver ({@link BsonDocument}),
 * mapped by the rules of {@code docs/mapping.md} into the values a record must hold, or the reason
 * it cannot be one ({@link ExpectedRecords}), and compared with the records read back from the
 * shards through the binary schema alone ({@link ReflectedRecords}). This class walks the three in
 * step and reports the differences: a document the rules refuse must be the next line of {@code
 * rejects.jsonl} ({@link RejectsReader}); every other must be the next record; nothing may be left
 * over on either side.
 *
 * <p>Values compare as a reader sees them: a scalar left out reads as its default, so it equals the
 * default given; floating-point values compare by their bits ({@code -0.0} and NaN payloads
 * included); enums by their number. Not thread-safe.
 */
public final class SchemaExportVerifier {

  /**
   * @param compared documents compared
   * @param differences the first differences found, each naming the document and the field
   * @param totalDifferences how many differences there were in all
   */
  public record Result(long compared, List<String> differences, long totalDifferences) {
    public Result {
      differences = List.copyOf(differences);
    }

    public boolean clean() {
      return totalDifferences == 0;
    }
  }

  /**
   * A floating-point value by its bits, as a field holds it: the form both sides give a float or
   * double in, so that values compare by their bits.
   */
  record Real(long bits) {
    @Override
    public String toString() {
      return Double.longBitsToDouble(bits) + " (0x" + Long.toHexString(bits) + ")";
    }
  }

  private final ExpectedRecords expected;
  private final ReflectedRecords reflected;

  /** The records' {@code (key)}, or null. */
  private final FieldPlan key;

  /** Whether the key is another field than {@code _id}'s: each shard is then sorted by it. */
  private final boolean sorted;

  private final int maxDifferences;
  private final List<String> differences = new ArrayList<>();
  private long total;

  /**
   * @param plan the export's schema, by which the source documents are mapped
   * @param binarySchema the export's {@code .bfbs}, through which alone the records are read back
   */
  public SchemaExportVerifier(
      SchemaPlan plan, ByteBuffer binarySchema, boolean strict, int maxDifferences) {
    this.expected = new ExpectedRecords(plan, strict);
    this.reflected = new ReflectedRecords(binarySchema);
    this.key = plan.record().key();
    this.sorted = key != null && !key.bsonName().equals("_id");
    this.maxDifferences = maxDifferences;
  }

  /**
   * @param source the source's documents in {@code _id} order (same query as the export), decoded
   *     by the driver
   * @param artifact the export's shards, in order
   * @param rejects the export's {@code rejects.jsonl}
   */
  public Result verify(
      Iterator<? extends BsonDocument> source, List<? extends ByteBuffer> artifact, Path rejects) {
    differences.clear();
    total = 0;
    long compared = 0;
    Records records = new Records(artifact);
    List<Pending> pending = new ArrayList<>(); // a sorted shard's documents, until it is complete
    Object previousKey = null; // the last record's key
    boolean atShardStart = false; // whether that record ended its shard
    long index = 0;
    try (RejectsReader rejected = new RejectsReader(rejects)) {
      while (source.hasNext()) {
        BsonDocument doc = source.next();
        compared++;
        BsonValue id = ExpectedRecords.idOrNull(doc);
        Map<String, Object> values;
        try {
          values = expected.record(doc);
        } catch (NotFit e) {
          expectRejected(id, e.getMessage(), rejected.nextLine());
          continue;
        }
        if (sorted) {
          // the shard holds its documents sorted by the key: compare once it is complete
          pending.add(new Pending(id, values));
          if (records.hasNext() && pending.size() >= records.remainingInShard()) {
            index = flush(pending, records, index);
          }
          continue;
        }
        if (key != null
            && previousKey != null
            && compareKeys(key, previousKey, values.get(key.name())) >= 0
            && !(atShardStart && records.hasNext() && values.equals(records.peek()))) {
          // mapping.md: a record not after the shard's last in the order of the records' key; at
          // a shard's start it may open the shard (a shard cut for its size, or another
          // partition's first), which the next record says
          expectRejected(id, "_id: out of the order of the records' key", rejected.nextLine());
          continue;
        }
        if (!records.hasNext()) {
          difference(
              "_id "
                  + Reject.idToJson(id)
                  + ": in MongoDB but missing from the artifact (it has only "
                  + index
                  + " records)");
          continue;
        }
        compare(
            "_id " + Reject.idToJson(id) + " (record " + index++ + ")", "", values, records.next());
        // the next record may open a new shard: a document out of order then either is that
        // record (the shard was cut, or another partition begins) or was rejected (the shard
        // this one ends stayed open in its partition while documents after it were refused)
        atShardStart = records.lastOfShard();
        previousKey = key == null ? null : values.get(key.name());
      }
      index = flush(pending, records, index);
      long extra = 0;
      while (records.hasNext()) {
        records.next();
        extra++;
      }
      if (extra > 0) {
        difference("the artifact has " + extra + " records more than MongoDB returns");
      }
      if (rejected.nextLine() != null) {
        difference("rejects.jsonl has lines for documents that fit the schema");
      }
    }
    return new Result(compared, differences, total);
  }

  /** A document of a shard sorted by its key, waiting for the shard's others. */
  private record Pending(BsonValue id, Map<String, Object> values) {}

  /**
   * Compares the documents of a shard sorted by the key, sorted as the export sorts them (stably),
   * with the shard's records; returns the next record's index.
   */
  private long flush(List<Pending> pending, Records records, long index) {
    pending.sort(
        (a, b) -> compareKeys(key, a.values().get(key.name()), b.values().get(key.name())));
    for (Pending p : pending) {
      if (!records.hasNext()) {
        difference(
            "_id "
                + Reject.idToJson(p.id())
                + ": in MongoDB but missing from the artifact (it has only "
                + index
                + " records)");
        continue;
      }
      compare(
          "_id " + Reject.idToJson(p.id()) + " (record " + index++ + ")",
          "",
          p.values(),
          records.next());
    }
    pending.clear();
    return index;
  }

  /**
   * A document the rules refuse, for {@code why}: {@code line}, the next line of {@code
   * rejects.jsonl} (null after the last), must be its reject.
   */
  private void expectRejected(BsonValue id, String why, String line) {
    BsonValue rejectedId = line == null ? null : RejectsReader.idOf(line);
    if (line == null || !RejectsReader.sameId(rejectedId, id)) {
      difference(
          "_id "
              + Reject.idToJson(id)
              + ": does not fit the schema ("
              + why
              + ") but is not the next line of rejects.jsonl"
              + (line == null ? "" : " (found _id " + Reject.idToJson(rejectedId) + ")"));
    }
  }

  private void compare(String where, String path, Object expected, Object actual) {
    if (expected instanceof Map<?, ?> e && actual instanceof Map<?, ?> a) {
      Set<Object> keys = new HashSet<>(e.keySet());
      keys.addAll(a.keySet());
      for (Object k : keys) {
        compare(where, path.isEmpty() ? k.toString() : path + "." + k, e.get(k), a.get(k));
      }
    } else if (expected instanceof List<?> e && actual instanceof List<?> a) {
      if (e.size() != a.size()) {
        difference(where + ": " + path + " has " + a.size() + " elements, MongoDB " + e.size());
        return;
      }
      for (int i = 0; i < e.size(); i++) {
        compare(where, path + "[" + i + "]", e.get(i), a.get(i));
      }
    } else if (!Objects.equals(expected, actual)) {
      difference(
          where + ": " + path + " is " + actual + " in the artifact, " + expected + " in MongoDB");
    }
  }

  private void difference(String text) {
    total++;
    if (differences.size() < maxDifferences) {
      differences.add(text);
    }
  }

  // ---- the artifact side: records read back through the binary schema alone --------------------

  /** Two keys of the records' {@code (key)}: strings by their UTF-8 bytes, integers by value. */
  private static int compareKeys(FieldPlan key, Object a, Object b) {
    if (a instanceof String x && b instanceof String y) {
      return java.util.Arrays.compareUnsigned(
          x.getBytes(java.nio.charset.StandardCharsets.UTF_8),
          y.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    // an integer key a document leaves out is the field's default in its record
    long x = a == null ? key.defaultInteger() : ((Number) a).longValue();
    long y = b == null ? key.defaultInteger() : ((Number) b).longValue();
    return key.kind() == dev.flatdump.encode.plan.FieldKind.ULONG
        ? Long.compareUnsigned(x, y)
        : Long.compare(x, y);
  }

  /** The records of the shards in order, saying which one ends its shard. */
  private final class Records implements Iterator<Map<String, Object>> {
    private final List<? extends ByteBuffer> shards;
    private int shard;
    private int index;

    Records(List<? extends ByteBuffer> shards) {
      this.shards = shards;
    }

    @Override
    public boolean hasNext() {
      while (shard < shards.size() && index >= reflected.count(shards.get(shard))) {
        shard++;
        index = 0;
      }
      return shard < shards.size();
    }

    /** The record {@link #next} returns next, read once. */
    private Map<String, Object> peeked;

    @Override
    public Map<String, Object> next() {
      Map<String, Object> r = peek();
      peeked = null;
      index++;
      return r;
    }

    /** The record {@link #next} will return, without moving on. */
    Map<String, Object> peek() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      if (peeked == null) {
        peeked = reflected.record(shards.get(shard), index);
      }
      return peeked;
    }

    /** The records left in the shard of the next one ({@link #hasNext} first). */
    int remainingInShard() {
      return reflected.count(shards.get(shard)) - index;
    }

    /** Whether the record {@link #next} returned last is the last of its shard. */
    boolean lastOfShard() {
      return index >= reflected.count(shards.get(shard));
    }
  }
}
