package dev.flatdump.infer;

import java.util.Arrays;
import java.util.regex.Pattern;

/**
 * Whether a sub-document's keys are data (codes, ids, dates) rather than field names, from the keys
 * seen at its path and how often each was present: docs/infer.md's map rules and their thresholds.
 * Unless its keys are of a kind only data has ({@link #onlyData}), a map also needs values alike
 * (one kind of BSON value, nulls aside), which the caller checks.
 */
final class MapKeys {

  private MapKeys() {}

  /** Keys that only data has: integers, dates, hex ids (ObjectIds, hashes) and UUIDs. */
  private static final Pattern DATA =
      Pattern.compile(
          "-?[0-9]+"
              + "|[0-9]{4}-[0-9]{2}(-[0-9]{2}([T ][0-9:.]+(Z|[+-][0-9:]+)?)?)?"
              + "|[0-9a-fA-F]{16,}"
              + "|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

  /**
   * Codes: ISO 4217 currencies and ISO 3166 countries (EUR, US), ISO 639 languages (fra, pt-BR).
   */
  private static final Pattern UPPER_CODE = Pattern.compile("[A-Z]{2,3}");

  private static final Pattern LOWER_CODE = Pattern.compile("[a-z]{2,3}([-_][A-Za-z]{2,4})?");

  /** Distinct codes needed: a table of eight fields all named like codes is not one of fields. */
  static final int MIN_CODES = 8;

  /** Distinct keys needed for the sparse rule, the documents seen, and a key's usual presence. */
  static final int MIN_SPARSE_KEYS = 50;

  static final int MIN_SPARSE_DOCUMENTS = 20;
  static final int SPARSE_PERCENT = 5;

  /**
   * Whether every key of {@code t} is of a kind field names never are (an integer, a date, a hex
   * id, a UUID): a map whatever its values, since a table would name a field after each id.
   */
  static boolean onlyData(TableStats t) {
    return !t.fields.isEmpty()
        && t.fields.keySet().stream().allMatch(k -> DATA.matcher(k).matches());
  }

  /** Why {@code t}'s keys are data, or null when they look like field names. */
  static String why(TableStats t) {
    int keys = t.fields.size();
    if (t.rest != null) {
      return "more than " + TableStats.MAX_FIELDS + " distinct keys";
    }
    if (keys == 0) {
      return null;
    }
    if (onlyData(t)) {
      return keys + " keys, each an integer, a date or an id";
    }
    if (keys >= MIN_CODES
        && (t.fields.keySet().stream().allMatch(k -> UPPER_CODE.matcher(k).matches())
            || t.fields.keySet().stream().allMatch(k -> LOWER_CODE.matcher(k).matches()))) {
      return keys + " keys, each a code";
    }
    if (keys >= MIN_SPARSE_KEYS && t.seen >= MIN_SPARSE_DOCUMENTS) {
      long[] presence = t.fields.values().stream().mapToLong(v -> v.present).toArray();
      Arrays.sort(presence);
      long median = presence[presence.length / 2];
      if (median * 100 <= t.seen * SPARSE_PERCENT) {
        return keys + " keys, half of them in at most " + median + " of " + t.seen + " documents";
      }
    }
    return null;
  }
}
