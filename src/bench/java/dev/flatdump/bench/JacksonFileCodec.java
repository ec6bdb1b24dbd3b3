package dev.flatdump.bench;

import dev.flatdump.bench.samples.Org;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * JSON as the articles wrote it: Jackson with its defaults writes the whole {@code List<Org>} as
 * one array straight to a file stream, and reads it back into records with a {@code TypeReference}.
 * Both reads parse everything; they differ only in what is touched afterwards.
 */
final class JacksonFileCodec implements OrgFileCodec {

  private static final TypeReference<List<Org>> ORGS = new TypeReference<>() {};

  /** Immutable in Jackson 3, so one mapper serves every call. */
  private final ObjectMapper mapper = new JsonMapper();

  @Override
  public String name() {
    return "JSON (Jackson, as the articles)";
  }

  @Override
  public String extension() {
    return "json";
  }

  @Override
  public Object write(List<Org> orgs, Path file) throws IOException {
    try (OutputStream os = new FileOutputStream(file.toFile())) {
      mapper.writeValue(os, orgs);
    }
    return null;
  }

  @Override
  public long readSome(Path file) throws IOException {
    return ReadChecksum.some(parse(file));
  }

  @Override
  public long readAll(Path file) throws IOException {
    return ReadChecksum.all(parse(file));
  }

  List<Org> parse(Path file) throws IOException {
    try (InputStream is = new FileInputStream(file.toFile())) {
      return mapper.readValue(is, ORGS);
    }
  }
}
