package dev.flatdump.encode.plan;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * A user's FlatBuffers schema, compiled once into what the engine needs: every table and struct
 * reachable from the records, by index, with their fields by id and by BSON name, and the enums.
 * The records are the elements of the root table's one vector-of-tables field: each document
 * becomes one element. Immutable and thread-safe.
 *
 * @param source where the schema came from, for messages
 * @param fileIdentifier the schema's {@code file_identifier}, or null
 * @param rootIndex the root table's index in {@link #tables()}
 * @param records the root table's field that holds the records
 * @param recordIndex the record table's index in {@link #tables()}
 * @param tables every table and struct the root reaches
 * @param enums every enum those use
 */
public record SchemaPlan(
    String source,
    String fileIdentifier,
    int rootIndex,
    FieldPlan records,
    int recordIndex,
    List<TablePlan> tables,
    List<EnumPlan> enums) {

  public SchemaPlan {
    Objects.requireNonNull(source, "SchemaPlan.source");
    Objects.requireNonNull(records, "SchemaPlan.records");
    tables = List.copyOf(tables);
    enums = List.copyOf(enums);
  }

  /**
   * Loads a schema: a {@code .fbs} is compiled with flatc ({@link FlatcRunner}), and refused where
   * the binary schema loses a default it declares ({@link DeclaredDefaults}); a {@code .bfbs} is
   * read as it is.
   *
   * @throws SchemaException when the file cannot be read or compiled, or holds what flatdump cannot
   *     map; the message says why and names the field
   */
  public static SchemaPlan load(Path file) {
    String name = file.getFileName().toString();
    byte[] bfbs;
    if (name.endsWith(".bfbs")) {
      try {
        bfbs = Files.readAllBytes(file);
      } catch (IOException e) {
        throw new SchemaException("cannot read schema " + file + ": " + e.getMessage(), e);
      }
    } else if (name.endsWith(".fbs")) {
      return fromText(FlatcRunner.compile(file), file);
    } else {
      throw new SchemaException(
          "schema " + file + ": expected a FlatBuffers schema (.fbs) or a binary schema (.bfbs)");
    }
    return fromBinary(ByteBuffer.wrap(bfbs), file.toString());
  }

  /**
   * The plan of {@code fbs}, given the binary schema flatc compiled from it: refused where the
   * binary schema lost a default the text declares ({@link DeclaredDefaults}).
   *
   * @throws SchemaException naming the field
   */
  public static SchemaPlan fromText(byte[] bfbs, Path fbs) {
    SchemaPlan plan = fromBinary(ByteBuffer.wrap(bfbs), fbs.toString());
    DeclaredDefaults.refuseLost(plan, fbs);
    return plan;
  }

  /**
   * Compiles a binary schema ({@code flatc -b --schema}).
   *
   * @param source names the schema in messages
   */
  public static SchemaPlan fromBinary(ByteBuffer bfbs, String source) {
    try {
      return new BinarySchemaReader(bfbs, source).plan();
    } catch (IndexOutOfBoundsException | java.nio.BufferUnderflowException e) {
      throw new SchemaException(
          source + " is not a binary schema flatc wrote (it ends too early or points outside)", e);
    }
  }

  /** The root table. */
  public TablePlan root() {
    return tables.get(rootIndex);
  }

  /**
   * The bytes a value of {@code kind} (field {@code f}'s own kind, or its vector's element kind)
   * takes inline, in a table or a vector: a struct its own size, an offset 4, a scalar its width.
   */
  public int inlineSize(FieldPlan f, FieldKind kind) {
    return kind == FieldKind.STRUCT ? tables.get(f.typeIndex()).byteSize() : kind.inlineSize();
  }

  /** The alignment such a value needs: a struct its own, anything else its size. */
  public int alignment(FieldPlan f, FieldKind kind) {
    return kind == FieldKind.STRUCT ? tables.get(f.typeIndex()).minAlign() : kind.inlineSize();
  }

  /** The table each record is built as. */
  public TablePlan record() {
    return tables.get(recordIndex);
  }
}
