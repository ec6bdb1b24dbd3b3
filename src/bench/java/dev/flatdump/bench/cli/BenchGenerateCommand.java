package dev.flatdump.bench.cli;

import com.mongodb.MongoException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import dev.flatdump.FlatdumpException;
import dev.flatdump.bench.samples.ExtendedJsonFileWriter;
import dev.flatdump.bench.samples.OrgGenerator;
import dev.flatdump.bench.samples.Profile;
import dev.flatdump.bench.samples.SampleWriter;
import dev.flatdump.cli.MongoTarget;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.LongConsumer;
import org.bson.RawBsonDocument;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code flatdump-bench generate}: fills a collection (or an Extended JSON file) with deterministic
 * sample organizations from {@link OrgGenerator}. The work is done by {@link SampleWriter}; this
 * class only parses options, opens the target and reports progress.
 */
@Command(
    name = "generate",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Generates deterministic sample organizations.",
      "Inserts N organizations into a MongoDB collection, or writes them to an Extended JSON"
          + " lines file with --out. The same --profile and --seed always give the same documents"
          + " and _ids."
    })
public final class BenchGenerateCommand implements Callable<Integer> {

  private static final long PROGRESS_EVERY_NANOS = Duration.ofSeconds(5).toNanos();

  @Spec private CommandSpec spec;

  @Option(names = "--uri", paramLabel = "URI", description = "MongoDB connection string.")
  private String uri;

  @Option(names = "--db", paramLabel = "DB", description = "Database name.")
  private String db;

  @Option(names = "--collection", paramLabel = "NAME", description = "Collection name.")
  private String collection;

  @Option(
      names = "--out",
      paramLabel = "FILE",
      description =
          "Write relaxed Extended JSON, one document per line, to FILE (gzipped if its name"
              + " ends with .gz) instead of MongoDB.")
  private Path out;

  @Option(
      names = "--orgs",
      required = true,
      paramLabel = "N",
      description = "Organizations to generate.")
  private long orgs;

  @Option(
      names = "--profile",
      defaultValue = "realistic",
      paramLabel = "PROFILE",
      description = "article or realistic (default: ${DEFAULT-VALUE}).")
  private Profile profile;

  @Option(
      names = "--seed",
      defaultValue = "42",
      paramLabel = "S",
      description = "Random seed (default: ${DEFAULT-VALUE}).")
  private long seed;

  @Option(
      names = "--batch-size",
      defaultValue = "1000",
      paramLabel = "N",
      description = "Documents per insertMany (default: ${DEFAULT-VALUE}).")
  private int batchSize;

  @Option(names = "--drop", description = "Drop the collection first.")
  private boolean drop;

  @Override
  public Integer call() {
    validate();
    var generator = new OrgGenerator(profile, seed);
    long start = System.nanoTime();
    String target;
    if (out != null) {
      target = out.toString();
      try (var file = new ExtendedJsonFileWriter(out)) {
        new SampleWriter(batchSize, file::writeAll).write(generator, orgs, progress(start));
        file.finish();
      }
    } else {
      target = db + "." + collection;
      try (MongoClient client = MongoTarget.connect(uri)) {
        MongoCollection<RawBsonDocument> coll =
            client.getDatabase(db).getCollection(collection, RawBsonDocument.class);
        if (drop) {
          coll.drop();
        }
        new SampleWriter(batchSize, coll::insertMany).write(generator, orgs, progress(start));
      } catch (MongoException e) {
        throw new FlatdumpException("generating into " + target + " failed: " + e.getMessage(), e);
      }
    }
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    spec.commandLine()
        .getOut()
        .printf(
            "Generated %d organizations (profile %s, seed %d) into %s in %s (%d orgs/s)%n",
            orgs, profile.name().toLowerCase(), seed, target, format(took), rate(orgs, took));
    return 0;
  }

  private void validate() {
    if (orgs < 0) {
      throw new IllegalArgumentException("--orgs must be >= 0, got " + orgs);
    }
    if (batchSize < 1) {
      throw new IllegalArgumentException("--batch-size must be >= 1, got " + batchSize);
    }
    if (out != null) {
      if (uri != null || db != null || collection != null || drop) {
        throw new IllegalArgumentException(
            "--out writes a file: it can't be combined with --uri, --db, --collection or --drop");
      }
    } else if (uri == null || db == null || collection == null) {
      throw new IllegalArgumentException(
          "--uri, --db and --collection are required (or --out FILE)");
    }
  }

  private LongConsumer progress(long start) {
    PrintWriter err = spec.commandLine().getErr();
    long[] last = {start};
    return written -> {
      long now = System.nanoTime();
      if (now - last[0] >= PROGRESS_EVERY_NANOS && written < orgs) {
        last[0] = now;
        Duration elapsed = Duration.ofNanos(now - start);
        err.printf(
            "generate: %d/%d organizations (%d%%), %d orgs/s%n",
            written, orgs, written * 100 / orgs, rate(written, elapsed));
        err.flush();
      }
    };
  }

  private static long rate(long count, Duration elapsed) {
    return count * 1000 / Math.max(1, elapsed.toMillis());
  }

  private static String format(Duration d) {
    return d.toMinutes() > 0
        ? d.toMinutes() + "m " + d.toSecondsPart() + "s"
        : String.format("%.1fs", d.toMillis() / 1000.0);
  }
}
