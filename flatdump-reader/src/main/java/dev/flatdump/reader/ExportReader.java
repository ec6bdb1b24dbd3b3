package dev.flatdump.reader;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
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
  private final Object reloading = new Object();
  private volatile boolean closed;

  private ExportReader(Path path, Snapshot first) {
    this.path = path;
    this.current = new AtomicReference<>(first);
  }

  /**
   * Opens the current export of the output directory {@code path} (or, without a pointer, the
   * export in {@code path} itself).
   *
   * @throws ReaderException naming the file that is missing, short, corrupt or not a manifest
   */
  public static ExportReader open(Path path) {
    return new ExportReader(path, new Snapshot(openCurrent(path)));
  }

  private static MappedExport openCurrent(Path path) {
    if (!Files.isDirectory(path)) {
      throw new ReaderException(path + " is not a directory");
    }
    for (int attempt = 1; ; attempt++) {
      Path dir = Pointer.resolve(path);
      try {
        return MappedExport.open(dir);
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
   * reported to the listeners ({@link ReloadListener#failed}).
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
      MappedExport next;
      try {
        next = MappedExport.open(dir);
      } catch (ReaderException e) {
        fail(dir, old.id(), e);
        return false;
      }
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

  /** Gives up the reader's hold on the current export. Idempotent. */
  @Override
  public void close() {
    synchronized (reloading) {
      if (!closed) {
        closed = true;
        current.get().close();
      }
    }
  }
}
