package dev.flatdump.artifact;

import dev.flatdump.Attr;
import dev.flatdump.Org;
import dev.flatdump.source.SourceRecord;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import org.bson.BsonValue;

/**
 * Compares an export with its source, record by record and field by field: every document the
 * source decodes must be the next organization of the artifact, every document it rejects must be
 * the next line of {@code rejects.jsonl}, and nothing may be left over on either side.
 *
 * <p>Both sides are streamed in {@code _id} order; nothing is held but the differences, of which it
 * keeps the first {@code maxDifferences}. Not thread-safe.
 */
public final class ExportVerifier {

  /**
   * @param compared documents compared
   * @param differences the first differences found, each naming the document and the field
   * @param totalDifferences how many differences there were in all
   */
  public record Result(long compared, List<String> differences, long totalDifferences) {
    public boolean clean() {
      return totalDifferences == 0;
    }
  }

  private final int maxDifferences;
  private final List<String> differences = new ArrayList<>();
  private long total;

  public ExportVerifier(int maxDifferences) {
    this.maxDifferences = maxDifferences;
  }

  /**
   * @param source the source's records in {@code _id} order (same query as the export)
   * @param artifact the exported organizations in order
   * @param rejects the export's {@code rejects.jsonl}
   */
  public Result verify(Iterator<SourceRecord> source, Iterator<Org> artifact, Path rejects) {
    differences.clear();
    total = 0;
    long compared = 0;
    long exportedIndex = 0;
    try (BufferedReader rejected = Files.newBufferedReader(rejects, StandardCharsets.UTF_8)) {
      while (source.hasNext()) {
        SourceRecord r = source.next();
        compared++;
        if (r instanceof SourceRecord.Accepted a) {
          if (!artifact.hasNext()) {
            difference(
                "_id "
                    + a.id()
                    + ": in MongoDB but missing from the artifact (it has only "
                    + exportedIndex
                    + " organizations)");
            continue;
          }
          diff(a.id(), exportedIndex++, a.org(), artifact.next());
        } else if (r instanceof SourceRecord.Rejected j) {
          String line = rejected.readLine();
          BsonValue id = line == null ? null : SchemaExportVerifier.idOf(line);
          if (line == null || !Objects.equals(id, j.id())) {
            difference(
                "_id "
                    + j.id()
                    + ": rejected ("
                    + j.reject().field()
                    + ": "
                    + j.reject().reason()
                    + ") but not the next line of rejects.jsonl"
                    + (line == null ? "" : " (found _id " + id + ")"));
          }
        }
      }
      if (artifact.hasNext()) {
        long extra = 0;
        while (artifact.hasNext()) {
          artifact.next();
          extra++;
        }
        difference("the artifact has " + extra + " organizations more than MongoDB returns");
      }
      if (rejected.readLine() != null) {
        difference("rejects.jsonl has lines for documents MongoDB no longer rejects");
      }
    } catch (IOException e) {
      throw new ArtifactException("cannot read " + rejects + ": " + e.getMessage(), e);
    }
    return new Result(compared, List.copyOf(differences), total);
  }

  private void diff(BsonValue id, long index, Org expected, Org actual) {
    String where = "_id " + id + " (record " + index + ")";
    field(where, "name", expected.name(), actual.name());
    field(where, "category", expected.category(), actual.category());
    field(where, "country", expected.country(), actual.country());
    field(where, "type", expected.type(), actual.type());
    List<Attr> e = expected.attributes();
    List<Attr> a = actual.attributes();
    if (e.size() != a.size()) {
      difference(where + ": attributes has " + a.size() + " entries, MongoDB has " + e.size());
      return;
    }
    for (int i = 0; i < e.size(); i++) {
      String p = "attributes[" + i + "].";
      Attr x = e.get(i);
      Attr y = a.get(i);
      field(where, p + "id", x.id(), y.id());
      field(where, p + "quantity", x.quantity(), y.quantity());
      field(where, p + "amount", x.amount(), y.amount());
      field(where, p + "size", x.size(), y.size());
      long xb = Double.doubleToRawLongBits(x.percent());
      long yb = Double.doubleToRawLongBits(y.percent());
      if (xb != yb) { // by bits: NaN must stay NaN, -0.0 must stay -0.0
        difference(
            where
                + ": "
                + p
                + "percent is "
                + y.percent()
                + " (0x"
                + Long.toHexString(yb)
                + ") in the artifact, "
                + x.percent()
                + " (0x"
                + Long.toHexString(xb)
                + ") in MongoDB");
      }
      field(where, p + "active", x.active(), y.active());
    }
  }

  private void field(String where, String name, Object expected, Object actual) {
    if (!Objects.equals(expected, actual)) {
      difference(
          where + ": " + name + " is " + actual + " in the artifact, " + expected + " in MongoDB");
    }
  }

  private void difference(String text) {
    total++;
    if (differences.size() < maxDifferences) {
      differences.add(text);
    }
  }
}
