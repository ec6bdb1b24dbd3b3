/**
 * {@code flatdump-bench}, the benchmarks' command line ({@code bin/flatdump-bench}): picocli
 * commands over {@code dev.flatdump.bench}, with flatdump's option sources and exit codes.
 */
package dev.flatdump.bench.cli;
