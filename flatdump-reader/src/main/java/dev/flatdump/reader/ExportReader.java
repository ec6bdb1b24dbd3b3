package dev.flatdump.reader;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Reads the exports published into an output directory, as a service does: {@link #open} follows
 * the pointer ({@code current}, else {@code CURRENT}), checks every shard against the manifest and
 * maps it read-only; {@link #snapshot} hands out the current export, held until closed; {@link
 * #reload} follows the pointer again and, when it names another export, opens and checks that one
 * completely before switching to it atomically. The export before is unmapped when its last
 * snapshot closes.
 *
 * <p>Thread-safe: any number of threads take snapshots while one or more reload (reloads are
 * serialized). Closing the reader gives up its own hold on the current export; snapshots still open
 * keep theirs.
 */
public final class ExportReader implements AutoCloseable {

  /** How often {@link #open} follows the pointer again when the export it named was removed. */
  private static final int POINTER_ATTEMPTS = 5;

  private final Path path;

  /** The reader's own hold on the current export; replaced by a reload. */
  private final AtomicReference<Snapshot> current;

  private final List<ReloadListener> listeners = new CopyOnWriteArrayList<>();
  private final List<Follower> followers = new CopyOnWriteArrayList<>();

  /** The last export a reload refused, so that polls do not read it again; under reloading. */
  private Refused refused;

  private final Object reloading = new Object();
  private volatile boolean closed;

  private final Verify verify;

  /** How much of each shard is checked when an export is opened, at {@link #open} and reloads. */
  public enum Verify {
    /**
     * {@link #CHECKSUMS}, then the structure of every shard against the binary schema the export
     * ships ({@code .bfbs}, its SHA-256 checked too): every offset, vtable, string, vector, union
     * and required field, as FlatBuffers' verifiers check them. What a bug in a writer would leave
     * is refused before it is served.
     */
    FULL,
    /**
     * Size, file identifier, and the SHA-256 of every byte against the manifest's: a corrupt or
     * changed shard is refused before it is served, at the cost of reading every byte once.
     */
    CHECKSUMS,
    /**
     * Size and file identifier only, for files already checked on their way here (e.g. by {@code
     * flatdump pull}): the pages are read when records are, not at open. A corrupt byte is then
     * read as data.
     */
    SIZES
  }

  private ExportReader(Path path, Snapshot first, Verify verify) {
    this.path = path;
    this.current = new AtomicReference<>(first);
    this.verify = verify;
  }

  /**
   * Opens the current export of the output directory {@code path} (or, without a pointer, the
   * export in {@code path} itself).
   *
   * @throws ReaderException naming the file that is missing, short, corrupt or not a manifest
   */
  public static ExportReader open(Path path) {
    return open(path, Verify.FULL);
  }

  /** Opens as {@link #open(Path)}, checking each shard (now and at each reload) as told. */
  public static ExportReader open(Path path, Verify verify) {
    return new ExportReader(path, new Snapshot(openCurrent(path, verify)), verify);
  }

  private static MappedExport openCurrent(Path path, Verify verify) {
    if (!Files.isDirectory(path)) {
      throw new ReaderException(path + " is not a directory");
    }
    for (int attempt = 1; ; attempt++) {
      Path dir = Pointer.resolve(path);
      try {
        return MappedExport.open(dir, verify);
      } catch (ReaderException e) {
        // the export the pointer named was removed meanwhile (newer ones published): follow again
        if (dir.equals(path) || Files.isDirectory(dir) || attempt == POINTER_ATTEMPTS) {
          throw e;
        }
      }
    }
  }

  /**
   * A hold on the current export, which the caller closes (try-with-resources).
   *
   * @throws IllegalStateException when the reader is closed
   */
  public Snapshot snapshot() {
    while (true) {
      if (closed) {
        throw new IllegalStateException("the reader of " + path + " is closed");
      }
      Snapshot s = current.get();
      if (s.export().tryAcquire()) {
        return new Snapshot(s.export());
      }
      // a reload released it between the read and the acquire: the new one is current by now
      Thread.onSpinWait();
    }
  }

  /** The current export's id (its directory's name). */
  public String currentId() {
    return current.get().id();
  }

  /** Registers a listener of reloads. */
  public void addListener(ReloadListener listener) {
    listeners.add(listener);
  }

  /**
   * Follows the pointer again; when it names another export, opens and checks it completely, then
   * makes it current. A new export that cannot be opened leaves the current one in service and is
   * reported to the listeners ({@link ReloadListener#failed}) once: it is not read again (every
   * poll of {@link #follow}) until the pointer names another export or its manifest changes.
   *
   * @return whether the reader switched to another export
   */
  public boolean reload() {
    synchronized (reloading) {
      if (closed) {
        throw new IllegalStateException("the reader of " + path + " is closed");
      }
      Snapshot old = current.get();
      Path dir;
      try {
        dir = Pointer.resolve(path);
        if (same(dir, old.directory())) {
          return false;
        }
      } catch (ReaderException e) {
        fail(path, old.id(), e);
        return false;
      }
      Refused attempt = new Refused(dir, Refused.stamp(dir));
      if (attempt.equals(refused)) {
        return false; // refused already, and its manifest is the same: heard once by the listeners
      }
      MappedExport next;
      try {
        next = MappedExport.open(dir, verify);
      } catch (ReaderException e) {
        refused = attempt;
        fail(dir, old.id(), e);
        return false;
      }
      refused = null;
      current.set(new Snapshot(next));
      old.close();
      for (ReloadListener l : listeners) {
        try {
          l.refreshed(old.id(), next.dir().getFileName().toString());
        } catch (RuntimeException ignored) {
          // a listener's failure is not the reload's
        }
      }
      return true;
    }
  }

  /**
   * Reloads by itself from now on, on a daemon thread of its own, until the returned handle or the
   * reader is closed: at once when the pointer changes (a {@link WatchService} on the directory the
   * reader was opened on, where the file system offers one), and every {@code interval} in any
   * case, which is all there is where no watch service works (network file systems). What each
   * reload does is heard by the listeners ({@link #addListener}); nothing it meets stops the
   * thread.
   *
   * @throws IllegalArgumentException when {@code interval} is not positive
   */
  public AutoCloseable follow(Duration interval) {
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("the interval must be positive, got " + interval);
    }
    Follower f = new Follower(this, path, interval);
    followers.add(f);
    Thread t = new Thread(f, "flatdump-reader-follow " + path.getFileName());
    t.setDaemon(true);
    t.start();
    return f;
  }

  boolean isClosed() {
    return closed;
  }

  private void fail(Path dir, String currentId, ReaderException e) {
    for (ReloadListener l : listeners) {
      try {
        l.failed(dir, currentId, e);
      } catch (RuntimeException ignored) {
        // a listener's failure is not the reload's
      }
    }
  }

  private static boolean same(Path a, Path b) {
    if (a.equals(b)) {
      return true;
    }
    try {
      return Files.isSameFile(a, b);
    } catch (IOException e) {
      return false;
    }
  }

  /** The thread of {@link #follow}: waits for a change of the pointer or the interval, reloads. */
  private static final class Follower implements Runnable, AutoCloseable {
    private final ExportReader reader;
    private final Path path;
    private final Duration interval;
    private final Object sleep = new Object();
    private volatile boolean stopped;
    private volatile WatchService watch;

    Follower(ExportReader reader, Path path, Duration interval) {
      this.reader = reader;
      this.path = path;
      this.interval = interval;
      this.watch = watch(path);
    }

    @Override
    public void run() {
      try {
        while (!stopped && !reader.isClosed()) {
          await();
          if (stopped || reader.isClosed()) {
            return;
          }
          try {
            reader.reload();
          } catch (IllegalStateException closedMeanwhile) {
            return;
          } catch (RuntimeException e) {
            reader.fail(path, reader.currentId(), new ReaderException(e.toString(), e));
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        closeWatch();
      }
    }

    /** Until the directory changes (where watched) or the interval passes. */
    private void await() throws InterruptedException {
      WatchService w = watch;
      if (w != null) {
        try {
          WatchKey key = w.poll(interval.toMillis(), TimeUnit.MILLISECONDS);
          if (key != null) {
            key.pollEvents();
            if (!key.reset()) {
              closeWatch(); // the directory went away: the interval alone from now on
            }
          }
          return;
        } catch (ClosedWatchServiceException e) {
          return; // closed: the loop ends
        }
      }
      synchronized (sleep) {
        if (!stopped) {
          sleep.wait(interval.toMillis());
        }
      }
    }

    /** A watch on the reader's directory, or null where the file system offers none. */
    private static WatchService watch(Path path) {
      if (!Files.isDirectory(path)) {
        return null;
      }
      try {
        WatchService w = path.getFileSystem().newWatchService();
        path.register(
            w,
            StandardWatchEventKinds.ENTRY_CREATE,
            StandardWatchEventKinds.ENTRY_MODIFY,
            StandardWatchEventKinds.ENTRY_DELETE);
        return w;
      } catch (IOException | UnsupportedOperationException e) {
        return null;
      }
    }

    private void closeWatch() {
      WatchService w = watch;
      watch = null;
      if (w != null) {
        try {
          w.close();
        } catch (IOException ignored) {
          // nothing more to do
        }
      }
    }

    /** Stops following; a reload under way completes. */
    @Override
    public void close() {
      stopped = true;
      reader.followers.remove(this);
      closeWatch();
      synchronized (sleep) {
        sleep.notifyAll();
      }
    }
  }

  /** Gives up the reader's hold on the current export and stops its followers. Idempotent. */
  @Override
  public void close() {
    synchronized (reloading) {
      if (!closed) {
        closed = true;
        current.get().close();
      }
    }
    for (Follower f : followers) {
      f.close();
    }
  }

  /**
   * An export a reload refused, with its manifest's identity (file key, modification time, size;
   * null when it is missing): the same directory with the same manifest is not opened again.
   */
  private record Refused(Path dir, List<Object> manifest) {
    static List<Object> stamp(Path dir) {
      try {
        BasicFileAttributes a =
            Files.readAttributes(dir.resolve(ExportManifest.FILE_NAME), BasicFileAttributes.class);
        FileTime modified = a.lastModifiedTime();
        return java.util.Arrays.asList(a.fileKey(), modified, a.size());
      } catch (IOException e) {
        return null;
      }
    }
  }
}
