/**
 * Encodes documents into FlatBuffers: the schema plan ({@code plan}), the engine that writes BSON
 * bytes into it with switchable de-duplication ({@code engine}), and the {@code --dedup} options.
 */
package dev.flatdump.encode;
