package dev.flatdump.artifact;

import static dev.flatdump.artifact.VerifierFixtures.bytes;
import static dev.flatdump.artifact.VerifierFixtures.decodeAll;
import static dev.flatdump.artifact.VerifierFixtures.small;
import static dev.flatdump.artifact.VerifierFixtures.wrap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.google.flatbuffers.FlatBufferBuilder;
import dev.flatdump.Org;
import dev.flatdump.encode.DedupOptions;
import dev.flatdump.encode.FlatBufferOrgs;
import dev.flatdump.sample.Profile;
import dev.flatdump.schema.fb.Attribute;
import dev.flatdump.schema.fb.Organization;
import dev.flatdump.schema.fb.OrganizationType;
import dev.flatdump.schema.fb.Organizations;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class FlatBufferVerifierTest {

  static void putInt(byte[] bytes, int at, int value) {
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(at, value);
  }

  static void putShort(byte[] bytes, int at, int value) {
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putShort(at, (short) value);
  }

  static FlatBufferVerifier.Error errorOf(byte[] bytes) {
    FlatBufferVerifier.Result result = FlatBufferVerifier.verify(wrap(bytes));
    assertThat(result.valid()).as("verification of a corrupt buffer").isFalse();
    return result.error();
  }

  @Nested
  class ValidBuffers {

    @ParameterizedTest
    @MethodSource("dev.flatdump.artifact.VerifierFixtures#allDedupOptions")
    void passesWithEveryDedupCombination(DedupOptions dedup) {
      for (Profile profile : Profile.values()) {
        List<Org> orgs = VerifierFixtures.generated(profile, 42, 60);
        ByteBuffer buf = wrap(bytes(dedup, orgs));

        FlatBufferVerifier.Result result = FlatBufferVerifier.verify(buf);

        assertThat(result.error()).as("%s %s", profile, dedup).isNull();
        assertThat(result.valid()).isTrue();
        assertThat(result.organizations()).isEqualTo(60);
      }
    }

    @ParameterizedTest
    @MethodSource("dev.flatdump.artifact.VerifierFixtures#allDedupOptions")
    void passesEdgeCasesWithEveryDedupCombination(DedupOptions dedup) {
      assertThat(FlatBufferVerifier.verify(wrap(bytes(dedup, small()))).error()).isNull();
    }

    @Test
    void passesAnEmptyShard() {
      FlatBufferVerifier.Result result =
          FlatBufferVerifier.verify(wrap(bytes(DedupOptions.ALL, List.of())));

      assertThat(result.valid()).isTrue();
      assertThat(result.organizations()).isZero();
    }

    @Test
    void verifiesFromThePositionToTheLimitAndLeavesTheBufferAlone() {
      byte[] shard = bytes(DedupOptions.ALL, small());
      byte[] padded = new byte[shard.length + 40];
      java.util.Arrays.fill(padded, (byte) 0xEE);
      System.arraycopy(shard, 0, padded, 16, shard.length);
      ByteBuffer buf = ByteBuffer.wrap(padded).position(16).limit(16 + shard.length);

      FlatBufferVerifier.Result result = FlatBufferVerifier.verify(buf);

      assertThat(result.error()).isNull();
      assertThat(result.organizations()).isEqualTo(2);
      assertThat(buf.position()).isEqualTo(16);
      assertThat(buf.limit()).isEqualTo(16 + shard.length);
      assertThat(buf.order()).isEqualTo(ByteOrder.BIG_ENDIAN);
    }

    @Test
    void aTableSharedManyTimesIsVerifiedOnce() {
      // One organization referenced 100,000 times: re-verifying it each time would visit its
      // 60-odd attributes 100,000 times over; remembered, each is visited once.
      Org org = VerifierFixtures.generated(Profile.ARTICLE, 3, 1).get(0);
      int references = 100_000;
      ByteBuffer buf = sharedOrganization(org, references);
      int attributes = org.attributes().size();
      long visits = 1 + references + attributes;

      FlatBufferVerifier.Result exact =
          FlatBufferVerifier.verify(
              buf, new FlatBufferVerifier.Limits(64, visits, buf.remaining()));
      FlatBufferVerifier.Result tooFew =
          FlatBufferVerifier.verify(
              buf, new FlatBufferVerifier.Limits(64, visits - 1, buf.remaining()));

      assertThat(exact.error()).isNull();
      assertThat(exact.organizations()).isEqualTo(references);
      assertThat(FlatBufferVerifier.verify(buf).valid()).as("default limits").isTrue();
      assertThat(tooFew.error().reason()).contains("table visits");
      assertThat(FlatBufferOrgs.count(buf)).isEqualTo(references);
    }

    /** An Organizations buffer whose vector holds the same org table {@code references} times. */
    private static ByteBuffer sharedOrganization(Org org, int references) {
      FlatBufferBuilder b = new FlatBufferBuilder(1 << 20);
      int[] attributes = new int[org.attributes().size()];
      for (int i = 0; i < attributes.length; i++) {
        var a = org.attributes().get(i);
        attributes[i] =
            Attribute.createAttribute(
                b,
                b.createString(a.id()),
                a.quantity(),
                a.amount(),
                a.size(),
                a.percent(),
                a.active());
      }
      int vector = Organization.createAttributesVector(b, attributes);
      int table =
          Organization.createOrganization(
              b,
              b.createString(org.name()),
              b.createString(org.category()),
              OrganizationType.BAR,
              b.createString(org.country()),
              vector);
      Organizations.startOrganizationsVector(b, references);
      for (int i = 0; i < references; i++) {
        b.addOffset(table);
      }
      int organizations = b.endVector();
      Organizations.finishOrganizationsBuffer(
          b, Organizations.createOrganizations(b, organizations));
      return b.dataBuffer().slice().order(ByteOrder.LITTLE_ENDIAN);
    }
  }

  @Nested
  class Truncation {

    @Test
    void everyTruncationOfASmallBufferIsReported() {
      byte[] bytes = bytes(DedupOptions.ALL, small());

      for (int length = 0; length < bytes.length; length++) {
        int n = length;
        assertThatCode(
                () ->
                    assertThat(FlatBufferVerifier.verify(wrap(bytes, n)).valid())
                        .as("cut to %d of %d bytes", n, bytes.length)
                        .isFalse())
            .doesNotThrowAnyException();
      }
    }

    @ParameterizedTest
    @MethodSource("dev.flatdump.artifact.VerifierFixtures#allDedupOptions")
    void sampledTruncationsOfALargerBufferAreReported(DedupOptions dedup) {
      byte[] bytes = bytes(dedup, VerifierFixtures.generated(Profile.REALISTIC, 5, 40));
      SplittableRandom random = new SplittableRandom(dedup.hashCode());
      // The first string written ends the buffer; up to 3 bytes of its padding follow its NUL,
      // and nothing references them. Cutting any referenced byte must be reported.
      int referenced = bytes.length - 3;
      List<Integer> lengths = new ArrayList<>(List.of(0, 4, 7, 8, 9, referenced - 1));
      for (int i = 0; i < 400; i++) {
        lengths.add(random.nextInt(referenced));
      }

      for (int length : lengths) {
        FlatBufferVerifier.Result result = FlatBufferVerifier.verify(wrap(bytes, length));

        assertThat(result.valid()).as("cut to %d of %d bytes", length, bytes.length).isFalse();
      }
    }

    @Test
    void aBufferShorterThanTheHeaderNamesItsSize() {
      FlatBufferVerifier.Error error = errorOf(new byte[] {8, 0, 0, 0, 'O', 'R', 'G'});

      assertThat(error.offset()).isZero();
      assertThat(error.path()).isEqualTo("(header)");
      assertThat(error.reason()).contains("7 bytes");
    }
  }

  @Nested
  class BitFlips {

    @ParameterizedTest
    @MethodSource("dev.flatdump.artifact.VerifierFixtures#allDedupOptions")
    void everySingleBitFlipIsReportedOrDecodesWithoutException(DedupOptions dedup) {
      byte[] original = bytes(dedup, small());
      int reported = 0;
      int passed = 0;

      for (int bit = 0; bit < original.length * 8; bit++) {
        byte[] bytes = original.clone();
        bytes[bit / 8] ^= (byte) (1 << (bit % 8));
        if (verifiesAndDecodes(bytes, "bit " + bit)) {
          passed++;
        } else {
          reported++;
        }
      }

      assertThat(reported).as("flips reported").isPositive();
      assertThat(passed).as("flips in string bytes and scalars that pass").isPositive();
    }

    @Test
    void randomCorruptionsAreReportedOrDecodeWithoutException() {
      byte[] original =
          bytes(DedupOptions.ALL, VerifierFixtures.generated(Profile.REALISTIC, 9, 8));
      SplittableRandom random = new SplittableRandom(2024);

      for (int round = 0; round < 3_000; round++) {
        byte[] bytes = original.clone();
        int changes = 1 + random.nextInt(4);
        for (int c = 0; c < changes; c++) {
          int at = random.nextInt(bytes.length - 3) & ~3;
          switch (random.nextInt(4)) {
            case 0 -> bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
            case 1 -> putInt(bytes, at, random.nextInt());
            case 2 -> putInt(bytes, at, random.nextInt(bytes.length) - at); // plausible offset
            default -> putShort(bytes, at, random.nextInt(64)); // plausible voffset
          }
        }
        verifiesAndDecodes(bytes, "round " + round);
      }
    }

    @Test
    void randomBytesBehindAValidHeaderAreReportedOrDecodeWithoutException() {
      SplittableRandom random = new SplittableRandom(7);

      for (int round = 0; round < 3_000; round++) {
        byte[] bytes = new byte[8 + random.nextInt(200)];
        for (int i = 8; i < bytes.length; i++) {
          bytes[i] = (byte) random.nextInt(random.nextBoolean() ? 16 : 256);
        }
        putInt(bytes, 0, 8 + 4 * random.nextInt(8));
        System.arraycopy("ORGS".getBytes(StandardCharsets.US_ASCII), 0, bytes, 4, 4);
        verifiesAndDecodes(bytes, "round " + round);
      }
    }

    /** Whether the bytes verify; if they do, they must decode completely without an exception. */
    private boolean verifiesAndDecodes(byte[] bytes, String what) {
      FlatBufferVerifier.Result[] result = new FlatBufferVerifier.Result[1];
      assertThatCode(() -> result[0] = FlatBufferVerifier.verify(wrap(bytes)))
          .as("verify, %s", what)
          .doesNotThrowAnyException();
      if (!result[0].valid()) {
        return false;
      }
      assertThatCode(() -> assertThat(decodeAll(wrap(bytes))).isEqualTo(result[0].organizations()))
          .as("decode after a passed verification, %s", what)
          .doesNotThrowAnyException();
      return true;
    }
  }
}
