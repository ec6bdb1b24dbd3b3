package dev.flatdump.cli;

import com.mongodb.MongoException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import dev.flatdump.FlatdumpException;
import dev.flatdump.load.ExtendedJsonLoader;
import dev.flatdump.load.LoadSummary;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.bson.RawBsonDocument;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code flatdump load}: imports an Extended JSON lines file into a collection, documents as they
 * are. The work is done by {@link ExtendedJsonLoader}; this class only parses options, opens the
 * collection and reports. Exits 1 when any line was bad, after loading all the good ones.
 */
@Command(
    name = "load",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Imports an Extended JSON lines file into a collection.",
      "Inserts MongoDB Extended JSON, one document per line (FILE may be gzipped), into the"
          + " collection as is, without schema validation. Blank lines are skipped. Lines that"
          + " are not JSON are reported as FILE:LINE: reason; the rest is still loaded, and the"
          + " command then exits 1."
    })
public final class LoadCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;

  @Parameters(index = "0", paramLabel = "FILE", description = "The .jsonl or .jsonl.gz file.")
  private Path file;

  @Mixin private MongoTarget mongo;

  @Option(names = "--drop", description = "Drop the collection first.")
  private boolean drop;

  @Option(
      names = "--batch-size",
      defaultValue = "1000",
      paramLabel = "N",
      description = "Documents per insertMany (default: ${DEFAULT-VALUE}).")
  private int batchSize;

  @Override
  public Integer call() {
    mongo.requireComplete();
    if (batchSize < 1) {
      throw new IllegalArgumentException("--batch-size must be >= 1, got " + batchSize);
    }
    PrintWriter err = spec.commandLine().getErr();
    String target = mongo.namespace();
    LoadSummary summary;
    try (MongoClient client = mongo.connect()) {
      MongoCollection<RawBsonDocument> coll =
          client.getDatabase(mongo.db).getCollection(mongo.collection, RawBsonDocument.class);
      if (drop) {
        coll.drop();
      }
      var loader =
          new ExtendedJsonLoader(
              batchSize,
              coll::insertMany,
              error -> {
                err.println(error);
                err.flush();
              });
      summary = loader.load(file);
    } catch (MongoException e) {
      throw new FlatdumpException(
          "loading " + file + " into " + target + " failed: " + e.getMessage(), e);
    }
    if (summary.ok()) {
      spec.commandLine()
          .getOut()
          .printf("Loaded %d documents from %s into %s%n", summary.loaded(), file, target);
      return 0;
    }
    err.printf(
        "flatdump: loaded %d documents from %s into %s; %d bad lines left out%n",
        summary.loaded(), file, target, summary.bad());
    return Flatdump.EXIT_FAILED;
  }
}
