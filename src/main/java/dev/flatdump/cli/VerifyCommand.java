package dev.flatdump.cli;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCursor;
import dev.flatdump.artifact.Manifest;
import dev.flatdump.artifact.OutputLayout;
import dev.flatdump.artifact.check.SchemaExportVerifier;
import dev.flatdump.artifact.read.SchemaArtifact;
import dev.flatdump.artifact.write.RejectsWriter;
import dev.flatdump.source.IdOrderedFind;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.bson.BsonDocument;
import org.bson.RawBsonDocument;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code flatdump verify}: compares every exported document with MongoDB, field by field. Exit 0
 * when they agree, 1 on any difference.
 */
@Command(
    name = "verify",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Compares an export with its collection, document by document.",
      "Reads the collection again (with the export's query, in _id order) and compares every"
          + " document with the artifact field by field, and every rejected one with"
          + " rejects.jsonl. Exits 1 on any difference."
    })
public final class VerifyCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;

  @Mixin private MongoTarget mongo;

  @Option(
      names = "--max-differences",
      defaultValue = "20",
      paramLabel = "N",
      description = "Differences to print (default: ${DEFAULT-VALUE}).")
  private int maxDifferences;

  @Parameters(
      index = "0",
      paramLabel = "DIR",
      description =
          "An output directory (its current export is verified) or one export's directory.")
  private Path dir;

  @Override
  public Integer call() {
    mongo.requireComplete();
    if (!Files.isDirectory(dir)) {
      throw new IllegalArgumentException("not a directory: " + dir);
    }
    PrintWriter out = spec.commandLine().getOut();
    Path dir = OutputLayout.resolve(this.dir);
    Manifest manifest = Manifest.read(dir.resolve(Manifest.FILE_NAME));
    return verify(dir, manifest, out);
  }

  /**
   * The documents as the driver decodes them, mapped by the rules, against the records read back
   * through the binary schema the export carries.
   */
  private int verify(Path dir, Manifest manifest, PrintWriter out) {
    SchemaArtifact artifact = SchemaArtifact.open(dir);
    boolean strict = manifest.options().strict();
    try (MongoClient client = mongo.connect();
        MongoCursor<RawBsonDocument> source =
            IdOrderedFind.of(BsonDocument.parse(manifest.source().query()))
                .open(
                    client
                        .getDatabase(mongo.db)
                        .getCollection(mongo.collection, RawBsonDocument.class))) {
      return print(
          new SchemaExportVerifier(artifact.plan(), artifact.binarySchema(), strict, maxDifferences)
              .verify(source, artifact.shards(), dir.resolve(RejectsWriter.FILE_NAME)),
          dir,
          out);
    }
  }

  private static int print(SchemaExportVerifier.Result result, Path dir, PrintWriter out) {
    result.differences().forEach(d -> out.println("DIFF " + d));
    if (result.clean()) {
      out.printf(Locale.ROOT, "verified: %,d documents agree with %s%n", result.compared(), dir);
      out.flush();
      return 0;
    }
    out.printf(
        Locale.ROOT,
        "%,d differences in %,d documents%n",
        result.totalDifferences(),
        result.compared());
    out.flush();
    return Flatdump.EXIT_FAILED;
  }
}
