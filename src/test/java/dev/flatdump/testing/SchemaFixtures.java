package dev.flatdump.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.flatbuffers.FlatBufferBuilder;
import dev.flatdump.encode.engine.RecordEncoder;
import dev.flatdump.encode.engine.RecordsRoot;
import dev.flatdump.encode.plan.FlatcRunner;
import dev.flatdump.encode.plan.SchemaPlan;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.bson.BsonDocument;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A schema written to a directory, documents encoded with it, and the buffer read back by flatc
 * itself ({@code flatc --json}), so that the engine's output is checked by a reader it did not
 * write.
 */
public final class SchemaFixtures {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  public final Path dir;
  public final Path fbs;
  public final SchemaPlan plan;

  public SchemaFixtures(Path dir, String schema) throws IOException {
    this.dir = Files.createDirectories(dir);
    this.fbs = dir.resolve("schema.fbs");
    Files.writeString(fbs, schema);
    this.plan = SchemaPlan.load(fbs);
  }

  /** The binary schema flatc compiles from the schema, as an export carries it. */
  public java.nio.ByteBuffer binarySchema() {
    return ByteBuffer.wrap(FlatcRunner.compile(fbs));
  }

  public static byte[] bson(BsonDocument doc) {
    RawBsonDocument raw = new RawBsonDocument(doc, new BsonDocumentCodec());
    ByteBuffer bb = raw.getByteBuffer().asNIO();
    byte[] bytes = new byte[bb.remaining()];
    bb.get(bytes);
    return bytes;
  }

  public static byte[] bson(String json) {
    return bson(BsonDocument.parse(json));
  }

  /** Encodes the documents as the records of one finished buffer. */
  public ByteBuffer encode(RecordEncoder encoder, List<byte[]> docs) {
    return encode(encoder, docs, new FlatBufferBuilder(1024));
  }

  /** {@link #encode(RecordEncoder, List)} into {@code builder}. */
  public ByteBuffer encode(RecordEncoder encoder, List<byte[]> docs, FlatBufferBuilder builder) {
    int[] records = new int[docs.size()];
    for (int i = 0; i < docs.size(); i++) {
      byte[] d = docs.get(i);
      records[i] = encoder.encode(builder, d, 0, d.length);
    }
    RecordsRoot.finish(builder, plan, records, records.length);
    return builder.dataBuffer();
  }

  /** The records of {@code buffer} as flatc reads them: a JSON array, defaults left out. */
  public JsonNode flatcRecords(ByteBuffer buffer) throws IOException, InterruptedException {
    return flatcRoot(buffer).get(plan.records().name());
  }

  /** The whole buffer as flatc reads it. */
  public JsonNode flatcRoot(ByteBuffer buffer) throws IOException, InterruptedException {
    Path bin = dir.resolve("data.bin");
    ByteBuffer b = buffer.duplicate();
    byte[] bytes = new byte[b.remaining()];
    b.get(bytes);
    Files.write(bin, bytes);
    return plan.fileIdentifier() == null
        ? flatcJson(fbs, bin, "--raw-binary")
        : flatcJson(fbs, bin);
  }

  /**
   * The FlatBuffer in {@code binary} as flatc itself decodes it with {@code schema} ({@code flatc
   * --json --strict-json}, plus {@code flags}), read back as JSON.
   */
  public static JsonNode flatcJson(Path schema, Path binary, String... flags)
      throws IOException, InterruptedException {
    Path out = Files.createTempDirectory("flatc-json-");
    List<String> command =
        new java.util.ArrayList<>(
            List.of(FlatcRunner.flatc().toString(), "--json", "--strict-json"));
    command.addAll(List.of(flags));
    command.addAll(List.of("-o", out.toString(), schema.toString(), "--", binary.toString()));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
    assertThat(p.exitValue()).as(said).isZero();
    String name = binary.getFileName().toString().replaceFirst("\\.[^.]*$", "") + ".json";
    return JSON.readTree(Files.readString(out.resolve(name)));
  }

  public static JsonNode json(String text) {
    return JSON.readTree(text);
  }
}
