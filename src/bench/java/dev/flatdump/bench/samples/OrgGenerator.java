package dev.flatdump.bench.samples;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.bson.types.ObjectId;

/**
 * An endless, deterministic stream of sample organizations: the same profile and seed always give
 * the same organizations, and {@link #idOf(long)} the same {@code _id}s.
 *
 * <p>Both profiles:
 *
 * <ul>
 *   <li>attribute count: uniform in {@value #MIN_ATTRIBUTES}..{@value #MAX_ATTRIBUTES};
 *   <li>attribute ids: drawn without replacement (distinct within an organization) from a pool of
 *       {@value #ID_POOL_SIZE} ids, in random order;
 *   <li>name: {@code <adjective> <noun> <suffix> <0..9999>} from 40 × 40 × 10 words, so names are
 *       mostly unique (about 16M combinations).
 * </ul>
 *
 * <p>{@link Profile#ARTICLE} follows the articles' published generator ({@code SampleDataFactory}
 * of the articles' code, in the {@code jerolba/parquet-for-java-posts} repository): its pool holds
 * {@value #ID_POOL_SIZE} ids of {@value #ARTICLE_ID_LENGTH} characters, each shaped like the
 * articles' {@code imei() + "-" + ean8()} (15 digits whose last is a Luhn check digit, a dash, 8
 * digits whose last is an EAN-8 check digit), drawn from the seed; quantity and amount uniform in
 * 0..127, size a uniform 0..65534 cast to a short (so -32768..32766), percent uniform in [0, 100),
 * active a fair coin. So attribute tuples practically never repeat. Category uniform over 36,
 * country uniform over the 249 ISO 3166-1 alpha-2 codes, type uniform over FOO, BAR, BAZ. Where it
 * differs from the articles' generator: ids are distinct within an organization (the articles' text
 * says "different Attributes", their code draws with replacement), and names, categories and
 * countries come from this class's vocabulary, not from a faker library.
 *
 * <p>{@link Profile#REALISTIC} adds the repetition real data has. Its pool ids are {@code
 * attr_000}..{@code attr_399}. Each pool id gets 1..4 typical tuples (quantity and amount in
 * 0..100, size in 0..5000, percent a multiple of 0.25 in [0, 100], active true 80% of the time),
 * fixed by the seed. An attribute takes one of its id's typical tuples, chosen uniformly, with
 * probability 0.9, else a random tuple: quantity, amount and size uniform over their whole type,
 * percent uniform in [0, 100), active a fair coin. Category: 80% from the 8 common ones, else
 * uniform over all 36; country: 70% from the 15 common ones, else uniform over all 249; type: FOO
 * 60%, BAR 30%, BAZ 10%.
 *
 * <p>Not thread-safe; one generator per thread.
 */
public final class OrgGenerator implements Iterator<Org> {

  public static final int ID_POOL_SIZE = 400;
  public static final int MIN_ATTRIBUTES = 40;
  public static final int MAX_ATTRIBUTES = 69;

  /** ARTICLE's ids: 15 digits, a dash and 8 digits, as the articles' {@code imei-ean8}. */
  public static final int ARTICLE_ID_LENGTH = 24;

  /** The timestamp of every generated {@code _id}: 2024-01-01T00:00:00Z. */
  private static final int ID_TIMESTAMP = 1_704_067_200;

  private static final double TYPICAL_SHARE = 0.9;
  private static final int MAX_TYPICAL_TUPLES = 4;
  private static final double COMMON_CATEGORY_SHARE = 0.8;
  private static final double COMMON_COUNTRY_SHARE = 0.7;
  private static final OrgType[] TYPES = OrgType.values();

  private final Profile profile;
  private final long seed;
  private final SplittableRandom random;
  private final String[] attributeIds = new String[ID_POOL_SIZE];
  private final int[] pool = new int[ID_POOL_SIZE];

  /** REALISTIC only: typical tuples per pool index; their ids are the pool ids. */
  private final Attr[][] typical;

  /**
   * @param profile how values are drawn
   * @param seed any value; the same seed gives the same organizations and ids
   */
  public OrgGenerator(Profile profile, long seed) {
    this.profile = Objects.requireNonNull(profile, "profile");
    this.seed = seed;
    SplittableRandom root = new SplittableRandom(seed);
    SplittableRandom tuples = root.split();
    this.random = root.split();
    for (int i = 0; i < ID_POOL_SIZE; i++) {
      attributeIds[i] =
          profile == Profile.ARTICLE ? articleId(tuples) : String.format("attr_%03d", i);
      pool[i] = i;
    }
    this.typical = profile == Profile.REALISTIC ? typicalTuples(tuples) : null;
  }

  public Profile profile() {
    return profile;
  }

  public long seed() {
    return seed;
  }

  /**
   * The {@code _id} of the {@code index}-th organization (0-based) for this seed: a fixed
   * timestamp, three bytes derived from the seed and the index in the last five bytes, so ids
   * ascend with the index.
   */
  public ObjectId idOf(long index) {
    return objectId(seed, index);
  }

  /** See {@link #idOf(long)}; {@code index} must be in 0..2^40-1. */
  public static ObjectId objectId(long seed, long index) {
    if (index < 0 || index >= 1L << 40) {
      throw new IllegalArgumentException("index must be in 0..2^40-1, got " + index);
    }
    int seedBits = (int) (new SplittableRandom(seed).nextLong() >>> 40); // 24 bits
    ByteBuffer bytes = ByteBuffer.allocate(12);
    bytes.putInt(ID_TIMESTAMP);
    bytes.put((byte) (seedBits >>> 16)).put((byte) (seedBits >>> 8)).put((byte) seedBits);
    bytes.put((byte) (index >>> 32)).putInt((int) index);
    return new ObjectId(bytes.array());
  }

  /** Always true: the stream is endless. */
  @Override
  public boolean hasNext() {
    return true;
  }

  @Override
  public Org next() {
    return profile == Profile.REALISTIC ? realistic() : article();
  }

  /** The organizations still to come, endless: limit it. */
  public Stream<Org> stream() {
    return Stream.generate(this::next);
  }

  private Org article() {
    String name = name();
    String category = pick(Vocabulary.CATEGORIES);
    String country = pick(Vocabulary.COUNTRIES);
    OrgType type = TYPES[random.nextInt(TYPES.length)];
    int count = attributeCount();
    List<Attr> attributes = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      attributes.add(articleAttr(attributeIds[drawId(i)]));
    }
    return new Org(name, category, country, type, attributes);
  }

  private Org realistic() {
    String name = name();
    String category =
        skewed(Vocabulary.CATEGORIES, Vocabulary.COMMON_CATEGORIES, COMMON_CATEGORY_SHARE);
    String country =
        skewed(Vocabulary.COUNTRIES, Vocabulary.COMMON_COUNTRIES, COMMON_COUNTRY_SHARE);
    double t = random.nextDouble();
    OrgType type = t < 0.6 ? OrgType.FOO : t < 0.9 ? OrgType.BAR : OrgType.BAZ;
    int count = attributeCount();
    List<Attr> attributes = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int id = drawId(i);
      attributes.add(
          random.nextDouble() < TYPICAL_SHARE ? pick(typical[id]) : randomAttr(attributeIds[id]));
    }
    return new Org(name, category, country, type, attributes);
  }

  private String name() {
    return pick(Vocabulary.ADJECTIVES)
        + ' '
        + pick(Vocabulary.NOUNS)
        + ' '
        + pick(Vocabulary.SUFFIXES)
        + ' '
        + random.nextInt(10_000);
  }

  private int attributeCount() {
    return random.nextInt(MIN_ATTRIBUTES, MAX_ATTRIBUTES + 1);
  }

  /**
   * The {@code i}-th id of a partial Fisher-Yates shuffle of the pool: distinct for i = 0, 1, ...
   * within one organization. The pool stays a permutation, so it needs no reset between orgs.
   */
  private int drawId(int i) {
    int j = random.nextInt(i, ID_POOL_SIZE);
    int id = pool[j];
    pool[j] = pool[i];
    pool[i] = id;
    return id;
  }

  /** The articles' attribute values: see the class comment. */
  private Attr articleAttr(String id) {
    return new Attr(
        id,
        (byte) random.nextInt(0, 128),
        (byte) random.nextInt(0, 128),
        (short) random.nextInt(0, 65_535),
        random.nextDouble() * 100,
        random.nextBoolean());
  }

  /**
   * An id shaped like the articles' {@code imei() + "-" + ean8()}: 14 random digits and their Luhn
   * check digit, a dash, 7 random digits and their EAN-8 check digit.
   */
  static String articleId(SplittableRandom r) {
    char[] id = new char[ARTICLE_ID_LENGTH];
    int luhn = 0;
    for (int i = 0; i < 14; i++) {
      int d = r.nextInt(10);
      id[i] = (char) ('0' + d);
      // Counting from the check digit at position 14, every second digit is doubled.
      int weighted = i % 2 == 1 ? 2 * d : d;
      luhn += weighted > 9 ? weighted - 9 : weighted;
    }
    id[14] = (char) ('0' + (10 - luhn % 10) % 10);
    id[15] = '-';
    int ean = 0;
    for (int i = 0; i < 7; i++) {
      int d = r.nextInt(10);
      id[16 + i] = (char) ('0' + d);
      ean += i % 2 == 0 ? 3 * d : d;
    }
    id[23] = (char) ('0' + (10 - ean % 10) % 10);
    return new String(id);
  }

  private Attr randomAttr(String id) {
    return new Attr(
        id,
        (byte) random.nextInt(Byte.MIN_VALUE, Byte.MAX_VALUE + 1),
        (byte) random.nextInt(Byte.MIN_VALUE, Byte.MAX_VALUE + 1),
        (short) random.nextInt(Short.MIN_VALUE, Short.MAX_VALUE + 1),
        random.nextDouble() * 100,
        random.nextBoolean());
  }

  private Attr[][] typicalTuples(SplittableRandom r) {
    Attr[][] tuples = new Attr[ID_POOL_SIZE][];
    for (int id = 0; id < ID_POOL_SIZE; id++) {
      tuples[id] = new Attr[r.nextInt(1, MAX_TYPICAL_TUPLES + 1)];
      for (int k = 0; k < tuples[id].length; k++) {
        tuples[id][k] =
            new Attr(
                attributeIds[id],
                (byte) r.nextInt(0, 101),
                (byte) r.nextInt(0, 101),
                (short) r.nextInt(0, 5001),
                r.nextInt(0, 401) * 0.25,
                r.nextDouble() < 0.8);
      }
    }
    return tuples;
  }

  private String skewed(String[] values, int common, double commonShare) {
    return random.nextDouble() < commonShare ? values[random.nextInt(common)] : pick(values);
  }

  private <T> T pick(T[] values) {
    return values[random.nextInt(values.length)];
  }
}
