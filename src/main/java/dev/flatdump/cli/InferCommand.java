package dev.flatdump.cli;

import com.mongodb.client.MongoClient;
import dev.flatdump.FlatdumpException;
import dev.flatdump.artifact.AtomicFiles;
import dev.flatdump.encode.plan.SchemaEvolution;
import dev.flatdump.encode.plan.SchemaException;
import dev.flatdump.encode.plan.SchemaPlan;
import dev.flatdump.infer.SchemaInference;
import dev.flatdump.infer.SchemaInference.InferredSchema;
import dev.flatdump.job.ExportOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import org.bson.BsonDocument;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code flatdump infer}: writes a {@code .fbs} schema inferred from a collection that {@code
 * export --schema} takes as it is ({@link SchemaInference}). Reads every document of a collection
 * of up to 1,000,000 documents (in {@code _id} order), else a {@code $sample}; {@code
 * --read-all-up-to} moves that bound. Exits 0 with the schema written, conflicts included (listed
 * on stderr and in the schema).
 */
@Command(
    name = "infer",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Infers a .fbs schema from a collection, for export --schema.",
      "Each field gets the type that holds every value seen without loss (docs/mapping.md), with"
          + " a comment saying how often it was present and which BSON types it held. Reads every"
          + " document of collections up to 1,000,000 documents, else a $sample. A path holding"
          + " types no one type holds becomes a union of one wrapper per kind, so that no document"
          + " is rejected for it, and is listed on stderr and at the end of the schema."
    })
public final class InferCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;

  @Mixin private MongoTarget mongo;

  @Option(
      names = "--query",
      defaultValue = "{}",
      paramLabel = "JSON",
      description = "Only the documents this Extended JSON filter matches (default: {}).")
  private String query;

  @Option(
      names = "--sample",
      defaultValue = "100000",
      paramLabel = "N|all",
      description =
          "Above 1,000,000 documents, read a $sample of N (default: ${DEFAULT-VALUE}); 'all' reads"
              + " every document.")
  private String sample;

  @Option(
      names = "--narrow-integers",
      description =
          "Give integers the smallest signed width that holds the values seen (byte, short, int,"
              + " long), instead of int for int32 and long for int64.")
  private boolean narrowIntegers;

  @Option(
      names = "--map",
      paramLabel = "PATH",
      description =
          "Write the sub-documents at PATH as a map (a vector of key-value entries) whatever their"
              + " keys; PATH as infer prints it (name.native, items[].attrs). Repeatable.")
  private List<String> maps = new ArrayList<>();

  @Option(
      names = "--no-map",
      paramLabel = "PATH",
      description =
          "Write the sub-documents at PATH as a table of fields even where their keys look like"
              + " data. Repeatable.")
  private List<String> noMaps = new ArrayList<>();

  @Option(
      names = "--no-id",
      description = "Leave the documents' _id out of the record table (export then skips it).")
  private boolean noId;

  @Option(
      names = "--evolve",
      paramLabel = "OLD.fbs",
      description =
          "Start from this earlier schema (.fbs or .bfbs): every field keeps its id and type, and"
              + " what the data now needs is appended, so that readers generated for it keep"
              + " reading (docs/infer.md).")
  private Path evolve;

  @Option(
      names = "--deprecate-missing",
      description =
          "With --evolve: deprecate the earlier fields that no document has now (default: keep"
              + " them).")
  private boolean deprecateMissing;

  @Option(
      names = "--out",
      paramLabel = "FILE.fbs",
      description = "Write the schema here (replaced whole) instead of to stdout.")
  private Path out;

  @Option(
      names = "--progress-seconds",
      defaultValue = "5",
      paramLabel = "N",
      description = "Print a progress line every N seconds (default: ${DEFAULT-VALUE}).")
  private int progressSeconds;

  @Option(
      names = "--read-all-up-to",
      defaultValue = "1000000",
      paramLabel = "N",
      description =
          "Read every document of a collection of up to N documents, else a $sample of --sample"
              + " (default: ${DEFAULT-VALUE}).")
  private int readAllUpTo;

  @Override
  public Integer call() {
    mongo.requireComplete();
    if (!spec.commandLine().getParseResult().hasMatchedOption("--out")) {
      out = null; // FLATDUMP_OUT and a job file's out name export's directory, never this file
    }
    BsonDocument filter = parseQuery(query);
    int sampleSize = parseSample(sample);
    if (readAllUpTo < 0 || readAllUpTo == Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "--read-all-up-to must be 0 to 2147483646, got " + readAllUpTo);
    }
    if (progressSeconds < 1) {
      throw new IllegalArgumentException("--progress-seconds must be >= 1, got " + progressSeconds);
    }
    if (out != null && Files.isDirectory(out)) {
      throw new IllegalArgumentException("--out names a directory: " + out);
    }
    if (deprecateMissing && evolve == null) {
      throw new IllegalArgumentException("--deprecate-missing goes with --evolve OLD.fbs");
    }
    SchemaPlan earlier = null;
    if (evolve != null) {
      try {
        earlier = SchemaPlan.load(evolve);
      } catch (SchemaException e) { // the user's file: a usage error, as export's --schema
        throw new IllegalArgumentException("--evolve: " + e.getMessage(), e);
      }
    }
    PrintWriter err = spec.commandLine().getErr();
    InferredSchema schema;
    try (MongoClient client = mongo.connect()) {
      schema =
          new CollectionInference(
                  mongo.namespace(),
                  mongo.db,
                  mongo.collection,
                  filter,
                  sampleSize,
                  readAllUpTo,
                  new SchemaInference.Options(
                      narrowIntegers, Set.copyOf(maps), Set.copyOf(noMaps), noId),
                  progressSeconds)
              .run(client, err, "infer: ");
    }
    if (earlier == null) {
      write(schema.fbs());
    } else {
      SchemaEvolution.Result evolved =
          SchemaEvolution.evolve(earlier, schema.fbs(), deprecateMissing, schema.nullOnly());
      write(evolved.schema());
      report(err, "infer: evolved from " + evolve, evolved);
    }
    err.println(
        "infer: "
            + count(schema.documents())
            + " documents read; schema written to "
            + (out == null ? "stdout" : out.toString())
            + "; "
            + (schema.conflicts().isEmpty()
                ? "no conflicts"
                : schema.conflicts().size() + " conflicts (each listed below)"));
    CollectionInference.report(schema, err, "infer: ");
    return 0;
  }

  /** {@code what}, then each change of the evolution, one a line. */
  static void report(PrintWriter err, String what, SchemaEvolution.Result evolved) {
    err.println(
        what
            + ": "
            + (evolved.changes().isEmpty()
                ? "nothing to add"
                : evolved.changes().size() + " changes, none that breaks its readers:"));
    for (String c : evolved.changes()) {
      err.println("  " + c);
    }
  }

  private void write(String fbs) {
    if (out == null) {
      PrintWriter stdout = spec.commandLine().getOut();
      stdout.print(fbs);
      stdout.flush();
      return;
    }
    Path target = out.toAbsolutePath();
    try {
      Files.createDirectories(target.getParent());
    } catch (IOException e) {
      throw new FlatdumpException("cannot write " + out + ": " + e.getMessage(), e);
    }
    byte[] bytes = fbs.getBytes(StandardCharsets.UTF_8);
    AtomicFiles.write(
        target, o -> o.write(bytes)); // whole or absent, as every file flatdump writes
  }

  /** One Extended JSON document, as export takes it, or a usage error naming --query. */
  static BsonDocument parseQuery(String query) {
    try {
      return ExportOptions.parseQuery(query);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--" + e.getMessage(), e);
    }
  }

  /** A sample size of at least 1, or 0 for {@code all}; else a usage error. */
  static int parseSample(String sample) {
    if (sample.trim().equalsIgnoreCase("all")) {
      return 0;
    }
    try {
      int n = Integer.parseInt(sample.trim().replace("_", ""));
      if (n >= 1) {
        return n;
      }
    } catch (NumberFormatException e) {
      // the message below
    }
    throw new IllegalArgumentException(
        "--sample must be a number of documents (1 to 2147483647) or 'all', got '" + sample + "'");
  }

  private static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }
}
