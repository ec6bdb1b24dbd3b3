package dev.flatdump.bench.samples;

/** How an {@link OrgGenerator} draws its values; see the generator for the distributions. */
public enum Profile {
  /**
   * The articles' benchmark data: every value uniformly random, so attribute tuples never repeat.
   */
  ARTICLE,
  /**
   * Repetitive like real data: each attribute id mostly takes one of a few typical value tuples.
   */
  REALISTIC
}
