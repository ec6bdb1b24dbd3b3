package dev.flatdump;

/**
 * Decides, by sampling, whether looking values up to share repeats is worth its cost. Lookups run
 * in windows of {@code window} values; a window in which fewer than {@code minHitPercent} % of the
 * values were found again turns lookups off for the next {@code pauseWindows} windows, after which
 * a new window samples again. On data where values repeat, lookups never stop; where nothing
 * repeats (the articles' random attributes), they cost one window in {@code pauseWindows + 1}.
 *
 * <p>Deterministic: the same sequence of calls gives the same decisions. Not thread-safe.
 */
public final class RepeatSampler {

  private final int window;
  private final int minHits;
  private final int pauseValues;

  private boolean active = true;
  private int seen;
  private int hits;
  private int paused;

  /**
   * @param window values per sampling window, at least 1
   * @param minHitPercent the share of values found again, 0..100, below which lookups pause
   * @param pauseWindows windows to skip after a poor one, at least 1
   */
  public RepeatSampler(int window, int minHitPercent, int pauseWindows) {
    if (window < 1 || minHitPercent < 0 || minHitPercent > 100 || pauseWindows < 1) {
      throw new IllegalArgumentException(
          "need window >= 1, minHitPercent 0..100, pauseWindows >= 1; got "
              + window
              + ", "
              + minHitPercent
              + ", "
              + pauseWindows);
    }
    this.window = window;
    this.minHits = (int) ((long) window * minHitPercent / 100);
    this.pauseValues = Math.multiplyExact(pauseWindows, window);
  }

  /**
   * The policy for attributes, wherever they are looked up (the decoder's cache, the builder's
   * table index): windows of 65,536, under 10 % found again pauses for 15 windows.
   */
  public static RepeatSampler forAttributes() {
    return new RepeatSampler(1 << 16, 10, 15);
  }

  /** Whether to look the next value up; then report it with {@link #found} or {@link #skipped}. */
  public boolean active() {
    return active;
  }

  /** A value was looked up; {@code hit} if it was found. Call only while {@link #active()}. */
  public void found(boolean hit) {
    if (hit) {
      hits++;
    }
    if (++seen == window) {
      active = hits >= minHits;
      seen = 0;
      hits = 0;
    }
  }

  /** A value was not looked up. Call only while not {@link #active()}. */
  public void skipped() {
    if (++paused == pauseValues) {
      active = true;
      paused = 0;
    }
  }
}
