package dev.flatdump.reader.s3;

/**
 * Why a pull failed: the message names the object (its {@code s3://} URI) or the local file, and
 * the reason. The pull's one exception; when it is thrown, the local output directory's current
 * export is the one before the pull.
 */
public final class PullException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final boolean stopped;

  public PullException(String message) {
    this(message, null, false);
  }

  public PullException(String message, Throwable cause) {
    this(message, cause, false);
  }

  PullException(String message, Throwable cause, boolean stopped) {
    super(message, cause);
    this.stopped = stopped;
  }

  /**
   * Whether the pull ended because {@link ExportPuller#stop()} was called, not because something
   * failed; what it had downloaded is kept and resumed by the next pull.
   */
  public boolean stopped() {
    return stopped;
  }
}
