package dev.flatdump.report;

import static dev.flatdump.testing.SchemaFixtures.bson;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.DynamicMessage;
import dev.flatdump.artifact.SchemaFiles;
import dev.flatdump.artifact.compress.Compression;
import dev.flatdump.artifact.read.ProtobufTwin;
import dev.flatdump.artifact.read.RecordJson;
import dev.flatdump.bench.samples.Org;
import dev.flatdump.bench.samples.OrgGenerator;
import dev.flatdump.bench.samples.Profile;
import dev.flatdump.encode.engine.RecordEncoder;
import dev.flatdump.encode.engine.Sharing;
import dev.flatdump.encode.plan.SchemaPlan;
import dev.flatdump.testing.OrganizationsEngine;
import dev.flatdump.testing.ProtobufOrgs;
import dev.flatdump.testing.SchemaFixtures;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SchemaBaselinesTest {

  private static final String SCHEMA =
      """
      table Attr { id: string; size: short; }
      table R { name: string; tags: [string]; attrs: [Attr]; }
      table Root { rs: [R]; }
      root_type Root;
      """;

  @TempDir Path dir;

  private static List<byte[]> docs() {
    List<byte[]> docs = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      int size = i % 50 == 7 ? 70000 : i % 3; // every fiftieth-and-seventh does not fit a short
      docs.add(
          bson(
              "{\"name\": \"organization-name-"
                  + (i % 4)
                  + "\", \"tags\": [\"a-long-tag\", \"t\"], \"attrs\": [{\"id\": \"attribute-id\","
                  + " \"size\": "
                  + size
                  + "}]}"));
    }
    return docs;
  }

  private static Compression gzip() {
    return Compression.create("gzip", 6);
  }

  private static Compression zstd() {
    return Compression.create("zstd", 3);
  }

  private static BaselineSize of(List<BaselineSize> sizes, Baseline b) {
    return sizes.stream().filter(s -> s.baseline() == b).findFirst().orElseThrow();
  }

  @Test
  void encodesTheDocumentsThatFitAgainAndWritesTheRecordsAsJson() throws Exception {
    SchemaFixtures fx = new SchemaFixtures(dir, SCHEMA);
    List<byte[]> all = docs();
    List<byte[]> fitting = new ArrayList<>();
    for (byte[] d : all) {
      try {
        new RecordEncoder(fx.plan, false)
            .encode(new com.google.flatbuffers.FlatBufferBuilder(), d, 0, d.length);
        fitting.add(d);
      } catch (dev.flatdump.encode.engine.RejectedRecord e) {
        // left out, as the export leaves it out
      }
    }
    assertThat(fitting).hasSize(all.size() - 4);
    ByteBuffer exported =
        fx.encode(
            new RecordEncoder(fx.plan, new Sharing(fx.plan, Sharing.Kinds.ALL), false), fitting);
    // as the export writes: a refused document leaves nothing, its objects rolled back
    ByteBuffer plain = exportLike(fx, Sharing.Kinds.NONE, fitting);
    ByteBuffer strings = exportLike(fx, Sharing.Kinds.parse("strings"), fitting);
    long jsonBytes = 0;
    RecordJson json = new RecordJson(fx.plan);
    for (int i = 0; i < json.count(exported); i++) {
      jsonBytes += json.record(exported, i).getBytes(StandardCharsets.UTF_8).length + 1;
    }

    List<BaselineSize> sizes;
    try (SchemaBaselines b =
        new SchemaBaselines(
            fx.plan,
            EnumSet.of(Baseline.PLAIN, Baseline.STRINGS, Baseline.JSON),
            gzip(),
            zstd(),
            1L << 30)) {
      for (byte[] d : all) {
        b.addDocument(d, 0, d.length);
      }
      b.addShard(exported);
      sizes = b.finish();
    }

    assertThat(sizes)
        .extracting(BaselineSize::baseline)
        .containsExactly(Baseline.PLAIN, Baseline.STRINGS, Baseline.JSON);
    assertThat(of(sizes, Baseline.PLAIN).bytes()).isEqualTo(plain.remaining());
    assertThat(of(sizes, Baseline.STRINGS).bytes()).isEqualTo(strings.remaining());
    assertThat(of(sizes, Baseline.STRINGS).bytes()).isLessThan(of(sizes, Baseline.PLAIN).bytes());
    assertThat(of(sizes, Baseline.JSON).bytes()).isEqualTo(jsonBytes);
    for (BaselineSize s : sizes) {
      assertThat(s.gzipBytes()).as(s.baseline().id()).isPositive().isLessThan(s.bytes());
      assertThat(s.zstdBytes()).as(s.baseline().id()).isPositive().isLessThan(s.bytes());
    }
  }

  /** The documents, all of which fit, in one buffer with the sharing of {@code kinds}. */
  private static ByteBuffer exportLike(SchemaFixtures fx, Sharing.Kinds kinds, List<byte[]> docs) {
    return fx.encode(new RecordEncoder(fx.plan, new Sharing(fx.plan, kinds), false), docs);
  }

  @Test
  void cutsItsOwnShardsAtTheLimit() throws Exception {
    SchemaFixtures fx = new SchemaFixtures(dir, SCHEMA);
    long whole;
    long cut;
    try (SchemaBaselines b =
        new SchemaBaselines(fx.plan, Set.of(Baseline.PLAIN), gzip(), zstd(), 1L << 30)) {
      docs().forEach(d -> b.addDocument(d, 0, d.length));
      whole = b.finish().get(0).bytes();
    }
    try (SchemaBaselines b =
        new SchemaBaselines(fx.plan, Set.of(Baseline.PLAIN), gzip(), zstd(), 2048)) {
      docs().forEach(d -> b.addDocument(d, 0, d.length));
      cut = b.finish().get(0).bytes();
    }
    assertThat(cut).as("several shards, each with its root").isGreaterThan(whole);
  }

  @Test
  void measuresProtobufForAnySchemaFromTheExportedRecords() throws Exception {
    SchemaFixtures fx = new SchemaFixtures(dir, SCHEMA);
    Descriptor root = ProtobufTwin.of(fx.plan).findMessageTypeByName("Root");
    Descriptor r = root.findFieldByName("rs").getMessageType();
    Descriptor attr = r.findFieldByName("attrs").getMessageType();
    List<byte[]> all = docs();
    List<byte[]> fitting = new ArrayList<>();
    // what protobuf's own serializer writes for the same records, built from what docs() says
    DynamicMessage.Builder expected = DynamicMessage.newBuilder(root);
    for (int i = 0; i < all.size(); i++) {
      if (i % 50 == 7) {
        continue; // its size does not fit a short: not exported
      }
      fitting.add(all.get(i));
      DynamicMessage.Builder a =
          DynamicMessage.newBuilder(attr).setField(attr.findFieldByName("id"), "attribute-id");
      if (i % 3 != 0) {
        a.setField(attr.findFieldByName("size"), i % 3);
      }
      expected.addRepeatedField(
          root.findFieldByName("rs"),
          DynamicMessage.newBuilder(r)
              .setField(r.findFieldByName("name"), "organization-name-" + (i % 4))
              .addRepeatedField(r.findFieldByName("tags"), "a-long-tag")
              .addRepeatedField(r.findFieldByName("tags"), "t")
              .addRepeatedField(r.findFieldByName("attrs"), a.build())
              .build());
    }
    ByteBuffer exported =
        fx.encode(
            new RecordEncoder(fx.plan, new Sharing(fx.plan, Sharing.Kinds.ALL), false), fitting);

    List<BaselineSize> sizes;
    try (SchemaBaselines b =
        new SchemaBaselines(fx.plan, EnumSet.of(Baseline.PROTOBUF), gzip(), zstd(), 1L << 30)) {
      b.addShard(exported);
      sizes = b.finish();
    }

    assertThat(sizes).extracting(BaselineSize::baseline).containsExactly(Baseline.PROTOBUF);
    assertThat(sizes.get(0).bytes()).isEqualTo(expected.build().getSerializedSize());
  }

  @Test
  void measuresProtobufForOrganizationsFromTheExportedRecords() throws Exception {
    SchemaPlan plan = SchemaFiles.bundled().plan();
    List<Org> orgs = new OrgGenerator(Profile.REALISTIC, 5).stream().limit(200).toList();
    List<BaselineSize> sizes;
    try (SchemaBaselines b =
        new SchemaBaselines(plan, EnumSet.of(Baseline.PROTOBUF), gzip(), zstd(), 1L << 30)) {
      assertThat(b.needsDocuments()).isFalse();
      b.addShard(OrganizationsEngine.encode(Sharing.Kinds.ALL, orgs));
      sizes = b.finish();
    }

    assertThat(sizes).extracting(BaselineSize::baseline).containsExactly(Baseline.PROTOBUF);
    assertThat(sizes.get(0).bytes()).isEqualTo(ProtobufOrgs.of(orgs).getSerializedSize());
    assertThat(sizes.get(0).gzipBytes()).isPositive().isLessThan(sizes.get(0).bytes());
  }
}
