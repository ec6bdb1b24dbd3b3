package dev.flatdump.encode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.flatbuffers.FlatBufferBuilder;
import dev.flatdump.FlatdumpException;
import dev.flatdump.Org;
import dev.flatdump.schema.fb.Organization;
import dev.flatdump.schema.fb.Organizations;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FlatBufferOrgsTest {

  private final List<Org> orgs = OrgFixtures.mixed();

  @Nested
  class Reading {

    @Test
    void readsAMemoryMappedShard(@TempDir Path dir) throws IOException {
      Path file = dir.resolve("orgs.fb");
      try (var channel =
          FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        channel.write(encode(orgs));
      }

      try (var channel = FileChannel.open(file, StandardOpenOption.READ)) {
        MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size());

        assertThat(FlatBufferOrgs.hasIdentifier(mapped)).isTrue();
        assertThat(readAll(mapped)).containsExactlyElementsOf(orgs);
      }
    }

    @Test
    void readsFromTheBufferPositionWithoutMovingItOrChangingItsOrder() {
      ByteBuffer shard = encode(orgs);
      // The shard starts 16 bytes into a larger, big-endian buffer.
      ByteBuffer buf =
          ByteBuffer.allocate(16 + shard.remaining()).position(16).put(shard).position(16);

      assertThat(FlatBufferOrgs.count(buf)).isEqualTo(orgs.size());
      assertThat(FlatBufferOrgs.read(buf, orgs.size() - 1)).isEqualTo(orgs.get(orgs.size() - 1));
      assertThat(readAll(buf)).containsExactlyElementsOf(orgs);
      assertThat(buf.position()).isEqualTo(16);
      assertThat(buf.order()).isEqualTo(ByteOrder.BIG_ENDIAN);
    }

    @Test
    void readsOneOrgByIndex() {
      ByteBuffer buf = encode(orgs);

      for (int i : new int[] {0, 1, 2, 100, orgs.size() - 1}) {
        assertThat(FlatBufferOrgs.read(buf, i)).isEqualTo(orgs.get(i));
      }
    }

    @Test
    void rejectsAnIndexOutOfRange() {
      ByteBuffer buf = encode(orgs);

      assertThatThrownBy(() -> FlatBufferOrgs.read(buf, orgs.size()))
          .isInstanceOf(IndexOutOfBoundsException.class);
      assertThatThrownBy(() -> FlatBufferOrgs.read(buf, -1))
          .isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void iteratorEndsAfterTheLastOrg() {
      Iterator<Org> it = FlatBufferOrgs.iterator(encode(orgs.subList(0, 2)));
      it.next();
      it.next();

      assertThat(it.hasNext()).isFalse();
      assertThatThrownBy(it::next).isInstanceOf(NoSuchElementException.class);
    }
  }

  @Nested
  class Rejecting {

    @Test
    void aBufferWithAnotherIdentifier() {
      var builder = new FlatBufferBuilder(64);
      int vector = Organizations.createOrganizationsVector(builder, new int[0]);
      builder.finish(Organizations.createOrganizations(builder, vector), "XXXX");
      ByteBuffer buf = ByteBuffer.wrap(builder.sizedByteArray());

      assertThat(FlatBufferOrgs.hasIdentifier(buf)).isFalse();
      assertThatThrownBy(() -> FlatBufferOrgs.count(buf))
          .isInstanceOf(FlatdumpException.class)
          .hasMessageContaining("'ORGS'")
          .hasMessageContaining("found 'XXXX'");
    }

    @Test
    void aBufferTooShortForAHeader() {
      ByteBuffer buf = ByteBuffer.wrap(new byte[] {1, 2, 3});

      assertThat(FlatBufferOrgs.hasIdentifier(buf)).isFalse();
      assertThatThrownBy(() -> FlatBufferOrgs.iterator(buf))
          .isInstanceOf(FlatdumpException.class)
          .hasMessageContaining("only 3 bytes");
    }

    @Test
    void anUnknownOrganizationType() {
      ByteBuffer buf =
          shardOf(
              builder -> {
                int name = builder.createString("n");
                return Organization.createOrganization(builder, name, name, (byte) 7, name, 0);
              });

      assertThatThrownBy(() -> FlatBufferOrgs.read(buf, 0))
          .isInstanceOf(FlatdumpException.class)
          .hasMessageContaining("organization 0 has unknown type 7");
    }

    @Test
    void anOrganizationWithoutAName() {
      ByteBuffer buf =
          shardOf(
              builder -> {
                int text = builder.createString("c");
                // by hand: the generated endOrganization refuses a table without its required name
                Organization.startOrganization(builder);
                Organization.addCategory(builder, text);
                Organization.addCountry(builder, text);
                return builder.endTable();
              });

      assertThatThrownBy(() -> FlatBufferOrgs.iterator(buf).next())
          .isInstanceOf(FlatdumpException.class)
          .hasMessageContaining("organization 0 has no name");
    }

    private ByteBuffer shardOf(OrgWriter writer) {
      var builder = new FlatBufferBuilder(64);
      int org = writer.write(builder);
      int vector = Organizations.createOrganizationsVector(builder, new int[] {org});
      Organizations.finishOrganizationsBuffer(
          builder, Organizations.createOrganizations(builder, vector));
      return ByteBuffer.wrap(builder.sizedByteArray());
    }
  }

  private interface OrgWriter {
    int write(FlatBufferBuilder builder);
  }

  private static ByteBuffer encode(List<Org> orgs) {
    var builder = new FlatBufferOrgsBuilder(DedupOptions.ALL, 1024);
    orgs.forEach(builder::add);
    return builder.finish();
  }

  private static List<Org> readAll(ByteBuffer buf) {
    var read = new ArrayList<Org>();
    FlatBufferOrgs.iterator(buf).forEachRemaining(read::add);
    return read;
  }
}
