package dev.flatdump.job;

import java.math.BigDecimal;

/**
 * {@code --max-rejects}: how many rejected documents an export tolerates, as a count ({@code 100})
 * or as a percentage of the documents it read ({@code 1%}), or {@code none}. A count is checked as
 * the documents are read, so a run stops as soon as it passes it; a percentage once every document
 * has been read. Either way an export above its limit fails and publishes nothing.
 *
 * @param count the most documents that may be rejected; -1 when the limit is a percentage or none
 * @param percent the largest share of the documents read that may be rejected, in percent (0..100);
 *     null when the limit is a count or none
 */
public record RejectLimit(long count, BigDecimal percent) {

  /** No limit. */
  public static final RejectLimit NONE = new RejectLimit(-1, null);

  /**
   * The default, for a job that runs every night unattended: a few bad documents among many do not
   * fail it; a schema that rejects more than one document in a hundred does.
   */
  public static final String DEFAULT = "1%";

  private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

  public RejectLimit {
    if (count < -1) {
      throw new IllegalArgumentException(
          "max rejects must be a count >= 0, a percentage or none, got " + count);
    }
    if (percent != null) {
      if (count != -1) {
        throw new IllegalArgumentException(
            "max rejects is a count or a percentage, not both: " + count + " and " + percent + "%");
      }
      if (percent.signum() < 0 || percent.compareTo(HUNDRED) > 0) {
        throw new IllegalArgumentException(
            "max rejects must be a percentage from 0% to 100%, got "
                + percent.toPlainString()
                + "%");
      }
      percent = percent.stripTrailingZeros();
    }
  }

  /** At most {@code n} rejected documents. */
  public static RejectLimit count(long n) {
    return new RejectLimit(n, null);
  }

  /**
   * Parses {@code 100} (a count), {@code 5%} or {@code 0.5%} (of the documents read), or {@code
   * none} (also {@code -1}).
   *
   * @throws IllegalArgumentException naming the text
   */
  public static RejectLimit parse(String text) {
    String t = text == null ? "" : text.trim();
    if (t.equalsIgnoreCase("none") || t.equals("-1")) {
      return NONE;
    }
    try {
      if (t.endsWith("%")) {
        String number = t.substring(0, t.length() - 1).trim();
        // plain decimals only: an exponent such as 1e999999999 would make a number of that size
        if (!number.matches("[0-9]{1,3}(\\.[0-9]{1,12})?")) {
          throw new NumberFormatException();
        }
        return new RejectLimit(-1, new BigDecimal(number));
      }
      long n = Long.parseLong(t);
      if (n < 0) {
        throw new NumberFormatException();
      }
      return count(n);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "max rejects must be a count (100), a percentage of the documents read (1%) or none,"
              + " got '"
              + text
              + "'");
    }
  }

  /** Whether {@code rejected} documents are already too many, whatever is still to be read. */
  public boolean exceededSoFar(long rejected) {
    return count >= 0 && rejected > count;
  }

  /** Whether {@code rejected} documents out of {@code read} are more than this limit allows. */
  public boolean exceeded(long rejected, long read) {
    if (percent == null) {
      return exceededSoFar(rejected);
    }
    return BigDecimal.valueOf(rejected)
            .multiply(HUNDRED)
            .compareTo(percent.multiply(BigDecimal.valueOf(read)))
        > 0;
  }

  /** As {@code --max-rejects} takes it: {@code 100}, {@code 1%} or {@code none}. */
  @Override
  public String toString() {
    if (percent != null) {
      return percent.toPlainString() + "%";
    }
    return count < 0 ? "none" : Long.toString(count);
  }
}
