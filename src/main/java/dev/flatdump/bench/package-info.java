/**
 * Benchmarks, plain Java without picocli: the articles' codec table from in-memory records ({@link
 * dev.flatdump.bench.CodecBenchmark}) and the export against raw cursor scans ({@link
 * dev.flatdump.bench.ExportBenchmark}). Never used by the export itself.
 */
package dev.flatdump.bench;
