package dev.flatdump.encode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import dev.flatdump.Org;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What every {@link OrgStreamEncoder} does, whatever its format. Subclasses decode their format.
 */
abstract class OrgStreamEncoderContract {

  abstract StreamFormat format();

  /** Decodes everything the encoder wrote, with the format's own reader. */
  abstract List<Org> decode(byte[] bytes) throws IOException;

  byte[] encode(List<Org> orgs) throws IOException {
    var out = new ByteArrayOutputStream();
    try (var encoder = OrgStreamEncoder.create(format(), out)) {
      for (Org org : orgs) {
        encoder.write(org);
      }
    }
    return out.toByteArray();
  }

  @Test
  void writesOrgsThatReadBackEqual() throws IOException {
    List<Org> orgs = OrgFixtures.mixed();

    assertThat(decode(encode(orgs))).containsExactlyElementsOf(orgs);
  }

  @Test
  void writesAnEmptyStreamThatReadsBackEmpty() throws IOException {
    assertThat(decode(encode(List.of()))).isEmpty();
  }

  @Test
  void closeFlushesAndClosesTheStreamOnce() throws IOException {
    var out = new CountingStream();
    var encoder = OrgStreamEncoder.create(format(), out);
    encoder.write(OrgFixtures.edgeCases().get(1));

    encoder.close();
    encoder.close();

    assertThat(out.closes).isEqualTo(1);
    assertThat(decode(out.toByteArray())).containsExactly(OrgFixtures.edgeCases().get(1));
  }

  @Test
  void writeAfterCloseFails() throws IOException {
    var encoder = OrgStreamEncoder.create(format(), new ByteArrayOutputStream());
    encoder.close();

    assertThatIllegalStateException()
        .isThrownBy(() -> encoder.write(OrgFixtures.edgeCases().get(0)))
        .withMessageContaining("closed");
  }

  @Test
  void closesTheStreamEvenWhenTheFlushFails() throws IOException {
    var out = new FailingStream();
    var encoder = OrgStreamEncoder.create(format(), out);
    encoder.write(OrgFixtures.edgeCases().get(1));

    assertThatIOException().isThrownBy(encoder::close).withMessage("disk full");
    assertThat(out.closed).isTrue();
  }

  private static final class CountingStream extends ByteArrayOutputStream {
    int closes;

    @Override
    public void close() {
      closes++;
    }
  }

  private static final class FailingStream extends OutputStream {
    boolean closed;

    @Override
    public void write(int b) throws IOException {
      throw new IOException("disk full");
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      throw new IOException("disk full");
    }

    @Override
    public void close() {
      closed = true;
    }
  }
}
