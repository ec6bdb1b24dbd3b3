package dev.flatdump.cli;

import com.mongodb.client.MongoClient;
import dev.flatdump.FlatdumpException;
import dev.flatdump.artifact.AtomicFiles;
import dev.flatdump.artifact.Manifest;
import dev.flatdump.artifact.OutputLayout;
import dev.flatdump.artifact.SchemaFiles;
import dev.flatdump.artifact.compress.Compression;
import dev.flatdump.artifact.compress.GzipCompression;
import dev.flatdump.artifact.compress.ZstdCompression;
import dev.flatdump.encode.DedupOptions;
import dev.flatdump.encode.plan.SchemaDiff;
import dev.flatdump.encode.plan.SchemaEvolution;
import dev.flatdump.encode.plan.SchemaException;
import dev.flatdump.encode.plan.SchemaPlan;
import dev.flatdump.infer.SchemaInference;
import dev.flatdump.infer.SchemaInference.InferredSchema;
import dev.flatdump.job.ExportLauncher;
import dev.flatdump.job.ExportOptions;
import dev.flatdump.job.ExportResults;
import dev.flatdump.job.JobRuntime;
import dev.flatdump.job.RejectLimit;
import dev.flatdump.job.RemotePartitions;
import dev.flatdump.job.UploadOptions;
import dev.flatdump.report.SchemaBaselines;
import dev.flatdump.source.ConnectionStrings;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code flatdump export}: runs {@code exportJob} once and prints the report summary. Exit codes: 0
 * completed without rejects (or already complete for this run date), 3 completed and published with
 * rejects within {@code --max-rejects}, 1 the job failed, 2 bad usage.
 */
@Command(
    name = "export",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Streams a MongoDB collection into FlatBuffers artifacts.",
      "Each document is mapped onto your schema (--schema), or onto one inferred from the"
          + " collection first (--infer); give one of the two.",
      "Publishes each export into a directory of its own, DIR/exports/RUNDATE-ID:"
          + " NAME.fb (or numbered shards NAME-00000.fb, ...), .gz and .zst copies,"
          + " rejects.jsonl, report.json, report.md, report.html, the schema and manifest.json;"
          + " then"
          + " points DIR/current (a symbolic link) and DIR/CURRENT (a text file) at it."
          + " Running the same command again after a failure resumes it from its last"
          + " checkpoint."
    })
public final class ExportCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;

  @Mixin private MongoTarget mongo;

  @Option(
      names = OptionSources.JOB_FILE_OPTION,
      paramLabel = "FILE",
      description =
          "A .properties job file with option values (keys are option names without dashes,"
              + " e.g. shard-size=64MiB). Precedence: command line, then FLATDUMP_* environment"
              + " variables (FLATDUMP_SHARD_SIZE), then the job file, then the defaults.")
  private Path jobFile;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description = "Output directory, created if missing (required).")
  private Path out;

  @Option(
      names = "--schema",
      paramLabel = "FILE",
      description =
          "Your FlatBuffers schema (.fbs, or a binary .bfbs) to map the documents onto: each"
              + " document becomes one element of the root table's one vector of tables; see"
              + " docs/mapping.md. The export carries FILE.fbs and FILE.bfbs, and its shards are"
              + " named after it. The demo's is schemas/organizations.fbs. Either this or --infer.")
  private Path schema;

  @Option(
      names = "--infer",
      description =
          "Infer the schema from the collection first, as flatdump infer does, and export with it:"
              + " the export carries it as COLLECTION.fbs and .bfbs. Either this or --schema.")
  private boolean infer;

  @Option(
      names = "--sample",
      defaultValue = "100000",
      paramLabel = "N|all",
      description =
          "With --infer: above 1,000,000 documents, infer from a $sample of N (default:"
              + " ${DEFAULT-VALUE}); 'all' reads every document.")
  private String sample;

  @Option(
      names = "--map",
      paramLabel = "PATH",
      description = "With --infer: write the sub-documents at PATH as a map. Repeatable.")
  private List<String> maps = new java.util.ArrayList<>();

  @Option(
      names = "--no-map",
      paramLabel = "PATH",
      description = "With --infer: write the sub-documents at PATH as a table. Repeatable.")
  private List<String> noMaps = new java.util.ArrayList<>();

  @Option(
      names = "--narrow-integers",
      description =
          "With --infer: give integers the smallest signed width that holds the values seen.")
  private boolean narrowIntegers;

  @Option(
      names = "--no-id",
      description =
          "With --infer: leave the documents' _id out of the schema (export then skips it).")
  private boolean noId;

  @Option(
      names = "--allow-breaking",
      description =
          "Export even with a schema whose changes break the readers of the current export in"
              + " --out (by default such an export is refused; see flatdump schema-diff).")
  private boolean allowBreaking;

  @Option(
      names = "--strict",
      description =
          "Reject a document that has a field the schema does not name (by default such fields"
              + " are skipped and counted per path in the report).")
  private boolean strict;

  @Option(
      names = "--query",
      defaultValue = "{}",
      paramLabel = "JSON",
      description = "Filter, as MongoDB Extended JSON (default: ${DEFAULT-VALUE}).")
  private String query;

  @Option(
      names = "--compress",
      defaultValue = "gzip,zstd",
      paramLabel = "LIST",
      description =
          "Copies of each shard: gzip, zstd, columnar (.fbc, the smallest to ship: rebuilt"
              + " byte for byte by `unpack` and `pull`), any of them, or none (default:"
              + " ${DEFAULT-VALUE}).")
  private String compress;

  @Option(
      names = "--gzip-level",
      defaultValue = "" + GzipCompression.DEFAULT_LEVEL,
      paramLabel = "1-9",
      description = "gzip level (default: ${DEFAULT-VALUE}).")
  private int gzipLevel;

  @Option(
      names = "--zstd-level",
      defaultValue = "" + ZstdCompression.DEFAULT_LEVEL,
      paramLabel = "1-22",
      description = "zstd level (default: ${DEFAULT-VALUE}).")
  private int zstdLevel;

  @Option(
      names = "--compress-threads",
      paramLabel = "N",
      description =
          "Threads that compress at once; the files are the same whatever N (default: the"
              + " processors this JVM may use, a container's CPU limit included, at most 4).")
  private Integer compressThreads;

  @Option(
      names = "--dedup",
      defaultValue = "strings,tables,vectors",
      paramLabel = "LIST",
      description =
          "What equal objects share one copy: strings, tables (of every type), vectors, or none"
              + " (default: ${DEFAULT-VALUE}).")
  private String dedup;

  @Option(
      names = "--compare",
      defaultValue = "none",
      paramLabel = "LIST",
      description =
          "Baselines measured for the report: plain, strings, protobuf (one message per record,"
              + " derived from the schema), json, or none (default: ${DEFAULT-VALUE}).")
  private String compare;

  // 128 MiB: a shard's buffer stops doubling at the shard size + 1 MiB (ShardBuilder), and
  // the old buffer lives until each copy is done: with the de-dup maps and the read-ahead, the heap
  // peaks at about three times the shard size (~400 MiB) at most, whatever the collection's size.
  @Option(
      names = "--shard-size",
      defaultValue = "128MiB",
      paramLabel = "BYTES",
      description =
          "Start a new shard once the finished one would be this large; 1KiB..1GiB (default:"
              + " ${DEFAULT-VALUE}).")
  private String shardSize;

  @Option(
      names = "--max-rejects",
      defaultValue = RejectLimit.DEFAULT,
      paramLabel = "N|P%",
      description =
          "Fail the job, publishing nothing, once more than N documents are rejected, or more than"
              + " P percent of the documents read (checked once all are read), or none. An export"
              + " that rejects every document it reads always fails (default: ${DEFAULT-VALUE}).")
  private String maxRejects;

  @Option(
      names = "--partitions",
      defaultValue = "1",
      paramLabel = "N",
      description =
          "Cut the _id index into N ranges of about as many documents each and export them in"
              + " parallel, each on its own cursor and thread into shards of its own; the export"
              + " is still one manifest and one publish. The cut comes from the collection, so"
              + " the same N gives the same bytes. 1 is one cursor over the whole collection"
              + " (default: ${DEFAULT-VALUE}).")
  private int partitions;

  @Option(
      names = "--remote",
      description =
          "Run the partitions in worker processes (flatdump worker) instead of threads: this"
              + " process is the manager, embeds the broker at --broker and waits for the"
              + " workers. Needs --partitions above 1 and a --job-repository the workers share;"
              + " --out must be the same path on every machine.")
  private boolean remote;

  @Option(
      names = "--broker",
      paramLabel = "tcp://HOST:PORT",
      description =
          "With --remote: where the embedded ActiveMQ Artemis broker listens; workers connect"
              + " to it.")
  private String broker;

  @Option(
      names = "--worker-timeout",
      defaultValue = "60",
      paramLabel = "SECONDS",
      description =
          "With --remote: fail a partition whose worker sent no heartbeat for this long, and"
              + " partitions no worker took while none was heard from (default:"
              + " ${DEFAULT-VALUE}).")
  private int workerTimeout;

  @Option(
      names = "--batch-size",
      defaultValue = "1000",
      paramLabel = "N",
      description = "MongoDB cursor batch size (default: ${DEFAULT-VALUE}).")
  private int batchSize;

  @Option(
      names = "--run-date",
      paramLabel = "YYYY-MM-DD",
      description = "The run date that identifies this job instance (default: today).")
  private LocalDate runDate;

  @Option(
      names = "--new-run",
      description = "Start a fresh job instance even if this run date already completed or failed.")
  private boolean newRun;

  @Option(
      names = "--keep",
      defaultValue = "" + ExportOptions.DEFAULT_KEEP,
      paramLabel = "N",
      description =
          "Published exports to keep in DIR/exports, the new one included; the current one is"
              + " never removed (default: ${DEFAULT-VALUE}).")
  private int keep;

  @Option(
      names = "--fsync-source",
      description =
          "Run {fsync: 1} on the source server before reading its storage figures for the"
              + " report. An admin command that flushes every database: off by default, and"
              + " without it the storage figures can lag the last checkpoint.")
  private boolean fsyncSource;

  @Option(
      names = "--upload",
      paramLabel = "S3_URI",
      description =
          "Upload the published export to s3://bucket/prefix/exports/NAME/ (data first,"
              + " manifest.json last), then point s3://bucket/prefix/CURRENT at it."
              + " Credentials come from the AWS SDK's default chain (AWS_ACCESS_KEY_ID, ...).")
  private String upload;

  @Option(
      names = "--s3-endpoint",
      paramLabel = "URL",
      description = "An S3-compatible server instead of AWS, e.g. http://minio:9000.")
  private String s3Endpoint;

  @Option(
      names = "--s3-region",
      paramLabel = "REGION",
      description = "The region (default: the SDK's chain; us-east-1 with --s3-endpoint).")
  private String s3Region;

  @Option(
      names = "--s3-path-style",
      description = "Path-style addressing (http://host/bucket/key), as MinIO needs.")
  private boolean s3PathStyle;

  @Option(
      names = "--restart",
      description =
          "Resume the most recent failed run into DIR, with that run's own options and run date"
              + " (running the same command again also resumes it). Fails if there is none.")
  private boolean restart;

  @Option(
      names = "--progress-seconds",
      defaultValue = "5",
      paramLabel = "N",
      description =
          "Print a progress line every N seconds (default: ${DEFAULT-VALUE}); on a terminal the"
              + " line is rewritten in place every second.")
  private int progressSeconds;

  @Option(
      names = "--job-repository",
      paramLabel = "JDBC_URL",
      description = "Job repository (default: an H2 file database in DIR/.flatdump).")
  private String jobRepository;

  /**
   * A schema flatdump cannot map, or a baseline it cannot measure for it, is a usage error, found
   * before anything connects or writes.
   */
  private static SchemaPlan requireMappable(Path schema, List<String> compare) {
    SchemaPlan plan;
    try {
      plan = SchemaFiles.forExport(schema).plan();
    } catch (SchemaException e) {
      throw new IllegalArgumentException("--schema: " + e.getMessage(), e);
    }
    if (compare.contains("protobuf")) {
      try {
        SchemaBaselines.protobufTwin(plan);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--compare protobuf: " + e.getMessage(), e);
      }
    }
    return plan;
  }

  /**
   * Refuses a schema whose changes break the readers of the current export in {@code out}: code
   * generated for that export's schema must read what this one writes ({@link SchemaDiff}).
   */
  static void requireCompatible(SchemaPlan plan, Path out, PrintWriter err) {
    Path current = OutputLayout.resolve(out);
    SchemaPlan currentPlan = currentExportPlan(out, err, "so this one is not compared with it");
    if (currentPlan == null) {
      return; // no current export: no readers yet
    }
    List<SchemaDiff.Change> breaking =
        SchemaDiff.between(currentPlan, plan).stream().filter(SchemaDiff.Change::breaking).toList();
    if (!breaking.isEmpty()) {
      throw new IllegalArgumentException(
          "--schema breaks the readers of the current export ("
              + current
              + "):\n  "
              + breaking.stream().map(Object::toString).collect(Collectors.joining("\n  "))
              + "\nrun with --allow-breaking to export it all the same");
    }
  }

  /**
   * The plan of the current export's schema in {@code out}, or null when there is none or it cannot
   * be read (then a warning says so and what follows: {@code consequence}).
   */
  static SchemaPlan currentExportPlan(Path out, PrintWriter err, String consequence) {
    Path current = OutputLayout.resolve(out);
    Path manifest = current.resolve(Manifest.FILE_NAME);
    if (current.equals(out) || !Files.isRegularFile(manifest)) {
      return null;
    }
    try {
      return SchemaFiles.exportPlan(current, Manifest.read(manifest));
    } catch (FlatdumpException e) {
      err.println(
          "flatdump: warning: the schema of the current export cannot be read, "
              + consequence
              + ": "
              + e.getMessage());
      return null;
    }
  }

  /** A {@code --job-repository} given must be a JDBC URL. */
  static void requireJdbcUrl(String jobRepository) {
    if (jobRepository != null && !jobRepository.startsWith("jdbc:")) {
      throw new IllegalArgumentException(
          "--job-repository must be a JDBC URL (jdbc:postgresql://HOST:PORT/DB, jdbc:h2:file:...),"
              + " got '"
              + jobRepository
              + "'");
    }
  }

  @Override
  public Integer call() {
    if (spec.defaultValueProvider() instanceof OptionSources sources) {
      sources.requireKnownKeys(spec);
    }
    var missing = new java.util.ArrayList<>(mongo.missing());
    if (out == null) {
      missing.add("--out");
    }
    MongoTarget.requireNone(missing);
    requireOneSchema();
    if (infer) {
      schema = inferredSchema();
    }
    ExportOptions options = options();
    SchemaPlan plan = requireMappable(schema, options.compare()); // as the user spelled it
    if (!allowBreaking && !restart) { // --restart runs with the failed run's own schema
      requireCompatible(plan, options.out(), spec.commandLine().getErr());
    }
    requireConsistent();
    requireJdbcUrl(jobRepository);
    RemotePartitions remotes = remotePartitions(options);
    PrintWriter err = spec.commandLine().getErr();
    err.println(
        "flatdump: exporting "
            + mongo.namespace()
            + " from "
            + ConnectionStrings.mask(mongo.uri)
            + " into "
            + options.out());
    err.flush();
    return exitCode(launch(options, remotes), options);
  }

  private ExportOptions options() {
    return new ExportOptions(
        ConnectionStrings.hosts(mongo.uri),
        mongo.db,
        mongo.collection,
        out,
        query,
        ExportOptions.parseList(compress),
        gzipLevel,
        zstdLevel,
        DedupOptions.parse(dedup),
        ExportOptions.parseList(compare),
        ByteSizes.parse(shardSize),
        RejectLimit.parse(maxRejects),
        batchSize,
        runDate == null ? LocalDate.now() : runDate,
        newRun ? System.currentTimeMillis() : 0L,
        keep,
        fsyncSource,
        schema,
        strict,
        partitions);
  }

  /** {@code --schema} or {@code --infer}, exactly one: there is no default schema. */
  private void requireOneSchema() {
    var line = spec.commandLine().getParseResult();
    boolean inferOptions =
        line.hasMatchedOption("--sample")
            || line.hasMatchedOption("--map")
            || line.hasMatchedOption("--no-map")
            || line.hasMatchedOption("--narrow-integers")
            || line.hasMatchedOption("--no-id");
    if (schema != null && infer) {
      throw new IllegalArgumentException(
          "--schema and --infer exclude each other: give your schema, or have one inferred");
    }
    if (schema == null && !infer) {
      throw new IllegalArgumentException(
          "export needs a schema: give --schema FILE.fbs (the demo's is"
              + " schemas/organizations.fbs), or --infer to infer one from the collection first"
              + " (see flatdump infer)");
    }
    if (!infer && inferOptions) {
      throw new IllegalArgumentException(
          "--sample, --map, --no-map, --narrow-integers and --no-id are for --infer");
    }
  }

  /**
   * Infers the schema from the collection (every document of up to 1,000,000, else a {@code
   * $sample}) and writes it to {@code OUT/.flatdump/inferred/COLLECTION.fbs}, which the export then
   * carries as its own; returns that file.
   */
  private Path inferredSchema() {
    PrintWriter err = spec.commandLine().getErr();
    SchemaInference.Options inferOptions =
        new SchemaInference.Options(narrowIntegers, Set.copyOf(maps), Set.copyOf(noMaps), noId);
    InferredSchema inferred;
    try (MongoClient client = mongo.connect()) {
      inferred =
          new CollectionInference(
                  mongo.namespace(),
                  mongo.db,
                  mongo.collection,
                  InferCommand.parseQuery(query),
                  InferCommand.parseSample(sample),
                  1_000_000,
                  inferOptions,
                  progressSeconds)
              .run(client, err, "flatdump: --infer: ");
    }
    Path file =
        out.toAbsolutePath()
            .resolve(".flatdump")
            .resolve("inferred")
            .resolve(schemaName(mongo.collection) + SchemaFiles.TEXT_EXTENSION);
    try {
      Files.createDirectories(file.getParent());
    } catch (java.io.IOException e) {
      throw new FlatdumpException("cannot write " + file + ": " + e.getMessage(), e);
    }
    String text = evolvedFromCurrent(inferred, err);
    byte[] bytes = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    AtomicFiles.write(file, o -> o.write(bytes));
    err.println(
        "flatdump: --infer: inferred the schema from "
            + String.format(java.util.Locale.ROOT, "%,d", inferred.documents())
            + " documents into "
            + file
            + "; the export carries it");
    CollectionInference.report(inferred, err, "flatdump: --infer: ");
    inferredFrom = inferred.documents();
    return file;
  }

  /**
   * The inferred schema, evolved from the current export's in {@code --out} when there is one
   * ({@link SchemaEvolution}): readers generated for that export keep reading this one.
   */
  private String evolvedFromCurrent(InferredSchema inferred, PrintWriter err) {
    SchemaPlan currentPlan =
        currentExportPlan(out, err, "so the inferred one does not evolve from it");
    if (currentPlan == null) {
      return inferred.fbs(); // a first export: nothing to keep
    }
    SchemaEvolution.Result evolved =
        SchemaEvolution.evolve(currentPlan, inferred.fbs(), false, inferred.nullOnly());
    InferCommand.report(
        err,
        "flatdump: --infer: evolved from the current export's schema ("
            + OutputLayout.resolve(out)
            + ")",
        evolved);
    return evolved.schema();
  }

  /** A schema file's name for a collection: what names shards (letters, digits, _ - .). */
  static String schemaName(String collection) {
    String name = collection.replaceAll("[^A-Za-z0-9_.-]", "_").replaceAll("^\\.+", "_");
    return name.isEmpty() ? "inferred" : name;
  }

  /** How many documents {@code --infer} read, or -1 without it. */
  private long inferredFrom = -1;

  /** Options that exclude each other or are out of range, before anything starts. */
  private void requireConsistent() {
    if (restart && newRun) {
      throw new IllegalArgumentException("--restart and --new-run exclude each other");
    }
    if (compressThreads != null && compressThreads < 1) {
      throw new IllegalArgumentException("--compress-threads must be >= 1, got " + compressThreads);
    }
    if (progressSeconds < 1) {
      throw new IllegalArgumentException("--progress-seconds must be >= 1, got " + progressSeconds);
    }
  }

  /** The workers of {@code --remote}, or null for partitions in this process. */
  private RemotePartitions remotePartitions(ExportOptions options) {
    if (!remote) {
      if (broker != null) {
        throw new IllegalArgumentException("--broker is for --remote");
      }
      return null;
    }
    if (!options.partitioned()) {
      throw new IllegalArgumentException("--remote needs --partitions above 1");
    }
    if (broker == null) {
      throw new IllegalArgumentException("--remote needs --broker tcp://HOST:PORT");
    }
    if (jobRepository == null || jobRepository.startsWith("jdbc:h2:file:")) {
      throw new IllegalArgumentException(
          "--remote needs a --job-repository that the workers share, such as"
              + " jdbc:postgresql://HOST:PORT/DB; an H2 file is this machine's alone");
    }
    return new RemotePartitions(broker, Duration.ofSeconds(workerTimeout));
  }

  /** Runs the job (or resumes it), printing progress meanwhile. */
  private ExportLauncher.Result launch(ExportOptions options, RemotePartitions remotes) {
    String repo =
        jobRepository != null
            ? jobRepository
            : ExportLauncher.defaultJobRepositoryUrl(options.out());
    boolean live = ProgressPrinter.onTerminal();
    var progress = new ProgressPrinter(spec.commandLine().getErr(), live);
    try (MongoClient client = mongo.connect()) {
      var runtime =
          new JobRuntime(
              client,
              repo,
              progress,
              Duration.ofSeconds(live ? 1 : progressSeconds),
              compressThreads == null ? Compression.defaultThreads() : compressThreads,
              remotes);
      return ExportLauncher.run(
          options,
          new UploadOptions(upload, s3Endpoint, s3Region, s3PathStyle),
          restart ? ExportLauncher.Mode.RESTART : ExportLauncher.Mode.AUTO,
          runtime);
    } finally {
      progress.finish();
    }
  }

  /** Says how the run ended: the summary on stdout when it completed, why not on stderr. */
  private int exitCode(ExportLauncher.Result result, ExportOptions options) {
    PrintWriter err = spec.commandLine().getErr();
    PrintWriter outw = spec.commandLine().getOut();
    return switch (result.outcome()) {
      case NOTHING_TO_RESTART -> {
        err.println("flatdump: --restart: no failed run into " + options.out() + " to resume");
        yield Flatdump.EXIT_FAILED;
      }
      case ALREADY_COMPLETE -> {
        err.println(
            "flatdump: the export for run date "
                + options.runDate()
                + " already completed; nothing to do (use --new-run to export again)");
        yield 0;
      }
      case COMPLETED -> {
        if (result.restarted()) {
          err.println(
              "flatdump: resumed the failed run of "
                  + ExportSummary.runDate(result.execution())
                  + " and completed it");
        }
        outw.println(ExportSummary.steps(result.execution()));
        outw.println(ExportSummary.of(result.execution()));
        if (inferredFrom >= 0) {
          java.nio.file.Path dir = ExportResults.exportDir(result.execution());
          String name = SchemaFiles.nameOf(options.schema());
          outw.println(
              "schema: inferred from "
                  + String.format(java.util.Locale.ROOT, "%,d", inferredFrom)
                  + " documents (--infer); the export carries it: "
                  + (dir == null ? name + ".fbs" : dir.resolve(name + ".fbs"))
                  + " and "
                  + name
                  + ".bfbs");
        }
        outw.flush();
        long rejected = ExportResults.rejected(result.execution());
        if (rejected > 0) {
          err.println(
              "flatdump: completed and published with "
                  + rejected
                  + " rejected document"
                  + (rejected == 1 ? "" : "s")
                  + " (within --max-rejects "
                  + options.maxRejects()
                  + "); see rejects.jsonl (exit "
                  + Flatdump.EXIT_REJECTS
                  + ")");
          yield Flatdump.EXIT_REJECTS;
        }
        yield 0;
      }
      case FAILED -> {
        err.println(ExportSummary.steps(result.execution()));
        String failure = ExportSummary.failure(result.execution());
        err.println("flatdump: export failed: " + failure);
        err.println(
            failure.contains("rejected")
                // the same command would reject the same documents again
                ? "flatdump: fix the schema or the documents (see rejects.jsonl), or raise"
                    + " --max-rejects, and run again"
                : "flatdump: run the same command again to resume from the last checkpoint");
        yield Flatdump.EXIT_FAILED;
      }
    };
  }
}
