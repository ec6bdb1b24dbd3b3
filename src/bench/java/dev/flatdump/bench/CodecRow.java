package dev.flatdump.bench;

/**
 * One row of the codec table; times are medians over the measured runs, heap figures are the median
 * of the runs' {@link HeapProbe} figures.
 *
 * @param name the row's label
 * @param writeNanos serializing the records and writing the file
 * @param fileBytes the file's size
 * @param gzipBytes the file gzipped at level 6 (the export's default)
 * @param zstdBytes the file zstd-compressed at the export's default level
 * @param peakUsedBytes heap used at the peak of writing, garbage included, above the live heap
 *     before it
 * @param peakLiveBytes heap live at the peak of writing (after collections), above the live heap
 *     before it
 * @param readSomeNanos reading every org's name and attribute ids
 * @param readAllNanos reading every field
 * @param someChecksum what the "some" read saw; equal across rows for equal data
 * @param allChecksum what the "all" read saw; equal across rows for equal data
 */
public record CodecRow(
    String name,
    long writeNanos,
    long fileBytes,
    long gzipBytes,
    long zstdBytes,
    long peakUsedBytes,
    long peakLiveBytes,
    long readSomeNanos,
    long readAllNanos,
    long someChecksum,
    long allChecksum) {}
