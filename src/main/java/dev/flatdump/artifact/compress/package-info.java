/**
 * The compressions of an export's copies, gzip and zstd: their names, file extensions and levels,
 * how they write (on several threads, the same bytes whatever their number) and how they read back.
 * Shared by the writers of the copies, their check and the report's measurements.
 */
package dev.flatdump.artifact.compress;
