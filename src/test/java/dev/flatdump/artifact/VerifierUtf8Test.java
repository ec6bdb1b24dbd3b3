package dev.flatdump.artifact;

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

class VerifierUtf8Test {

  private static int firstInvalid(byte[] bytes) {
    return VerifierUtf8.firstInvalid(ByteBuffer.wrap(bytes), 0, bytes.length);
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
