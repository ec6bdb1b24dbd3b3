package dev.flatdump.reader.s3;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * An {@link S3Client} that serves GETs (whole, or {@code Range: bytes=N-}) from a map, records each
 * request's key and range, and can break a transfer off after a number of bytes, once: for the
 * download's and the puller's unit tests, which need no server. Anything but {@code getObject} and
 * {@code getObjectAsBytes} is unsupported.
 */
final class FakeObjects implements S3Client {

  final Map<String, byte[]> objects = new ConcurrentHashMap<>();

  /** Each GET's {@code Range} header, "" for none, in order. */
  final List<String> ranges = new CopyOnWriteArrayList<>();

  /** Each GET's key, small objects' ({@code getObjectAsBytes}) too, in order. */
  final List<String> keys = new CopyOnWriteArrayList<>();

  /** When at least 0, the next transfer fails with an IOException after this many bytes. */
  volatile long breakAfter = -1;

  @Override
  public ResponseBytes<GetObjectResponse> getObjectAsBytes(GetObjectRequest request) {
    keys.add(request.key());
    byte[] bytes = objects.get(request.key());
    if (bytes == null) {
      throw (S3Exception) S3Exception.builder().statusCode(404).message("NoSuchKey").build();
    }
    return ResponseBytes.fromByteArray(
        GetObjectResponse.builder().contentLength((long) bytes.length).build(), bytes.clone());
  }

  @Override
  public ResponseInputStream<GetObjectResponse> getObject(GetObjectRequest request) {
    keys.add(request.key());
    ranges.add(request.range() == null ? "" : request.range());
    byte[] bytes = objects.get(request.key());
    if (bytes == null) {
      throw (S3Exception) S3Exception.builder().statusCode(404).message("NoSuchKey").build();
    }
    int from = 0;
    if (request.range() != null) {
      from = Integer.parseInt(request.range().replaceAll("^bytes=(\\d+)-$", "$1"));
      if (from >= bytes.length) {
        throw (S3Exception) S3Exception.builder().statusCode(416).message("InvalidRange").build();
      }
    }
    InputStream in = new ByteArrayInputStream(bytes, from, bytes.length - from);
    long limit = breakAfter;
    if (limit >= 0) {
      breakAfter = -1;
      in = breaking(in, limit);
    }
    GetObjectResponse response =
        GetObjectResponse.builder()
            .contentLength((long) bytes.length - from)
            .contentRange(
                request.range() == null
                    ? null
                    : "bytes " + from + "-" + (bytes.length - 1) + "/" + bytes.length)
            .build();
    return new ResponseInputStream<>(response, AbortableInputStream.create(in));
  }

  private static InputStream breaking(InputStream in, long limit) {
    return new FilterInputStream(in) {
      private long sent;

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        if (sent >= limit) {
          throw new IOException("connection reset");
        }
        int n = super.read(b, off, (int) Math.min(len, limit - sent));
        sent += Math.max(n, 0);
        return n;
      }
    };
  }

  @Override
  public String serviceName() {
    return "s3";
  }

  @Override
  public void close() {}
}
