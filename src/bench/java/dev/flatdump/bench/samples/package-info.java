/**
 * The articles' organizations, for the benchmarks and the tests: their records ({@link
 * dev.flatdump.bench.samples.Org}), a deterministic generator in two profiles, and a codec between
 * them and BSON. flatdump itself knows no record type: an export follows its schema.
 */
package dev.flatdump.bench.samples;
