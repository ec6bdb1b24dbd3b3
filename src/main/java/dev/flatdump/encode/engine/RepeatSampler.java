package dev.flatdump.encode.engine;

/**
 * Decides, by sampling, whether looking values up to share repeats is worth its cost. Lookups run
 * in windows of {@code window} values; a window in which fewer than {@code minHitPercent} % of the
 * values were found again turns lookups off for the next {@code pauseWindows} windows, after which
 * a new window samples again. Each poor window in a row doubles the pause (plus one: 15, 31, 63,
 * ...) up to {@code maxPauseWindows}; a good window resets it. On data where values repeat, lookups
 * never stop; where nothing repeats (random values), the windows looked up become rarer and rarer,
 * down to one in {@code maxPauseWindows + 1}, and data that starts repeating is noticed at most
 * {@code maxPauseWindows} windows late.
 *
 * <p>Deterministic: the same sequence of calls gives the same decisions. Not thread-safe.
 */
public final class RepeatSampler {

  private final int window;
  private final int minHits;
  private final int firstPause;
  private final int maxPause;

  /** Windows the next poor window pauses for. */
  private int pauseWindows;

  private boolean active = true;
  private int seen;
  private int hits;
  private int paused;
  private int pauseValues;

  /** The state {@link #save} kept, in the fields' order. */
  private int savedPauseWindows;

  private boolean savedActive;
  private int savedSeen;
  private int savedHits;
  private int savedPaused;
  private int savedPauseValues;

  /**
   * @param window values per sampling window, at least 1
   * @param minHitPercent the share of values found again, 0..100, below which lookups pause
   * @param pauseWindows windows to skip after a poor one, at least 1
   * @param maxPauseWindows the longest pause, in windows, that poor windows in a row grow it to; at
   *     least {@code pauseWindows}, and {@code maxPauseWindows * window} must fit an int
   */
  public RepeatSampler(int window, int minHitPercent, int pauseWindows, int maxPauseWindows) {
    if (window < 1
        || minHitPercent < 0
        || minHitPercent > 100
        || pauseWindows < 1
        || maxPauseWindows < pauseWindows
        || (long) maxPauseWindows * window > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "need window >= 1, minHitPercent 0..100, 1 <= pauseWindows <= maxPauseWindows and"
              + " maxPauseWindows * window to fit an int; got "
              + window
              + ", "
              + minHitPercent
              + ", "
              + pauseWindows
              + ", "
              + maxPauseWindows);
    }
    this.window = window;
    this.minHits = (int) ((long) window * minHitPercent / 100);
    this.firstPause = pauseWindows;
    this.maxPause = maxPauseWindows;
    this.pauseWindows = pauseWindows;
  }

  /**
   * The policy for a table type's index of shared tables: windows of 65,536, under 10 % found again
   * pauses for 15 windows, then 31, 63, 127 and at most 255 (16.7M tables) while nothing repeats.
   */
  public static RepeatSampler forTables() {
    return forMemo(1 << 16);
  }

  /**
   * The same policy in windows of {@code window} values: for the memo of sub-documents' bytes,
   * whose lookups cost more and are sampled in smaller windows.
   */
  static RepeatSampler forMemo(int window) {
    return new RepeatSampler(window, 10, 15, 255);
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
      if (active) {
        pauseWindows = firstPause;
      } else {
        pauseValues = pauseWindows * window; // fits: checked against the longest pause
        pauseWindows = (int) Math.min(2L * pauseWindows + 1, maxPause);
      }
    }
  }

  /** A value was not looked up. Call only while not {@link #active()}. */
  public void skipped() {
    if (++paused == pauseValues) {
      active = true;
      paused = 0;
    }
  }

  /** Keeps the sampler's state, for {@link #restore}. */
  void save() {
    savedPauseWindows = pauseWindows;
    savedActive = active;
    savedSeen = seen;
    savedHits = hits;
    savedPaused = paused;
    savedPauseValues = pauseValues;
  }

  /**
   * Takes the sampler back to its state at the last {@link #save}: the values reported since (a
   * rejected document's) decide nothing.
   */
  void restore() {
    pauseWindows = savedPauseWindows;
    active = savedActive;
    seen = savedSeen;
    hits = savedHits;
    paused = savedPaused;
    pauseValues = savedPauseValues;
  }
}
