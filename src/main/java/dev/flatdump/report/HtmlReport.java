package dev.flatdump.report;

import static dev.flatdump.report.Html.escape;

import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Renders a {@link SizeReport} as one self-contained HTML page: inline CSS, an inline SVG chart, no
 * scripts, fonts or links, and a Content-Security-Policy that forbids loading anything, so the page
 * looks the same offline. Every string from the report is escaped.
 */
final class HtmlReport {

  private static final String STYLE =
      """
:root { color-scheme: light; }
body { margin: 0; background: #f6f7f9; color: #1d2330;
       font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
main { max-width: 1060px; margin: 0 auto; padding: 24px 28px 40px; }
h1 { font-size: 24px; margin: 0 0 4px; }
h1 .what { color: #1f5fbf; font-weight: 600; overflow-wrap: anywhere; }
h2 { font-size: 18px; margin: 0 0 10px; }
section { background: #fff; border: 1px solid #dde1e7; border-radius: 8px;
          padding: 16px 20px; margin: 16px 0; overflow-x: auto; }
ul.lead { margin: 8px 0 0; padding-left: 20px; }
table { border-collapse: collapse; font-size: 14px; min-width: 50%; }
th, td { padding: 5px 12px; border-bottom: 1px solid #e6e9ee; vertical-align: top; }
th { text-align: left; background: #f0f2f5; font-weight: 600; white-space: nowrap; }
td.number, th.number { text-align: right; white-space: nowrap;
                       font-variant-numeric: tabular-nums; }
td.code { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace;
          font-size: 13px; overflow-wrap: anywhere; }
tbody tr:nth-child(even) { background: #fafbfc; }
tfoot td { font-weight: 600; }
tfoot tr:first-child td { border-top: 2px solid #c9ced6; }
p.note { color: #5b6373; font-size: 13px; margin: 8px 0 0; }
.legend { display: flex; flex-wrap: wrap; gap: 6px 18px; font-size: 13px; margin-bottom: 8px; }
.legend span { display: inline-flex; align-items: center; gap: 6px; }
.legend i { display: inline-block; width: 14px; height: 14px; border-radius: 2px; }
svg.chart { width: 100%; max-width: 1000px; height: auto; display: block; }
svg.chart text { font: 13px system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
                 fill: #1d2330; }
svg.chart text.value { fill: #3c4454; font-variant-numeric: tabular-nums; }
footer { color: #7a8190; font-size: 12px; text-align: center; }
""";

  private HtmlReport() {}

  static String render(SizeReport report) {
    SizeReport.Source s = report.source();
    String what = s.database() + "." + s.collection();
    var html = new StringBuilder(16 * 1024);
    html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append("<meta http-equiv=\"Content-Security-Policy\"")
        .append(" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        .append("<title>flatdump size report: ")
        .append(escape(what))
        .append("</title>\n<style>\n")
        .append(STYLE)
        .append("</style>\n</head>\n<body>\n<main>\n");
    html.append("<header>\n<h1>flatdump size report: <span class=\"what\">")
        .append(escape(what))
        .append("</span></h1>\n<ul class=\"lead\">\n");
    for (String line : Lead.lines(report)) {
      html.append("<li>").append(escape(line)).append("</li>\n");
    }
    html.append("</ul>\n</header>\n");
    chart(html, report, what);
    for (Table table : ReportTables.all(report)) {
      table(html, table);
    }
    html.append("<footer>Written by flatdump. This page loads nothing: no scripts, fonts or links.")
        .append("</footer>\n</main>\n</body>\n</html>\n");
    return html.toString();
  }

  private static void chart(StringBuilder html, SizeReport report, String what) {
    List<List<SizeBars.Bar>> bars = SizeBars.of(report);
    html.append("<section>\n<h2>Sizes</h2>\n<div class=\"legend\">\n");
    Set<SizeBars.Kind> kinds = EnumSet.noneOf(SizeBars.Kind.class);
    bars.forEach(group -> group.forEach(bar -> kinds.add(bar.kind())));
    for (SizeBars.Kind kind : kinds) {
      html.append("<span><i style=\"background:")
          .append(kind.colour)
          .append("\"></i>")
          .append(escape(kind.legend))
          .append("</span>\n");
    }
    html.append("</div>\n")
        .append(SvgBarChart.render(bars, "Sizes in bytes for " + what))
        .append("<p class=\"note\">Bars are scaled to the largest size; hover a bar for its exact")
        .append(" bytes.</p>\n</section>\n");
  }

  private static void table(StringBuilder html, Table table) {
    html.append("<section>\n<h2>").append(escape(table.title())).append("</h2>\n");
    List<Table.Column> columns = table.columns();
    if (!table.rows().isEmpty()) {
      html.append("<table>\n<thead><tr>");
      for (Table.Column c : columns) {
        html.append("<th")
            .append(c.kind() == Table.Kind.NUMBER ? " class=\"number\"" : "")
            .append('>')
            .append(escape(c.header()))
            .append("</th>");
      }
      html.append("</tr></thead>\n<tbody>\n");
      int firstTotal = table.rows().size() - table.totalRows();
      for (int r = 0; r < table.rows().size(); r++) {
        List<String> row = table.rows().get(r);
        html.append(r == firstTotal ? "</tbody>\n<tfoot>\n<tr>" : "<tr>");
        for (int i = 0; i < row.size(); i++) {
          html.append("<td class=\"")
              .append(columns.get(i).kind().name().toLowerCase(Locale.ROOT))
              .append("\">")
              .append(escape(row.get(i)))
              .append("</td>");
        }
        html.append("</tr>\n");
      }
      html.append(table.totalRows() > 0 ? "</tfoot>\n</table>\n" : "</tbody>\n</table>\n");
    }
    if (!table.note().isEmpty()) {
      html.append("<p class=\"note\">").append(escape(table.note())).append("</p>\n");
    }
    html.append("</section>\n");
  }
}
