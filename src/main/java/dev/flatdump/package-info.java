/**
 * flatdump's one exception family; and the sample organizations' records, which the generator
 * writes and the benchmarks read (exports follow a schema, not these types).
 */
package dev.flatdump;
