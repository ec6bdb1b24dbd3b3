package dev.flatdump.report;

import static dev.flatdump.report.Html.escape;

import dev.flatdump.report.SizeBars.Bar;
import java.util.List;
import java.util.Locale;

/**
 * Draws groups of sizes as an inline SVG horizontal bar chart: the label on the left, the bar
 * scaled to the largest size, the human-readable size after the bar, the exact bytes in a tooltip.
 * Every bar is a {@code rect} of class {@code bar}. No scripts, no external fonts: it renders
 * offline.
 */
final class SvgBarChart {

  private static final int WIDTH = 1000;
  private static final int LABEL_WIDTH = 300;
  private static final int BAR_X = LABEL_WIDTH + 12;
  private static final int VALUE_WIDTH = 90;
  private static final int BAR_SPAN = WIDTH - BAR_X - VALUE_WIDTH;
  private static final int ROW = 26;
  private static final int BAR_HEIGHT = 18;
  private static final int GROUP_GAP = 12;
  private static final int PADDING = 8;
  private static final int MAX_LABEL_CHARS = 42;

  private SvgBarChart() {}

  static String render(List<List<Bar>> groups, String title) {
    long max = groups.stream().flatMap(List::stream).mapToLong(Bar::bytes).max().orElse(0);
    int rows = groups.stream().mapToInt(List::size).sum();
    int height = 2 * PADDING + rows * ROW + Math.max(0, groups.size() - 1) * GROUP_GAP;
    var svg = new StringBuilder();
    svg.append(
            String.format(
                Locale.ROOT,
                "<svg viewBox=\"0 0 %d %d\" width=\"%d\""
                    + " height=\"%d\" role=\"img\" aria-label=\"%s\" class=\"chart\">\n",
                WIDTH,
                height,
                WIDTH,
                height,
                escape(title)))
        .append("<title>")
        .append(escape(title))
        .append("</title>\n");
    svg.append(
        String.format(
            Locale.ROOT,
            "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#999\" stroke-width=\"1\"/>\n",
            BAR_X,
            PADDING / 2,
            BAR_X,
            height - PADDING / 2));
    int y = PADDING;
    for (List<Bar> group : groups) {
      for (Bar bar : group) {
        row(svg, bar, y, max);
        y += ROW;
      }
      y += GROUP_GAP;
    }
    return svg.append("</svg>\n").toString();
  }

  private static void row(StringBuilder svg, Bar bar, int y, long max) {
    int width = width(bar.bytes(), max);
    int middle = y + ROW / 2;
    String human = Units.bytes(bar.bytes());
    svg.append("<g><title>")
        .append(escape(bar.label() + ": " + human + " (" + Units.exact(bar.bytes()) + " bytes)"))
        .append("</title>\n");
    svg.append(
            String.format(
                Locale.ROOT,
                "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" dominant-baseline=\"central\""
                    + " class=\"label\">",
                LABEL_WIDTH,
                middle))
        .append(escape(shorten(bar.label())))
        .append("</text>\n");
    svg.append(
        String.format(
            Locale.ROOT,
            "<rect class=\"bar\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"2\""
                + " fill=\"%s\"/>\n",
            BAR_X,
            middle - BAR_HEIGHT / 2,
            width,
            BAR_HEIGHT,
            bar.kind().colour));
    svg.append(
            String.format(
                Locale.ROOT,
                "<text x=\"%d\" y=\"%d\" dominant-baseline=\"central\" class=\"value\">",
                BAR_X + width + 6,
                middle))
        .append(escape(human))
        .append("</text></g>\n");
  }

  /** The bar's length: proportional to the largest, at least 1 px for any non-zero size. */
  private static int width(long bytes, long max) {
    if (bytes == 0 || max == 0) {
      return 0;
    }
    return (int) Math.max(1, Math.round((double) bytes / max * BAR_SPAN));
  }

  private static String shorten(String label) {
    if (label.length() <= MAX_LABEL_CHARS) {
      return label;
    }
    int end = MAX_LABEL_CHARS - 1;
    if (Character.isHighSurrogate(label.charAt(end - 1))) {
      end--; // never split a surrogate pair
    }
    return label.substring(0, end) + "…";
  }
}
