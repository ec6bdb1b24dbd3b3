package dev.flatdump.reader.s3;

import dev.flatdump.reader.ManifestFiles;
import dev.flatdump.reader.ReaderException;
import java.io.IOException;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Pulls the exports flatdump publishes to S3 ({@code export --upload s3://bucket/prefix}) into a
 * local output directory, so that {@link dev.flatdump.reader.ExportReader#open} and its {@code
 * reload()} follow them as they follow a local publish:
 *
 * <ol>
 *   <li>{@code prefix/CURRENT} names the current export, {@code exports/NAME}; when the local
 *       directory's current export already is {@code NAME}, there is nothing to do (an export never
 *       changes once published);
 *   <li>{@code prefix/exports/NAME/manifest.json} is read, then every file it lists is downloaded
 *       into {@code OUT/.pull/NAME/}, the binary schema first, and checked against the manifest's
 *       size and SHA-256. A data shard comes through its columnar copy ({@code .fbc}) where the
 *       manifest lists one, rebuilt with the binary schema, and its gzip and zstd copies are then
 *       not downloaded (the local export lacks them); else through its {@code .zst} copy where the
 *       manifest lists one, decompressed;
 *   <li>the export is published as {@code OUT/exports/NAME}, {@code current} and {@code CURRENT}
 *       switched to it, and exports beyond the newest {@link PullSettings#keep()} removed.
 * </ol>
 *
 * <p><b>Resume.</b> A download interrupted anywhere (a killed process, a dropped connection, a
 * {@link #stop()}) leaves its partial file, which the next pull continues with a {@code Range}
 * request from its size.
 *
 * <p><b>Refusal.</b> An object that arrives with other bytes than the manifest lists (or a columnar
 * copy that does not rebuild its shard's bytes) is deleted and downloaded again, up to {@link
 * PullSettings#objectAttempts()} times; then the pull fails with a {@link PullException} naming the
 * object and why, and the local current export stays.
 *
 * <p><b>Races.</b> Should an object of the export disappear meanwhile (newer exports published and
 * old ones removed), or its manifest change, the pull starts again from {@code CURRENT}, up to
 * {@link PullSettings#restarts()} times. Every file published is checked against the one manifest
 * published with it, so a local export is never a mix of two.
 *
 * <p>The puller holds {@code OUT/.pull/lock} until closed, so one pull at a time writes into {@code
 * OUT}. {@link #pull} and {@link #watch} run on the caller's thread, one at a time; {@link #stop}
 * may be called from any thread. Progress goes to the {@code Consumer<String>} given, one line per
 * step. Close the puller when done: it closes the S3 client it made.
 */
public final class ExportPuller implements AutoCloseable {

  /**
   * What one pull did.
   *
   * @param exportName the export that is current locally now
   * @param directory its local directory, {@code OUT/exports/NAME}
   * @param published whether this pull switched the local pointer to it (false: it was current)
   * @param bytesDownloaded bytes received from S3 for it by this pull
   */
  public record Pulled(
      String exportName, Path directory, boolean published, long bytesDownloaded) {}

  private final S3Client s3;
  private final DefaultCredentialsProvider credentials;
  private final S3Prefix source;
  private final PullSettings settings;
  private final Consumer<String> progress;
  private final LocalExports local;
  private final FileLock lock;
  private final StopSignal stop = new StopSignal();
  private final String endpoint;

  private ExportPuller(
      S3Client s3,
      DefaultCredentialsProvider credentials,
      S3Prefix source,
      Path out,
      PullSettings settings,
      Consumer<String> progress) {
    this.s3 = s3;
    this.credentials = credentials;
    this.source = source;
    this.settings = settings;
    this.progress = progress;
    this.local = new LocalExports(out);
    this.endpoint = settings.describeEndpoint();
    this.lock = local.lock();
  }

  /**
   * A puller from {@code source} into the output directory {@code out} (created if missing), with
   * its own S3 client; credentials come from the AWS SDK's default chain. No request is sent yet.
   *
   * @throws PullException when another pull holds {@code out}'s lock, or the S3 client cannot be
   *     configured (no region)
   */
  public static ExportPuller open(
      S3Prefix source, Path out, PullSettings settings, Consumer<String> progress) {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(out, "out");
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(progress, "progress");
    DefaultCredentialsProvider credentials = DefaultCredentialsProvider.builder().build();
    S3Client s3;
    try {
      s3 = PullClients.create(settings, credentials);
    } catch (SdkException e) {
      credentials.close();
      throw new PullException(
          "cannot configure the S3 client: "
              + e.getMessage()
              + " (set AWS_REGION, or the region in the settings)",
          e);
    }
    try {
      return new ExportPuller(s3, credentials, source, out, settings, progress);
    } catch (RuntimeException e) {
      s3.close();
      credentials.close();
      throw e;
    }
  }

  /**
   * A puller that sends its requests through the caller's client, which it does not close; {@code
   * settings} then give only the attempts, restarts and {@code keep}.
   */
  public static ExportPuller open(
      S3Client s3, S3Prefix source, Path out, PullSettings settings, Consumer<String> progress) {
    return new ExportPuller(
        Objects.requireNonNull(s3, "s3"),
        null,
        Objects.requireNonNull(source, "source"),
        Objects.requireNonNull(out, "out"),
        Objects.requireNonNull(settings, "settings"),
        Objects.requireNonNull(progress, "progress"));
  }

  /**
   * Pulls the export {@code CURRENT} names now, unless it is current locally already.
   *
   * @throws PullException naming the object and why when the pull fails (the local current export
   *     stays), or {@linkplain PullException#stopped() stopped} after {@link #stop()}
   */
  public Pulled pull() {
    for (int restart = 0; ; restart++) {
      stop.check("reading " + source.uriOf(LocalExports.CURRENT_FILE));
      String name = remoteCurrent();
      if (local.currentName().equals(Optional.of(name))) {
        return new Pulled(name, local.exportDir(name), false, 0);
      }
      String manifestKey = LocalExports.EXPORTS + "/" + name + "/" + LocalExports.MANIFEST;
      try {
        byte[] manifest = get(manifestKey).orElseThrow(() -> gone(manifestKey));
        return pull(name, manifest, manifestKey);
      } catch (ExportDownload.ExportGone e) {
        if (restart >= settings.restarts()) {
          throw new PullException(
              e.getMessage()
                  + "; the exports CURRENT named kept disappearing ("
                  + (restart + 1)
                  + " tries)");
        }
        progress.accept(e.getMessage() + ": starting again from CURRENT");
      }
    }
  }

  private Pulled pull(String name, byte[] manifest, String manifestKey) {
    ManifestFiles files;
    try {
      files = ManifestFiles.parse(manifest, source.uriOf(manifestKey));
    } catch (ReaderException e) {
      throw new PullException("cannot pull " + name + ": " + e.getMessage(), e);
    }
    if (local.holds(name, manifest)) {
      // published before, the pointer not yet switched: finish that publish
      Path dir = local.publish(name, manifest, files, settings.keep());
      progress.accept(name + ": already downloaded; now current in " + dir);
      return new Pulled(name, dir, true, 0);
    }
    progress.accept(
        "pulling " + name + " from " + source + " (" + files.files().size() + " files)");
    Path staging = local.staging(name);
    ExportDownload download =
        new ExportDownload(
            new ObjectDownload(s3, source.bucket(), settings.requestAttempts(), stop),
            source,
            name,
            files,
            staging,
            settings.objectAttempts(),
            () -> get(manifestKey).map(m -> Arrays.equals(m, manifest)).orElse(false),
            progress);
    long bytes;
    try {
      bytes = download.run();
    } catch (SdkException e) {
      throw new PullException(
          "cannot pull " + name + " from " + source + " via " + endpoint + ": " + e.getMessage(),
          e);
    }
    Path dir = local.publish(name, manifest, files, settings.keep(), download.skipped());
    progress.accept(name + ": " + bytes + " bytes downloaded; now current in " + dir);
    return new Pulled(name, dir, true, bytes);
  }

  /**
   * Pulls, then pulls again every {@code interval}, until {@link #stop()}: each new export {@code
   * CURRENT} names is pulled and published. A pull that fails is reported to {@code failed} and the
   * local current export stays; the next poll tries again, after a wait that doubles with each
   * failure in a row ({@link #retryAfter}), so that an export that stays corrupt in the bucket is
   * not downloaded again at every poll.
   *
   * @param pulled hears every pull that published an export
   */
  public void watch(Duration interval, Consumer<Pulled> pulled, Consumer<PullException> failed) {
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("watch interval must be positive, got " + interval);
    }
    int failures = 0;
    while (!stop.stopped()) {
      try {
        Pulled p = pull();
        failures = 0;
        if (p.published()) {
          pulled.accept(p);
        }
      } catch (PullException e) {
        if (e.stopped()) {
          return;
        }
        failures++;
        failed.accept(e);
      }
      if (stop.await(retryAfter(interval, failures))) {
        return;
      }
    }
  }

  /** The longest wait between two pulls after failures: an hour, or the interval if longer. */
  static final Duration MAX_RETRY_WAIT = Duration.ofHours(1);

  /**
   * How long {@link #watch} waits after {@code failures} failed pulls in a row: the interval, then
   * twice it, four times, ..., up to {@link #MAX_RETRY_WAIT} (or the interval, if longer).
   */
  static Duration retryAfter(Duration interval, int failures) {
    Duration wait = interval;
    for (int i = 0; i < failures && wait.compareTo(MAX_RETRY_WAIT) < 0; i++) {
      wait = wait.multipliedBy(2);
    }
    return failures == 0 ? interval : max(interval, min(wait, MAX_RETRY_WAIT));
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  private static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }

  /**
   * Asks {@link #pull} or {@link #watch} to stop at its next buffer; what was downloaded is kept
   * for the next pull. Thread-safe, idempotent.
   */
  public void stop() {
    stop.stop();
  }

  /**
   * Releases the lock of {@code OUT} and closes the S3 client made by {@link #open}. Idempotent.
   */
  @Override
  public void close() {
    stop.stop();
    try {
      lock.channel().close();
    } catch (IOException ignored) {
      // closing releases the lock; nothing is left to undo
    }
    if (credentials != null) {
      s3.close();
      credentials.close();
    }
  }

  /** The export name {@code CURRENT} holds. */
  private String remoteCurrent() {
    String uri = source.uriOf(LocalExports.CURRENT_FILE);
    byte[] bytes =
        get(LocalExports.CURRENT_FILE)
            .orElseThrow(
                () ->
                    new PullException(
                        "nothing is published at " + source + ": " + uri + " is missing"));
    String text = new String(bytes, StandardCharsets.UTF_8).strip();
    String prefix = LocalExports.EXPORTS + "/";
    String name = text.startsWith(prefix) ? text.substring(prefix.length()) : "";
    if (!LocalExports.isExportName(name)) {
      throw new PullException(uri + " does not name an export (exports/NAME): '" + text + "'");
    }
    return name;
  }

  /** A small object's bytes, or empty when there is none. */
  private Optional<byte[]> get(String relative) {
    try {
      return Optional.of(
          s3.getObjectAsBytes(b -> b.bucket(source.bucket()).key(source.key(relative)))
              .asByteArray());
    } catch (S3Exception e) {
      if (e.statusCode() == 404) {
        return Optional.empty();
      }
      throw failure(relative, e);
    } catch (SdkException e) {
      throw failure(relative, e);
    }
  }

  private PullException failure(String relative, SdkException e) {
    return new PullException(
        "cannot read " + source.uriOf(relative) + " via " + endpoint + ": " + e.getMessage(), e);
  }

  private ExportDownload.ExportGone gone(String relative) {
    return new ExportDownload.ExportGone(source.uriOf(relative) + " is missing");
  }
}
