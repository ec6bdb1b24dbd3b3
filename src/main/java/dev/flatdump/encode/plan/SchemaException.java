package dev.flatdump.encode.plan;

import dev.flatdump.FlatdumpException;

/**
 * A schema flatdump cannot use: flatc refused it, or it holds a construct that BSON cannot be
 * mapped onto. The message names the schema and, where there is one, the table and field ({@code
 * Table.field}).
 */
public final class SchemaException extends FlatdumpException {

  public SchemaException(String message) {
    super(message);
  }

  public SchemaException(String message, Throwable cause) {
    super(message, cause);
  }
}
