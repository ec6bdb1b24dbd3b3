package dev.flatdump.bench;

import dev.flatdump.bench.samples.Org;
import dev.flatdump.encode.engine.Sharing;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * One row of the codec table: how to write a list of orgs to a file and read it back. Readers
 * return a {@link ReadChecksum} value, so that the JIT cannot drop the reads and so that every row
 * can be checked to read back the same data.
 *
 * <p>Implementations are stateless between calls; not meant for concurrent use.
 */
interface OrgFileCodec {

  /** The row's label in the table. */
  String name();

  /** The file-name extension of what {@link #write} writes, without the dot. */
  String extension();

  /**
   * Serializes {@code orgs} into {@code file} (created or truncated).
   *
   * @return what the writer still holds at the end (the protobuf message, the FlatBuffer), kept
   *     reachable while the heap is measured; null when it holds nothing
   */
  Object write(List<Org> orgs, Path file) throws IOException;

  /** Reads every org's name and attribute ids, as the articles' "some attributes" read. */
  long readSome(Path file) throws IOException;

  /** Reads every field of every org. */
  long readAll(Path file) throws IOException;

  /**
   * The table's rows, in order: JSON and protobuf as the articles wrote them; FlatBuffers plain,
   * with string de-dup and with the naive attribute de-dup, through the generated code as the
   * FlatBuffers article wrote them; the export's engine, from each org's BSON, with string de-dup
   * only, with table de-dup, and with vector de-dup too (what the export writes).
   *
   * @param flatBuffersInitialCapacity every FlatBuffers row starts with this buffer size in bytes
   *     and lets it double, as the export does
   */
  static List<OrgFileCodec> articleTable(int flatBuffersInitialCapacity) {
    int capacity = flatBuffersInitialCapacity;
    return List.of(
        new JacksonFileCodec(),
        new ProtobufFileCodec(),
        article("FlatBuffers plain", ArticleFlatBuffersEncoder.Sharing.NOTHING, capacity),
        article(
            "FlatBuffers + strings de-dup", ArticleFlatBuffersEncoder.Sharing.STRINGS, capacity),
        article(
            "FlatBuffers + strings + attributes, naive HashMap<Attr,Integer>",
            ArticleFlatBuffersEncoder.Sharing.STRINGS_AND_ATTRIBUTES,
            capacity),
        FlatBuffersFileCodec.flatdump(
            "flatdump strings only", new Sharing.Kinds(true, false, false), capacity),
        FlatBuffersFileCodec.flatdump(
            "flatdump strings + tables", new Sharing.Kinds(true, true, false), capacity),
        FlatBuffersFileCodec.flatdump(
            "flatdump strings + tables + vectors (export default)", Sharing.Kinds.ALL, capacity));
  }

  private static OrgFileCodec article(
      String name, ArticleFlatBuffersEncoder.Sharing sharing, int capacity) {
    return new FlatBuffersFileCodec(
        name, orgs -> ArticleFlatBuffersEncoder.encode(orgs, sharing, capacity));
  }
}
