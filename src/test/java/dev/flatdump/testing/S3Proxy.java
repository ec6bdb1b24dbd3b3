package dev.flatdump.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy in front of an S3 server (MinIO), for tests that must see or hold what a client
 * downloads: it forwards every byte unchanged (so signatures stay valid), records each request's
 * method, path and {@code Range} header, counts the bytes sent back, and can hold the responses
 * still once a number of bytes went through ({@link #pauseAfter}), until {@link #resume}. Requests
 * are read as header blocks without bodies: GET and HEAD only. Thread-safe.
 */
public final class S3Proxy implements AutoCloseable {

  /**
   * One request as it went through.
   *
   * @param range the {@code Range} header's value, or null
   */
  public record Request(String method, String path, String range) {}

  private final URI target;
  private final ServerSocket server;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private final List<Request> requests = new CopyOnWriteArrayList<>();
  private final Object gate = new Object();
  private long sent;
  private long pauseAt = Long.MAX_VALUE;
  private volatile boolean closed;

  private S3Proxy(URI target, ServerSocket server) {
    this.target = target;
    this.server = server;
    Thread accept = new Thread(this::accept, "S3Proxy-accept");
    accept.setDaemon(true);
    accept.start();
  }

  /** Listens on a free port of 127.0.0.1 and forwards to {@code target}'s host and port. */
  public static S3Proxy start(URI target) throws IOException {
    return new S3Proxy(target, new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1")));
  }

  /** {@code http://127.0.0.1:<port>}: the endpoint to give the client. */
  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.getLocalPort());
  }

  /** The requests seen so far, in order. */
  public List<Request> requests() {
    return List.copyOf(requests);
  }

  /** The requests for keys ending in {@code suffix}. */
  public List<Request> requestsFor(String suffix) {
    return requests.stream().filter(r -> r.path().endsWith(suffix)).toList();
  }

  public void clearRequests() {
    requests.clear();
  }

  /** Bytes sent back to clients so far, headers included. */
  public long bytesSent() {
    synchronized (gate) {
      return sent;
    }
  }

  /** Holds every response still once {@code bytes} more bytes were sent back, until resumed. */
  public void pauseAfter(long bytes) {
    synchronized (gate) {
      pauseAt = sent + bytes;
    }
  }

  /** Whether responses are held still now. */
  public boolean paused() {
    synchronized (gate) {
      return sent >= pauseAt;
    }
  }

  public void resume() {
    synchronized (gate) {
      pauseAt = Long.MAX_VALUE;
      gate.notifyAll();
    }
  }

  @Override
  public void close() throws IOException {
    closed = true;
    resume();
    server.close();
    for (Socket s : sockets) {
      s.close();
    }
  }

  private void accept() {
    while (!closed) {
      try {
        Socket client = server.accept();
        Socket upstream = new Socket();
        upstream.connect(new InetSocketAddress(target.getHost(), target.getPort()), 10_000);
        sockets.add(client);
        sockets.add(upstream);
        daemon(() -> requests(client, upstream), "S3Proxy-up");
        daemon(() -> responses(upstream, client), "S3Proxy-down");
      } catch (IOException e) {
        if (!closed) {
          System.err.println("S3Proxy: " + e);
        }
      }
    }
  }

  private static void daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    t.start();
  }

  /** Client to server: forwards each byte, parsing the header blocks as they pass. */
  private void requests(Socket client, Socket upstream) {
    try (InputStream in = client.getInputStream();
        OutputStream out = upstream.getOutputStream()) {
      StringBuilder line = new StringBuilder();
      List<String> headers = new ArrayList<>();
      for (int b; (b = in.read()) >= 0; ) {
        out.write(b);
        if (b == '\n') {
          String l = line.toString().strip();
          line.setLength(0);
          if (l.isEmpty()) {
            out.flush();
            record(headers);
            headers.clear();
          } else {
            headers.add(l);
          }
        } else {
          line.append((char) b);
        }
      }
    } catch (IOException ended) {
      // the client or the server closed the connection
    } finally {
      closeQuietly(client, upstream);
    }
  }

  private void record(List<String> headers) {
    if (headers.isEmpty()) {
      return;
    }
    String[] requestLine = headers.get(0).split(" ");
    String range = null;
    for (String h : headers.subList(1, headers.size())) {
      if (h.toLowerCase(Locale.ROOT).startsWith("range:")) {
        range = h.substring("range:".length()).strip();
      }
    }
    String path = requestLine.length > 1 ? requestLine[1] : "";
    int query = path.indexOf('?');
    requests.add(new Request(requestLine[0], query < 0 ? path : path.substring(0, query), range));
  }

  /** Server to client: forwards in small chunks, each waiting while responses are held. */
  private void responses(Socket upstream, Socket client) {
    try (InputStream in = upstream.getInputStream();
        OutputStream out = client.getOutputStream()) {
      byte[] buf = new byte[4096];
      for (int n; (n = in.read(buf)) > 0; ) {
        synchronized (gate) {
          while (sent >= pauseAt && !closed) {
            gate.wait();
          }
          sent += n;
        }
        out.write(buf, 0, n);
        out.flush();
      }
    } catch (IOException ended) {
      // the client or the server closed the connection
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      closeQuietly(client, upstream);
    }
  }

  private static void closeQuietly(Socket... sockets) {
    for (Socket s : sockets) {
      try {
        s.close();
      } catch (IOException ignored) {
        // already closed
      }
    }
  }

  @Override
  public String toString() {
    return "S3Proxy " + endpoint() + " -> " + target + " (" + requests.size() + " requests)";
  }
}
