/**
 * Reading an export back: its shards mapped and checked ({@link
 * dev.flatdump.artifact.read.SchemaArtifact}), each record as JSON, and the records written again
 * as protobuf onto a twin of the schema for the report's baseline.
 */
package dev.flatdump.artifact.read;
