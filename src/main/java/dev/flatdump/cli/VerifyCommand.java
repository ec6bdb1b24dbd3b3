package dev.flatdump.cli;

import com.mongodb.client.MongoClient;
import dev.flatdump.artifact.ExportVerifier;
import dev.flatdump.artifact.Manifest;
import dev.flatdump.artifact.OrgArtifact;
import dev.flatdump.artifact.OutputLayout;
import dev.flatdump.artifact.RejectsWriter;
import dev.flatdump.source.MongoDocumentCursor;
import dev.flatdump.source.MongoOrgSource;
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
    OrgArtifact artifact = OrgArtifact.open(dir);
    try (MongoClient client = mongo.connect();
        MongoOrgSource source =
            new MongoOrgSource(
                client.getDatabase(mongo.db).getCollection(mongo.collection, RawBsonDocument.class),
                BsonDocument.parse(manifest.source().query()),
                null,
                MongoDocumentCursor.Settings.DEFAULTS)) {
      ExportVerifier.Result result =
          new ExportVerifier(maxDifferences)
              .verify(source, artifact.iterator(), dir.resolve(RejectsWriter.FILE_NAME));
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
}
