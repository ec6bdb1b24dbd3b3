/**
 * Pulling exports from object storage: reads the {@code CURRENT} pointer that flatdump's upload
 * writes, downloads that export (resuming, checking every object), and publishes it into a local
 * output directory with the same atomic pointer, so that {@link dev.flatdump.reader.ExportReader}
 * follows it.
 */
package dev.flatdump.reader.s3;
