package dev.flatdump.testing;

/**
 * A schema with every shape beyond documents of fixed fields: a union of wrappers (one of them
 * holding a table), maps of strings and of tables, vectors of wrappers (arrays of arrays, two
 * levels, and with nulls) and a vector of wrappers holding the union (values of several types). The
 * engine's, the readers' and the Python reader's tests share it.
 */
public final class ShapesSchema {

  private ShapesSchema() {}

  public static final String TEXT =
      """
      attribute "bson";
      attribute "map";
      attribute "wrapper";
      table CreatedAtString (wrapper) { value: string; }
      table CreatedAtLong (wrapper) { value: long; }
      table CreatedAtDouble (wrapper) { value: double; }
      table CreatedAtDoc (wrapper) { value: Point; }
      union CreatedAt { CreatedAtString, CreatedAtLong, CreatedAtDouble, CreatedAtDoc }
      table Point { x: int; y: int; }
      table Currency { name: string; symbol: string; }
      table CurrenciesEntry { key: string (key); value: Currency; }
      table NamesEntry { key: string (key); value: string; }
      table Ring (wrapper) { value: [double]; }
      table Polygon (wrapper) { value: [Ring]; }
      table Item (wrapper) { value: CreatedAt; }
      table Rec {
        id: int (bson: "_id");
        created_at: CreatedAt;
        names: [NamesEntry] (map);
        currencies: [CurrenciesEntry] (map);
        rings: [Ring];
        polygons: [Polygon];
        items: [Item];
        maybe: [Ring];
      }
      table Root { records: [Rec]; }
      root_type Root;
      """;
}
