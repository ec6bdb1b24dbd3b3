/**
 * The schema plan: a user's FlatBuffers schema, compiled once (from {@code .fbs} with flatc, or
 * from a binary schema) into the tables, fields and BSON names that the schema-driven engine reads
 * BSON into.
 */
package dev.flatdump.encode.plan;
