/**
 * Benchmarks, plain Java without picocli: the articles' codec table from in-memory records ({@link
 * dev.flatdump.bench.CodecBenchmark}) and the export against raw cursor scans ({@link
 * dev.flatdump.bench.ExportBenchmark}). Never used by the export itself, and not in its jar: the
 * sources are in {@code src/bench/java}, compiled beside the tests, and packaged as {@code
 * target/flatdump-bench.jar}; their command line is {@code dev.flatdump.bench.cli}.
 */
package dev.flatdump.bench;
