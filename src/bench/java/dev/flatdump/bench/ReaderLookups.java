package dev.flatdump.bench;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import dev.flatdump.bench.ReaderReport.Loaded;
import dev.flatdump.bench.ReaderReport.Lookups;
import dev.flatdump.bench.samples.Org;
import dev.flatdump.reader.ExportReader;
import dev.flatdump.reader.Snapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.bson.Document;
import org.bson.types.ObjectId;

/**
 * The lookup rows of {@link ReaderBenchmark}: on one thread against a {@code HashMap} of the
 * decoded orgs and MongoDB, and on several threads while exports are published and reloaded. The
 * export is read as a service would: a snapshot per lookup, a {@link KeyedOrganization} per thread,
 * the record's name read. Not thread-safe.
 */
final class ReaderLookups {

  /** The single-thread rows' lookups come in this many turns per row. */
  private static final int BATCHES = 10;

  /** The rows with lookup threads run in this many turns each, of the phase's share. */
  private static final int BATCHES_UNDER_LOAD = 3;

  private final ReaderBenchmark.Settings s;
  private final Consumer<String> log;

  ReaderLookups(ReaderBenchmark.Settings settings, Consumer<String> log) {
    this.s = settings;
    this.log = log;
  }

  /**
   * One thread's lookups of present and absent keys in a {@code HashMap} and the export (and
   * MongoDB with a URI), each row after an unmeasured pass of every row.
   */
  List<Lookups> single(ExportReader reader, Map<String, Org> map, String[] keys) {
    String[] absent = new String[keys.length];
    for (int i = 0; i < keys.length; i++) {
      absent[i] = keys[i] + "0";
    }
    KeyedOrganization o = new KeyedOrganization();
    Snapshot.RecordAt<KeyedOrganization> at = o::__assign;
    LookupTimer.Lookup fromMap =
        key -> {
          Org org = map.get(key);
          return org == null ? -1 : org.name().length();
        };
    LookupTimer.Lookup fromExport = perRequest(reader);
    List<Lookups> rows = new ArrayList<>();
    try (Snapshot held = reader.snapshot()) {
      LookupTimer.Lookup fromHeld =
          key -> {
            KeyedOrganization r = held.lookup(key, at);
            return r == null ? -1 : r.name().length();
          };
      String[] names = {
        "HashMap<String, Org>.get, then name()",
        "export: snapshot() per lookup, lookup, name() (as a service would)",
        "export: one snapshot held, lookup, name()",
        "HashMap, absent keys",
        "export: snapshot() per lookup, absent keys"
      };
      LookupTimer.Lookup[] rowsLookups = {fromMap, fromExport, fromHeld, fromMap, fromExport};
      for (int row = 0; row < names.length; row++) {
        log.accept("warm-up: " + names[row]);
        LookupTimer.time(rowsLookups[row], row < 3 ? keys : absent, s.lookups(), 0);
      }
      // the rows take turns, a batch each, so that the machine's load weighs on all alike
      long[][] nanos = new long[names.length][s.lookups()];
      SplittableRandom random = new SplittableRandom(1);
      for (int batch = 0; batch < BATCHES; batch++) {
        int from = (int) ((long) s.lookups() * batch / BATCHES);
        int to = (int) ((long) s.lookups() * (batch + 1) / BATCHES);
        for (int row = 0; row < names.length; row++) {
          LookupTimer.sample(
              rowsLookups[row], row < 3 ? keys : absent, nanos[row], from, to - from, random);
        }
      }
      for (int row = 0; row < names.length; row++) {
        rows.add(new Lookups(names[row], Latencies.of(nanos[row])));
      }
    }
    if (s.uri() != null) {
      rows.add(mongo(map, keys));
    }
    return rows;
  }

  /** A service's lookup: a snapshot per request, its own generated object per thread. */
  static LookupTimer.Lookup perRequest(ExportReader reader) {
    KeyedOrganization o = new KeyedOrganization();
    Snapshot.RecordAt<KeyedOrganization> at = o::__assign;
    return key -> {
      try (Snapshot snapshot = reader.snapshot()) {
        KeyedOrganization r = snapshot.lookup(key, at);
        return r == null ? -1 : r.name().length();
      }
    };
  }

  private Lookups mongo(Map<String, Org> map, String[] keys) {
    try (MongoClient client = MongoClients.create(s.uri())) {
      MongoCollection<Document> coll = client.getDatabase(s.db()).getCollection(s.collection());
      for (int i = 0; i < keys.length; i += Math.max(1, keys.length / 100)) {
        Document d = coll.find(Filters.eq("_id", new ObjectId(keys[i]))).first();
        if (d == null || !map.get(keys[i]).name().equals(d.getString("name"))) {
          throw new IllegalStateException(
              s.db()
                  + "."
                  + s.collection()
                  + " lacks or differs at _id "
                  + keys[i]
                  + ": generate it with the same --profile, --orgs and --seed");
        }
      }
      LookupTimer.Lookup find =
          key -> {
            Document d = coll.find(Filters.eq("_id", new ObjectId(key))).first();
            return d == null ? -1 : d.getString("name").length();
          };
      int count = Math.min(s.lookups(), 20_000);
      log.accept("warm-up: MongoDB find({_id})");
      LookupTimer.time(find, keys, count, 0);
      log.accept("MongoDB find({_id})");
      return new Lookups(
          "MongoDB find({_id}).first() as Document, then name (" + count + " lookups)",
          LookupTimer.time(find, keys, count, 1));
    }
  }

  /** Lookups on several threads without reloads, then with publishes and reloads back to back. */
  List<Loaded> underLoad(
      KeyedOrgExport export, ExportReader checksums, ExportReader sizes, String[] keys)
      throws InterruptedException {
    String[] names = {
      "no reloads",
      "publish + reload() back to back, Verify.CHECKSUMS",
      "publish + reload() back to back, Verify.SIZES"
    };
    ExportReader[] readers = {checksums, checksums, sizes};
    List<List<LookupTimer.UnderLoad>> runs = new ArrayList<>();
    for (int row = 0; row < names.length; row++) {
      runs.add(new ArrayList<>());
    }
    long millis = Math.max(1, s.phaseMillis() / BATCHES_UNDER_LOAD);
    // the rows take turns, so that the machine's load weighs on all alike
    for (int round = 0; round < BATCHES_UNDER_LOAD; round++) {
      for (int row = 0; row < names.length; row++) {
        ExportReader reader = readers[row];
        log.accept("lookups on " + s.threads() + " threads, " + names[row]);
        runs.get(row)
            .add(
                LookupTimer.underLoad(
                    () -> perRequest(reader),
                    keys,
                    s.threads(),
                    millis,
                    row == 0
                        ? null
                        : () -> {
                          export.republish();
                          return reader.reload();
                        }));
      }
    }
    List<Loaded> rows = new ArrayList<>();
    for (int row = 0; row < names.length; row++) {
      LookupTimer.UnderLoad all = LookupTimer.UnderLoad.merge(runs.get(row));
      rows.add(
          new Loaded(
              names[row], Latencies.of(all.samples()), all.lookupsPerSecond(), all.background()));
    }
    return rows;
  }
}
