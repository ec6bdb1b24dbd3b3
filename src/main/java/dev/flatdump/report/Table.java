package dev.flatdump.report;

import java.util.List;

/**
 * A titled table of plain-text cells, built once by {@link ReportTables} and rendered as Markdown
 * or HTML. Renderers escape the cells; cells hold raw text.
 *
 * @param title the table's heading
 * @param columns the columns, left to right
 * @param rows the cells, one list per row, as many cells as columns
 * @param note a sentence printed under the table, or empty
 * @param totalRows how many of the last rows are totals, shown apart from the others
 */
record Table(
    String title, List<Column> columns, List<List<String>> rows, String note, int totalRows) {

  Table {
    if (totalRows < 0 || totalRows > rows.size()) {
      throw new IllegalArgumentException(
          "Table '" + title + "' totalRows must be 0.." + rows.size() + ", was " + totalRows);
    }
    columns = List.copyOf(columns);
    rows = List.copyOf(rows);
    for (List<String> row : rows) {
      if (row.size() != columns.size()) {
        throw new IllegalArgumentException(
            "Table '" + title + "' row has " + row.size() + " cells, expected " + columns.size());
      }
    }
  }

  /** A table without total rows. */
  Table(String title, List<Column> columns, List<List<String>> rows, String note) {
    this(title, columns, rows, note, 0);
  }

  /** How a column's cells are shown. */
  enum Kind {
    /** Left-aligned prose. */
    TEXT,
    /** Right-aligned figures. */
    NUMBER,
    /** Left-aligned, monospace: hashes, queries, file names. */
    CODE
  }

  /** One column: its header and how its cells are shown. */
  record Column(String header, Kind kind) {

    static Column text(String header) {
      return new Column(header, Kind.TEXT);
    }

    static Column number(String header) {
      return new Column(header, Kind.NUMBER);
    }

    static Column code(String header) {
      return new Column(header, Kind.CODE);
    }
  }
}
