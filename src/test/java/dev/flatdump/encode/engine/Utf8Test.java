package dev.flatdump.encode.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.flatbuffers.Utf8Safe;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class Utf8Test {

  /** The verifier's entry: a buffer read by absolute index. */
  private static int firstInvalid(byte[] bytes) {
    return Utf8.firstInvalid(ByteBuffer.wrap(bytes), 0, bytes.length);
  }

  /** The engine's entry: a range of an array, here with bytes before and after it. */
  private static int firstInvalidInArray(byte[] bytes) {
    byte[] padded = new byte[bytes.length + 10];
    java.util.Arrays.fill(padded, (byte) 0xFF);
    System.arraycopy(bytes, 0, padded, 3, bytes.length);
    return Utf8.firstInvalid(padded, 3, 3 + bytes.length);
  }

  @Test
  void acceptsAsciiAndEveryEncodingLength() {
    byte[] text = "plain ascii, Ñandú, 日本, 😀 and \u0000".getBytes(StandardCharsets.UTF_8);

    assertThat(firstInvalid(text)).isEqualTo(-1);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "80", // a continuation byte first
        "c0af", // overlong '/'
        "c1bf", // overlong
        "e080af", // overlong 3-byte
        "eda080", // a surrogate, U+D800
        "f08080af", // overlong 4-byte
        "f4908080", // above U+10FFFF
        "f5808080", // no such lead byte
        "ff",
        "e282", // truncated
        "c3" // truncated
      })
  void rejectsWhatStrictUtf8Forbids(String hex) {
    byte[] bytes = HexFormat.of().parseHex("41424344454647" + hex);

    assertThat(firstInvalid(bytes)).isEqualTo(7);
    assertThat(firstInvalidInArray(bytes)).isEqualTo(7);
  }

  @Test
  void theArrayAndTheBufferAgreeOnTheOffsetOfTheFirstBadSequence() {
    SplittableRandom random = new SplittableRandom(2);
    byte[] good = "añ日😀bcdefghij".getBytes(StandardCharsets.UTF_8);

    for (int round = 0; round < 20_000; round++) {
      byte[] bytes = new byte[random.nextInt(40)];
      for (int i = 0; i < bytes.length; i++) {
        bytes[i] = random.nextInt(4) == 0 ? (byte) random.nextInt(256) : good[i % good.length];
      }

      assertThat(firstInvalidInArray(bytes))
          .as("%s", HexFormat.of().formatHex(bytes))
          .isEqualTo(firstInvalid(bytes));
    }
  }

  @Test
  void aBufferIsReadByAbsoluteIndexWhateverItsPositionAndOrder() {
    byte[] bytes = HexFormat.of().parseHex("4142434445464748494aeda080");
    ByteBuffer buffer =
        ByteBuffer.allocateDirect(bytes.length + 2).order(java.nio.ByteOrder.BIG_ENDIAN);
    buffer.put(1, bytes).position(5);

    assertThat(Utf8.firstInvalid(buffer, 1, bytes.length)).isEqualTo(10);
    assertThat(Utf8.firstInvalid(buffer, 1, 10)).isEqualTo(-1);
    assertThat(buffer.position()).isEqualTo(5);
  }

  @Test
  void aReasonNamesTheBadByteAndItsOffsetInTheString() {
    byte[] bytes = HexFormat.of().parseHex("ff41c3a9c0af");

    assertThat(Utf8.reason(bytes, 1, bytes.length))
        .isEqualTo("not valid UTF-8: byte 0xC0 at offset 3");
    assertThat(Utf8.valid(bytes, 1, 4)).isTrue();
  }

  @Test
  void agreesWithTheDecodersFlatBuffersAndTheJdkUse() {
    SplittableRandom random = new SplittableRandom(1);
    int[] interesting = {0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xDF};
    int[] leads = {0xE0, 0xE1, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF4, 0xF5, 0xFF};

    for (int round = 0; round < 20_000; round++) {
      byte[] bytes = new byte[random.nextInt(12)];
      for (int i = 0; i < bytes.length; i++) {
        int pick = random.nextInt(3);
        bytes[i] =
            (byte)
                (pick == 0
                    ? interesting[random.nextInt(interesting.length)]
                    : pick == 1 ? leads[random.nextInt(leads.length)] : random.nextInt(256));
      }

      boolean valid = firstInvalid(bytes) < 0;
      assertThat(firstInvalidInArray(bytes) < 0).isEqualTo(valid);

      assertThat(valid)
          .as("%s", HexFormat.of().formatHex(bytes))
          .isEqualTo(flatBuffersDecodes(bytes))
          .isEqualTo(jdkDecodes(bytes));
    }
  }

  private static boolean flatBuffersDecodes(byte[] bytes) {
    try {
      new Utf8Safe().decodeUtf8(ByteBuffer.wrap(bytes).asReadOnlyBuffer(), 0, bytes.length);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static boolean jdkDecodes(byte[] bytes) {
    try {
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes));
      return true;
    } catch (CharacterCodingException e) {
      return false;
    }
  }
}
