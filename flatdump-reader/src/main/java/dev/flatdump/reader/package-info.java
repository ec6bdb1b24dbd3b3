/**
 * Reading published exports from a service: follow the output directory's pointer, check the
 * manifest's shards, map them read-only, hand out reference-counted snapshots and reload to a newer
 * export; depends only on the JDK and flatbuffers-java.
 */
package dev.flatdump.reader;
