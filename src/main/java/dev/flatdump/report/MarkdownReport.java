package dev.flatdump.report;

import java.util.List;

/**
 * Renders a {@link SizeReport} as GitHub-flavoured Markdown: a heading, a lead, then the tables.
 */
final class MarkdownReport {

  private MarkdownReport() {}

  static String render(SizeReport report) {
    var md = new StringBuilder();
    SizeReport.Source s = report.source();
    md.append("# flatdump size report: ")
        .append(escape(s.database() + "." + s.collection()))
        .append("\n\n");
    for (String line : Lead.lines(report)) {
      md.append("- ").append(escape(line)).append('\n');
    }
    md.append('\n');
    for (Table table : ReportTables.all(report)) {
      table(md, table);
    }
    return md.toString();
  }

  private static void table(StringBuilder md, Table table) {
    md.append("## ").append(escape(table.title())).append("\n\n");
    if (!table.rows().isEmpty()) {
      List<Table.Column> columns = table.columns();
      md.append('|');
      for (Table.Column c : columns) {
        md.append(' ').append(escape(c.header())).append(" |");
      }
      md.append("\n|");
      for (Table.Column c : columns) {
        md.append(c.kind() == Table.Kind.NUMBER ? " ---: |" : " --- |");
      }
      md.append('\n');
      int firstTotal = table.rows().size() - table.totalRows();
      for (int r = 0; r < table.rows().size(); r++) {
        md.append('|');
        for (String cell : table.rows().get(r)) {
          String text = escape(cell);
          md.append(' ')
              .append(r >= firstTotal && !text.isEmpty() ? "**" + text + "**" : text)
              .append(" |");
        }
        md.append('\n');
      }
      md.append('\n');
    }
    if (!table.note().isEmpty()) {
      md.append('_').append(escape(table.note())).append("_\n\n");
    }
  }

  /**
   * Backslash-escapes what Markdown would read as markup (CommonMark allows it before any ASCII
   * punctuation), so that a collection named {@code a|b} or {@code <b>} shows as typed; a line
   * break becomes a space, since a cell is one line.
   */
  static String escape(String text) {
    var out = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '\\', '|', '`', '*', '_', '[', ']', '<', '>', '&', '#', '~' ->
            out.append('\\').append(c);
        case '\n', '\r' -> out.append(' ');
        default -> out.append(c);
      }
    }
    return out.toString();
  }
}
